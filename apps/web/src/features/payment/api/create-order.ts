import { orderDetailSchema, type CreateOrderBody, type OrderDetail } from '@portal/contracts';
import { api } from '@/lib/api';

/** How long placing an order may take before the page says it timed out (the gateway's own limit is 30 s). */
export const ORDER_TIMEOUT_MS = 45_000;

/**
 * POST /orders with an Idempotency-Key: the same key answers the first result and never charges twice,
 * so a retry of one attempt must reuse its key. The body holds the card; it is neither logged nor stored.
 */
export async function createOrder(body: CreateOrderBody, idempotencyKey: string): Promise<OrderDetail> {
  return orderDetailSchema.parse(
    await api.post('/orders', { json: body, headers: { 'Idempotency-Key': idempotencyKey }, timeout: ORDER_TIMEOUT_MS }),
  );
}
