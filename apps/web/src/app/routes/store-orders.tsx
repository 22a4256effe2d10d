import { StoreOrders } from '@/features/orders/components/store-orders';
import { preloadOrders } from '@/features/orders/api/get-orders';
import { preloadAttentionOrders } from '@/features/orders/api/attention';
import { preloadPaymentReadiness } from '@/features/orders/api/get-payment-readiness';
import { preloadStoreDeliveries } from '@/features/orders/api/deliveries';
import { whenSelectionKnown } from '@/lib/selection';

// A signed-in page load: the list and its notices (card payments, needs attention, tomorrow's deliveries) are asked
// for as soon as the saved selection is known (issue 26).
whenSelectionKnown(({ storeId }) => {
  if (!storeId) return;
  preloadOrders({ storeId });
  preloadPaymentReadiness(storeId);
  preloadAttentionOrders(storeId);
  preloadStoreDeliveries(storeId);
});

/** /orders (permission bcc.orders.store.manage): Store Orders. */
export function StoreOrdersRoute() {
  return <StoreOrders />;
}
