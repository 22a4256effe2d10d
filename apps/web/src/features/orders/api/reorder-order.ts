import { reorderResultSchema, type ReorderBody, type ReorderResult } from '@portal/contracts';
import { api } from '@/lib/api';

/**
 * POST /orders/{id}/reorder: adds each line's quantity to the cart of `target` (the outlet × store the
 * person is looking at, issue 9 §1), else to the order's own outlet × store cart; the answer names it.
 */
export async function reorderOrder(orderId: number, target?: ReorderBody): Promise<ReorderResult> {
  return reorderResultSchema.parse(await api.post(`/orders/${orderId}/reorder`, { json: target ?? {} }));
}
