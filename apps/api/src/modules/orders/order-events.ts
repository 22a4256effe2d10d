import type { Db } from '../../db/knex';
import { loadDetail } from './order-detail';
import { enqueueWebhookDeliveries } from '../webhooks/webhook-queue';

/** Event types of the order feed and webhooks (ARCHITECTURE §10). */
export const ORDER_EVENT_TYPES = ['order.created', 'order.ready', 'order.completed', 'order.cancelled'] as const;
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number] | 'order.cancel_pending';

/**
 * SQL of an event as the feed and webhooks send it, `{"seq","type","occurredAt","order"}` (occurredAt ISO in
 * UTC with milliseconds), over the columns of an `order_events` row aliased `e`.
 */
export const ORDER_EVENT_ITEM_JSON = `json_build_object('seq', e.seq, 'type', e.type,
  'occurredAt', to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'order', e.payload)::text`;

/** The advisory lock every event append holds until its transaction ends: seqs commit in seq order (gap-free feed). */
const ORDER_EVENTS_LOCK = 0x0e7e_0014;

/**
 * Appends one `order_events` row for a transition of `orderId` inside the caller's transaction `trx`:
 * the payload is the order snapshot (lines, customer, store, fulfillment, payment
 * method and status; never card data). A transaction-level advisory lock is taken first, so a reader
 * never sees seq N+1 committed before seq N (the feed never skips an event). Webhook deliveries of the
 * endpoints subscribed to `type` are queued in the same transaction. `item_json` stores the event as the
 * feed sends it (`{ seq, type, occurredAt, order }`). Returns the event's seq.
 */
export async function appendOrderEvent(trx: Db, orderId: number, type: OrderEventType): Promise<number> {
  const { row, detail } = await loadDetail(trx, orderId);
  const { payment: _card, ...order } = detail;
  await trx.raw('SELECT pg_advisory_xact_lock(?)', [ORDER_EVENTS_LOCK]);
  // The seq is drawn under the lock; item_json is the event as the feed sends it, written once here.
  const { rows } = await trx.raw(
    `INSERT INTO order_events (seq, order_id, store_id, type, occurred_at, payload, item_json)
     SELECT e.seq, e.order_id, e.store_id, e.type, e.occurred_at, e.payload, ${ORDER_EVENT_ITEM_JSON}
       FROM (SELECT nextval(pg_get_serial_sequence('order_events', 'seq')) AS seq, ?::int AS order_id, ?::int AS store_id,
                    ?::text AS type, now() AS occurred_at, ?::jsonb AS payload) e
     RETURNING seq`,
    [orderId, row.storeId, type, JSON.stringify(order)],
  );
  const seq = Number(rows[0].seq);
  await enqueueWebhookDeliveries(trx, { seq, type, storeId: row.storeId });
  return seq;
}
