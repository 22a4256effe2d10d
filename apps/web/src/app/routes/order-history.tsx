import { OrderHistory } from '@/features/orders/components/order-history';
import { preloadOrders } from '@/features/orders/api/get-orders';
import { whenSelectionKnown } from '@/lib/selection';

// A signed-in page load: the list is asked for as soon as the saved selection is known (issue 26).
whenSelectionKnown(({ storeId }) => {
  if (storeId) preloadOrders({ storeId, mine: true });
});

/** /order-history: My Orders. */
export function OrderHistoryRoute() {
  return <OrderHistory />;
}
