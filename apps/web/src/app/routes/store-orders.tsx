import { StoreOrders } from '@/features/orders/components/store-orders';
import { preloadOrders } from '@/features/orders/api/get-orders';
import { whenSelectionKnown } from '@/lib/selection';

// A signed-in page load: the list is asked for as soon as the saved selection is known (issue 26).
whenSelectionKnown(({ storeId }) => {
  if (storeId) preloadOrders({ storeId });
});

/** /orders (permission bcc.orders.store.manage): Store Orders. */
export function StoreOrdersRoute() {
  return <StoreOrders />;
}
