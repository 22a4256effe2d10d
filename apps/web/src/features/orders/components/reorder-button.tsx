import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { RotateCcw } from 'lucide-react';
import { PROBLEM_CODES, ORDER_MESSAGES, type Order } from '@portal/contracts';
import { ApiError } from '@/lib/api';
import { useSelection } from '@/lib/selection';
import { Button } from '@/components/ui/button';
import { notify } from '@/components/ui/toaster';
import { reorderOrder } from '../api/reorder-order';
import { isCartKey } from '@/lib/cart-cache';

const FAILED = {
  title: 'Failed to add items',
  description: 'Unable to add items to cart. Please try again.',
  variant: 'destructive',
} as const;

/**
 * 'Re-Order these items' (spec 001 §2, §8): adds every line's quantity to the cart the person is looking at
 * (the selected outlet × store, issue 9 §1), with the spec's toasts. `onAdded` runs after a success, before
 * the toast, so a dialog can close and leave the toast's View Cart reachable (issue 9 §3).
 */
export function ReorderButton({ order, onAdded }: { order: Pick<Order, 'id' | 'items'>; onAdded?: () => void }) {
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const { outlet, store } = useSelection();

  async function reorder() {
    if (order.items.length === 0) {
      notify({ title: ORDER_MESSAGES.noItemsToReorder, variant: 'destructive' });
      return;
    }
    setBusy(true);
    try {
      const target = outlet && store ? { outletId: outlet.outletId, storeId: store.id } : undefined;
      const r = await reorderOrder(order.id, target);
      void mutate(isCartKey);
      if (r.added === 0) {
        notify({ ...FAILED, description: r.message || FAILED.description });
        return;
      }
      const skipped = r.skipped.length ? ` ${r.skipped.length} item(s) are no longer available and were skipped.` : '';
      onAdded?.();
      notify({
        title: 'Items added to cart',
        description: ORDER_MESSAGES.reorderAdded(r.added) + skipped,
        variant: 'success',
        action: { label: 'View Cart', onClick: () => navigate('/cart') },
      });
    } catch (e) {
      if (e instanceof ApiError && e.code === PROBLEM_CODES.nothingToReorder)
        notify({ title: ORDER_MESSAGES.noItemsToReorder, variant: 'destructive' });
      else notify(FAILED);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button onClick={reorder} loading={busy}>
      {busy ? (
        'Adding to Cart...'
      ) : (
        <>
          <RotateCcw className="h-4 w-4" aria-hidden />
          Re-Order these items
        </>
      )}
    </Button>
  );
}
