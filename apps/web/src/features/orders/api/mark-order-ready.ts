import { api } from '@/lib/api';

/** POST /orders/{id}/ready: a reserved order becomes ready (store managers of the order's store only). */
export async function markOrderReady(orderId: number): Promise<void> {
  await api.post(`/orders/${orderId}/ready`);
}
