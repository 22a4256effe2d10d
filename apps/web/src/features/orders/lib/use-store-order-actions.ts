import { useState } from 'react';
import type { Order } from '@portal/contracts';
import { notify } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api';
import { markOrderReady } from '../api/mark-order-ready';
import { STORE_ORDERS_MESSAGES } from './store-orders-messages';

/**
 * Store Orders' actions (spec 001 §2; issue 14 §1): Mark Ready, and Mark Completed / Cancel through `act`, each
 * with its toast and the list refreshed (`refresh`); `marking` is the order an action runs on, `cancelling` the
 * order whose cancel dialog is open (closed when the cancel succeeds).
 */
export function useStoreOrderActions(refresh: () => Promise<unknown>) {
  const [marking, setMarking] = useState<number | null>(null);
  const [cancelling, setCancelling] = useState<Order | null>(null);

  async function markReady(order: Order) {
    setMarking(order.id);
    try {
      await markOrderReady(order.id);
      notify({ title: STORE_ORDERS_MESSAGES.markedTitle, description: STORE_ORDERS_MESSAGES.markedDescription, variant: 'success' });
      await refresh();
    } catch {
      notify({ title: 'Error', description: STORE_ORDERS_MESSAGES.markFailed, variant: 'destructive' });
    } finally {
      setMarking(null);
    }
  }

  /** Mark Completed / Cancel (issue 14 §1): a toast either way; a refused refund leaves the order "Refund pending". */
  async function act(order: Order, run: () => Promise<unknown>, title: string) {
    setMarking(order.id);
    try {
      await run();
      notify({ title, description: `Order ${order.orderNumber}`, variant: 'success' });
      setCancelling(null);
    } catch (e) {
      notify({
        title: 'Error',
        description: e instanceof ApiError ? e.message : STORE_ORDERS_MESSAGES.actionFailed,
        variant: 'destructive',
      });
    } finally {
      setMarking(null);
      await refresh();
    }
  }

  return { marking, cancelling, setCancelling, markReady, act };
}
