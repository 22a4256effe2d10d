import { useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import {
  PROBLEM_CODES,
  CHECKOUT_MESSAGES,
  PAYMENT_SETUP_CODE,
  type Card as CardData,
  type CheckoutSession,
  type CreateOrderBody,
} from '@portal/contracts';
import { ApiError } from '@/lib/api';
import { notify } from '@/components/ui/toaster';
import { isCartKey } from '@/lib/cart-cache';
import { clearStoredCheckout, rememberLastOrder } from '@/lib/checkout-storage';
import { retry } from '@/lib/retry';
import { createOrder } from '../api/create-order';
import { ACCESS_MESSAGES } from './use-payment-access';
import { isTransientPaymentError, paymentErrorMessage } from './payment-errors';

const RETRY_DELAY_MS = 1000;

/** Refusals that end this checkout: the person must start again from the cart (a payment error blocks the session). */
const ENDS_CHECKOUT = new Set<string>([
  PROBLEM_CODES.checkoutSessionExpired,
  PROBLEM_CODES.checkoutSessionUsed,
  PROBLEM_CODES.checkoutCartChanged,
  PROBLEM_CODES.checkoutItemsUnavailable,
  PROBLEM_CODES.checkoutSessionNotFound,
  PROBLEM_CODES.paymentError,
  // A card payment of this cart awaits the gateway's outcome (issue 8 §1): nothing to retry here; My Orders shows it.
  PROBLEM_CODES.paymentBeingConfirmed,
]);
const ENDED_FALLBACK: Record<string, string> = {
  [PROBLEM_CODES.checkoutSessionExpired]: ACCESS_MESSAGES.expired,
  [PROBLEM_CODES.checkoutSessionUsed]: CHECKOUT_MESSAGES.sessionUsed,
  [PROBLEM_CODES.checkoutCartChanged]: CHECKOUT_MESSAGES.cartChanged,
  [PROBLEM_CODES.checkoutItemsUnavailable]: CHECKOUT_MESSAGES.itemsUnavailable,
  [PROBLEM_CODES.checkoutSessionNotFound]: CHECKOUT_MESSAGES.noSession,
  [PROBLEM_CODES.paymentError]: CHECKOUT_MESSAGES.paymentError,
  [PROBLEM_CODES.paymentBeingConfirmed]: CHECKOUT_MESSAGES.paymentBeingConfirmed,
};

/**
 * Placing the order of a checkout session (spec 002 §4, §8): one Idempotency-Key per attempt (an unchanged retry
 * after a transient failure reuses it), up to 3 tries 1 s apart on transient errors; on success the stored
 * checkout is cleared, the order remembered, the cart refreshed, a toast shown and /order-confirmation/{id}
 * opened. A refusal that ends the checkout calls `onEnded` with its message; any other failure is shown as a
 * mapped text (`failure`, and a toast). A store refusing card payments sets `cardsRefused`.
 */
export function usePlaceOrder(session: CheckoutSession, onEnded: (message: string) => void) {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const [cardsRefused, setCardsRefused] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // One Idempotency-Key per attempt; an unchanged retry after a transient failure reuses it.
  const attempt = useRef<{ key: string; body: string } | null>(null);

  async function place(body: CreateOrderBody) {
    const fingerprint = JSON.stringify(body);
    if (attempt.current?.body !== fingerprint) attempt.current = { key: crypto.randomUUID(), body: fingerprint };
    const key = attempt.current.key;
    setProcessing(true);
    setFailure(null);
    try {
      const order = await retry(() => createOrder(body, key), {
        attempts: 3,
        delayMs: RETRY_DELAY_MS,
        shouldRetry: isTransientPaymentError,
      });
      attempt.current = null;
      clearStoredCheckout();
      rememberLastOrder(order.id);
      void mutate(isCartKey);
      notify(
        body.paymentMethod === 'card'
          ? { title: 'Payment Successful', description: `Order ${order.orderNumber} has been placed successfully.`, variant: 'success' }
          : {
              title: 'Order Created',
              description: `Order ${order.orderNumber} has been placed successfully. Please pay at the store.`,
              variant: 'success',
            },
      );
      navigate(`/order-confirmation/${order.id}`, { replace: true });
    } catch (e) {
      if (!isTransientPaymentError(e)) attempt.current = null;
      const err = e instanceof ApiError ? e : null;
      const title = body.paymentMethod === 'card' ? 'Payment Failed' : 'Error';
      if (err && ENDS_CHECKOUT.has(err.code)) {
        const message =
          err.code === PROBLEM_CODES.checkoutSessionExpired ? ACCESS_MESSAGES.expired : err.problem.detail || ENDED_FALLBACK[err.code];
        if (err.code === PROBLEM_CODES.paymentError) notify({ title, description: message, variant: 'destructive' });
        clearStoredCheckout();
        onEnded(message);
        return;
      }
      if (err?.code === PAYMENT_SETUP_CODE) setCardsRefused(true);
      // Spec 002 §8: mapped texts (permission, network, timeout, setup), never the raw server text.
      const message = paymentErrorMessage(e, body.paymentMethod);
      setFailure(message);
      notify({ title, description: message, variant: 'destructive' });
      setProcessing(false);
    }
  }

  const payCard = (card: CardData) => place({ checkoutToken: session.token, paymentMethod: 'card', card });
  const payInStore = () => place({ checkoutToken: session.token, paymentMethod: 'in_store' });
  return { processing, failure, cardsRefused, payCard, payInStore };
}
