import { StoreOrders } from '@/features/orders/components/store-orders';

/** /orders (permission bcc.orders.store.manage): Store Orders. */
export function StoreOrdersRoute() {
  return <StoreOrders />;
}
