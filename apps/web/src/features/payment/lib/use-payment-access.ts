import { useEffect, useState } from 'react';
import { PROBLEM_CODES, CHECKOUT_MESSAGES, checkoutTokenSchema, type CheckoutSession } from '@portal/contracts';
import { ApiError } from '@/lib/api';
import { getCheckoutSession } from '../api/get-checkout-session';
import { clearStoredCheckout } from '@/lib/checkout-storage';

/** Texts of the payment access check (spec 002 §5 and §8, spec 001 §8), verbatim. */
export const ACCESS_MESSAGES = {
  invalidRoute: 'Invalid access route. Please use the checkout process.',
  missingToken: 'Missing checkout token. Please restart the checkout process.',
  expired: 'Checkout session expired. Please restart the checkout process.',
  validationFailed: 'Session validation failed',
} as const;

export type PaymentAccess = { state: 'pending' } | { state: 'allowed'; session: CheckoutSession } | { state: 'denied'; message: string };

/** The message a failed session check shows, by the problem's stable code. */
export function sessionErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return ACCESS_MESSAGES.validationFailed;
  switch (error.code) {
    case PROBLEM_CODES.checkoutSessionNotFound:
      return CHECKOUT_MESSAGES.noSession;
    case PROBLEM_CODES.checkoutSessionUserMismatch:
      return CHECKOUT_MESSAGES.userMismatch;
    case PROBLEM_CODES.checkoutSessionExpired:
      return ACCESS_MESSAGES.expired;
    case PROBLEM_CODES.checkoutSessionUsed:
      return CHECKOUT_MESSAGES.sessionUsed;
    case PROBLEM_CODES.validationFailed:
      return CHECKOUT_MESSAGES.invalidToken;
    default:
      return ACCESS_MESSAGES.validationFailed;
  }
}

/**
 * The payment page's access check (spec 002 §4): pending while the query and the server-side session
 * are checked, then allowed (with the session) or denied (with the spec's message). An expired session
 * is also cleared from local storage.
 */
export function usePaymentAccess(params: URLSearchParams): PaymentAccess {
  const source = params.get('source');
  const token = params.get('token');
  const [access, setAccess] = useState<PaymentAccess>({ state: 'pending' });

  useEffect(() => {
    let alive = true;
    if (source !== 'cart') {
      setAccess({ state: 'denied', message: ACCESS_MESSAGES.invalidRoute });
      return;
    }
    if (!token) {
      setAccess({ state: 'denied', message: ACCESS_MESSAGES.missingToken });
      return;
    }
    if (!checkoutTokenSchema.safeParse(token).success) {
      setAccess({ state: 'denied', message: CHECKOUT_MESSAGES.invalidToken });
      return;
    }
    setAccess({ state: 'pending' });
    getCheckoutSession(token).then(
      (session) => {
        if (alive) setAccess({ state: 'allowed', session });
      },
      (error) => {
        if (
          error instanceof ApiError &&
          (error.code === PROBLEM_CODES.checkoutSessionExpired || error.code === PROBLEM_CODES.checkoutSessionUsed)
        )
          clearStoredCheckout();
        if (alive) setAccess({ state: 'denied', message: sessionErrorMessage(error) });
      },
    );
    return () => {
      alive = false;
    };
  }, [source, token]);

  return access;
}
