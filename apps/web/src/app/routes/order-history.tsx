import { OrderHistory } from '@/features/orders/components/order-history';

/** /order-history: My Orders. */
export function OrderHistoryRoute() {
  return <OrderHistory />;
}
