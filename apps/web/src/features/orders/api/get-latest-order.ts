import { orderSchema, type Order } from '@portal/contracts';
import { getJson } from '@/lib/api';

/** GET /orders/latest: the caller's newest order (404 when there is none). */
export function getLatestOrder(): Promise<Order> {
  return getJson('/orders/latest', orderSchema);
}
