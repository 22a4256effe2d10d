import { reorderResultSchema, type ReorderResult } from '@portal/contracts';
import { api } from '../../../lib/api';

/** POST /orders/{id}/reorder: adds each line's quantity to the caller's current cart. */
export async function reorderOrder(orderId: number): Promise<ReorderResult> {
  const res = await api.post(`/orders/${orderId}/reorder`);
  return reorderResultSchema.parse(res.data);
}
