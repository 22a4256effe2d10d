import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { PROBLEM_CODES, CART_MESSAGES, CHECKOUT_MESSAGES, type Cart } from '@portal/contracts';
import { ApiError } from '@/lib/api';
import { useSession } from '@/lib/session';
import { notify } from '@/components/ui/toaster';
import { storeCheckoutSession } from '@/lib/checkout-storage';
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
} as const;

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
}: {
  cart: Cart | null;
  canCheckout: boolean;
  settled: () => Promise<void>;
  reload: () => unknown;
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
      const session = await createCheckoutSession(cart.id);
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
      } else notify({ title: CHECKOUT_TOASTS.failedTitle, description: CHECKOUT_TOASTS.failed, variant: 'destructive' });
    }
  }, [canCheckout, me, cart, settled, navigate, reload]);

  return { checkout, processing };
}
