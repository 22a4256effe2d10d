import { orderDetailSchema, type OrderDetail } from '@portal/contracts';
import { getJson, useApi } from '@/lib/api';

/** GET /orders/{id}: the order with its lines, the store's details and the delivery block. */
export function getOrder(orderId: number): Promise<OrderDetail> {
  return getJson(`/orders/${orderId}`, orderDetailSchema);
}

/** SWR hook over GET /orders/{id}; null skips the request. */
export function useOrder(orderId: number | null) {
  return useApi(orderId ? `/orders/${orderId}` : null, orderDetailSchema);
}
