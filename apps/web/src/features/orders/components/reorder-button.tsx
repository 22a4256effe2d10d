import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { RotateCcw } from 'lucide-react';
import { CHECKOUT_ERROR_CODES, ORDER_MESSAGES, type Order } from '@portal/contracts';
import { ApiError } from '../../../lib/api';
import { Button } from '../../../components/ui/button';
import { notify } from '../../../components/ui/toaster';
import { reorderOrder } from '../api/reorder-order';
import { isCartKey } from '../lib/cart-cache';

const FAILED = { title: 'Failed to add items', description: 'Unable to add items to cart. Please try again.', variant: 'destructive' } as const;

/** 'Re-Order these items' (spec 001 §2, §8): adds every line's quantity to the current cart, with the spec's toasts. */
export function ReorderButton({ order }: { order: Pick<Order, 'id' | 'items'> }) {
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();

  async function reorder() {
    if (order.items.length === 0) { notify({ title: ORDER_MESSAGES.noItemsToReorder, variant: 'destructive' }); return; }
    setBusy(true);
    try {
      const r = await reorderOrder(order.id);
      void mutate(isCartKey);
      if (r.added === 0) { notify({ ...FAILED, description: r.message || FAILED.description }); return; }
      const skipped = r.skipped.length ? ` ${r.skipped.length} item(s) are no longer available and were skipped.` : '';
      notify({
        title: 'Items added to cart', description: ORDER_MESSAGES.reorderAdded(r.added) + skipped, variant: 'success',
        action: { label: 'View Cart', onClick: () => navigate('/cart') },
      });
    } catch (e) {
      if (e instanceof ApiError && e.code === CHECKOUT_ERROR_CODES.nothingToReorder) notify({ title: ORDER_MESSAGES.noItemsToReorder, variant: 'destructive' });
      else notify(FAILED);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button onClick={reorder} loading={busy}>
      {busy ? 'Adding to Cart...' : (<><RotateCcw className="h-4 w-4" aria-hidden />Re-Order these items</>)}
    </Button>
  );
}
