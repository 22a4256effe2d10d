import type { OrderDetail } from '@portal/contracts';
import { api } from '@/lib/api';

/** POST /orders/{id}/complete: a ready order becomes completed (store managers of the order's store; issue 14 §1). */
export async function completeOrder(orderId: number): Promise<OrderDetail> {
  return api.post<OrderDetail>(`/orders/${orderId}/complete`);
}

/** POST /orders/{id}/cancel { reason }: a reserved or ready order is cancelled (a card payment refunded first; issue 14 §1). */
export async function cancelOrder(orderId: number, reason: string): Promise<OrderDetail> {
  return api.post<OrderDetail>(`/orders/${orderId}/cancel`, { json: { reason } });
}
