import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { PROBLEM_CODES, CART_MESSAGES, CHECKOUT_MESSAGES, type Cart } from '@portal/contracts';
import { ApiError } from '@/lib/api';
import { useSession } from '@/lib/session';
import { notify } from '@/components/ui/toaster';
import { storeCheckoutSession } from '@/lib/checkout-storage';
import { shortfallText } from '@/lib/delivery-schedule';
import { createCheckoutSession, paymentUrl } from './create-checkout-session';

/** Checkout toasts of spec 001 §8, verbatim. */
export const CHECKOUT_TOASTS = {
  deniedTitle: 'Access Denied',
  denied: "You don't have permission to checkout.",
  emptyTitle: 'Cart is empty',
  empty: CHECKOUT_MESSAGES.cartEmpty,
  authTitle: 'Authentication required',
  auth: 'Please log in to proceed with checkout.',
  failedTitle: 'Checkout Failed',
  failed: 'There was an error starting the checkout process. Please try again.',
  belowMinimumTitle: 'Below the delivery minimum',
} as const;

/** The 409 problem code of a delivery below the store's minimum (issue 28 §2). */
export const BELOW_DELIVERY_MINIMUM = 'below_delivery_minimum';

/** "Add 2.3 L more for delivery" from the refusal's shortfallMl / shortfallAmount (else its detail). */
export function belowMinimumText(err: ApiError): string {
  const text = shortfallText({ ml: err.extension('shortfallMl') ?? 0, amount: err.extension('shortfallAmount') ?? 0 });
  return text ?? err.message;
}

/**
 * Starts checkout (spec 001 §4): needs the permission, a non-empty cart and a signed-in user; waits for
 * cart writes in flight, creates the server-side session, keeps it under `checkout_session` and opens
 * /payment. `processing` is true until the page changes or an error is shown.
 */
export function useCheckout({
  cart,
  canCheckout,
  settled,
  reload,
  emergency = false,
}: {
  cart: Cart | null;
  canCheckout: boolean;
  settled: () => Promise<void>;
  reload: () => unknown;
  /** An emergency order (issue 28 §1): skips the order calendar. */
  emergency?: boolean;
}) {
  const navigate = useNavigate();
  const { me } = useSession();
  const [processing, setProcessing] = useState(false);

  const checkout = useCallback(async () => {
    if (!canCheckout) {
      notify({ title: CHECKOUT_TOASTS.deniedTitle, description: CHECKOUT_TOASTS.denied, variant: 'destructive' });
      return;
    }
    if (!me) {
      notify({ title: CHECKOUT_TOASTS.authTitle, description: CHECKOUT_TOASTS.auth, variant: 'destructive' });
      return;
    }
    if (!cart || cart.items.length === 0) {
      notify({ title: CHECKOUT_TOASTS.emptyTitle, description: CHECKOUT_TOASTS.empty, variant: 'destructive' });
      return;
    }
    setProcessing(true);
    try {
      await settled();
      const session = await createCheckoutSession(cart.id, emergency);
      storeCheckoutSession(session, me.user.id);
      navigate(paymentUrl(session));
    } catch (e) {
      setProcessing(false);
      const err = e instanceof ApiError ? e : null;
      if (err?.status === 403) notify({ title: CHECKOUT_TOASTS.deniedTitle, description: CHECKOUT_TOASTS.denied, variant: 'destructive' });
      else if (err?.status === 401) notify({ title: CHECKOUT_TOASTS.authTitle, description: CHECKOUT_TOASTS.auth, variant: 'destructive' });
      else if (err?.code === PROBLEM_CODES.cartEmpty) {
        notify({ title: CHECKOUT_TOASTS.emptyTitle, description: CHECKOUT_TOASTS.empty, variant: 'destructive' });
        void reload();
      } else if (err?.code === 'checkout_items_unavailable') {
        notify({ title: CHECKOUT_TOASTS.failedTitle, description: CHECKOUT_MESSAGES.itemsUnavailable, variant: 'destructive' });
        void reload();
      } else if (err?.code === PROBLEM_CODES.deliveryUnavailable) {
        notify({ title: CHECKOUT_TOASTS.failedTitle, description: CART_MESSAGES.deliveryUnavailable, variant: 'destructive' });
        void reload();
      } else if (err?.code === BELOW_DELIVERY_MINIMUM) {
        notify({ title: CHECKOUT_TOASTS.belowMinimumTitle, description: belowMinimumText(err), variant: 'destructive' });
        void reload();
      } else if (err?.status === 409 || err?.status === 422) {
        notify({ title: CHECKOUT_TOASTS.failedTitle, description: err.message, variant: 'destructive' });
      } else notify({ title: CHECKOUT_TOASTS.failedTitle, description: CHECKOUT_TOASTS.failed, variant: 'destructive' });
    }
  }, [canCheckout, me, cart, settled, navigate, reload, emergency]);

  return { checkout, processing };
}
