import { PROBLEM_CODES, PAYMENT_ERROR_MESSAGES, PAYMENT_SETUP_CODE } from '@portal/contracts';
import { ApiError } from '@/lib/api';

/**
 * What the payment screen says when placing the order fails (spec 002 §8 "Payment", issue 16 §4):
 * 401 → 'Authentication required'; 403 or "permission denied" → temporarily unavailable; no answer →
 * the network text; a timeout (client or 504/408) → the timeout text; the store's payment setup (code
 * payment_setup, or a gateway SETUP) → the credentials configuration text; 'Payment processed but order
 * creation failing…' for payment_unconfirmed; an expired session → the spec's restart text. The API's own
 * problem texts for known refusals (a decline's verbiage, session used, cart changed…) are shown as they are;
 * anything else — a 5xx, a body that is not our problem+json — is never shown raw: in-store it is
 * 'Failed to create order. Please try again.', by card the temporarily-unavailable text.
 */
/** Codes lib/api gives answers that were not our problem+json (their detail is not the server's). */
const SYNTHESISED = new Set(['unknown', 'network_error', 'timeout']);

export function paymentErrorMessage(error: unknown, method: 'card' | 'in_store'): string {
  const fallback = method === 'in_store' ? PAYMENT_ERROR_MESSAGES.createOrderFailed : PAYMENT_ERROR_MESSAGES.temporarilyUnavailable;
  if (!(error instanceof ApiError)) return fallback;
  const { status, code } = error;
  const detail = error.problem.detail ?? '';
  if (code === 'timeout' || status === 504 || status === 408) return PAYMENT_ERROR_MESSAGES.timeout;
  if (status === 0) return PAYMENT_ERROR_MESSAGES.network;
  if (status === 401) return PAYMENT_ERROR_MESSAGES.authRequired;
  if (status === 403 || /permission denied/i.test(detail)) return PAYMENT_ERROR_MESSAGES.temporarilyUnavailable;
  if (code === PAYMENT_SETUP_CODE || /\bSETUP\b|credential/i.test(detail)) return PAYMENT_ERROR_MESSAGES.setup;
  if (code === PROBLEM_CODES.checkoutSessionExpired) return PAYMENT_ERROR_MESSAGES.sessionExpired;
  if (code === PROBLEM_CODES.paymentUnconfirmed) return PAYMENT_ERROR_MESSAGES.orderCreationFailing;
  if (status === 503 || code === 'service_unavailable') return PAYMENT_ERROR_MESSAGES.temporarilyUnavailable;
  // Our API's refusals carry texts written for people (spec messages, the gateway's decline verbiage).
  const ours = status >= 400 && status < 500 && !SYNTHESISED.has(code);
  if ((ours || code === PROBLEM_CODES.paymentError) && detail) return detail;
  return fallback;
}

/**
 * Whether a failure may be retried with the same Idempotency-Key at once (the same attempt may still have
 * gone through): no answer at all, 503, or the key still being processed. A timeout is not retried: the
 * person is told to look at My Orders first.
 */
export function isTransientPaymentError(e: unknown): boolean {
  return (
    e instanceof ApiError && e.code !== 'timeout' && (e.status === 0 || e.status === 503 || e.code === PROBLEM_CODES.idempotencyInProgress)
  );
}
