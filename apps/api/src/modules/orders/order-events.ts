import type { Db } from '../../db/knex';
import { loadDetail } from './order-detail';
import { enqueueWebhookDeliveries } from '../webhooks/webhook-queue';

/** Event types of the order feed and webhooks (ARCHITECTURE §10). */
export const ORDER_EVENT_TYPES = ['order.created', 'order.ready', 'order.completed', 'order.cancelled'] as const;
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number] | 'order.cancel_pending';

/** The advisory lock every event append holds until its transaction ends: seqs commit in seq order (gap-free feed). */
const ORDER_EVENTS_LOCK = 0x0e7e_0014;

/**
 * Appends one `order_events` row for a transition of `orderId` inside the caller's transaction `trx`:
 * the payload is the order snapshot (lines, customer, store, fulfillment, payment
 * method and status; never card data). A transaction-level advisory lock is taken first, so a reader
 * never sees seq N+1 committed before seq N (the feed never skips an event). Webhook deliveries of the
 * endpoints subscribed to `type` are queued in the same transaction. Returns the event's seq.
 */
export async function appendOrderEvent(trx: Db, orderId: number, type: OrderEventType): Promise<number> {
  const { row, detail } = await loadDetail(trx, orderId);
  const { payment: _card, ...order } = detail;
  await trx.raw('SELECT pg_advisory_xact_lock(?)', [ORDER_EVENTS_LOCK]);
  const [ev] = await trx('order_events')
    .insert({ order_id: orderId, store_id: row.storeId, type, payload: JSON.stringify(order) })
    .returning(['seq']);
  const seq = Number(ev.seq);
  await enqueueWebhookDeliveries(trx, { seq, type, storeId: row.storeId });
  return seq;
}
