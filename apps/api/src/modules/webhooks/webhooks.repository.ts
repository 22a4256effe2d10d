import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import type { OrderEventRow, WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from '../../db/tables/integrations';

/**
 * The webhooks module's queries (knex only): endpoints, deliveries and their attempts. Every function takes
 * `db` (the pool or the service's transaction) first; absent rows are `undefined`.
 */

/** Narrows a query to the rows the caller reaches; the builder is changed in place (modules/access). */
export type InReach = (q: Knex.QueryBuilder) => unknown;

/** Endpoints the caller reaches, newest first, at most 500. */
export async function listEndpoints(db: Db, inReach: InReach): Promise<WebhookEndpointRow[]> {
  const q = db('webhook_endpoints');
  inReach(q);
  return q.orderBy('created_at', 'desc').limit(500);
}

/** Endpoint `id` if the caller reaches it. */
export async function findEndpoint(db: Db, id: string, inReach: InReach): Promise<WebhookEndpointRow | undefined> {
  const q = db('webhook_endpoints').where({ id });
  inReach(q);
  return q.first();
}

/** A new endpoint; returns the stored row (with its secret). */
export async function insertEndpoint(
  db: Db,
  e: Pick<WebhookEndpointRow, 'url' | 'secret' | 'store_id' | 'board_id' | 'events' | 'created_by'>,
): Promise<WebhookEndpointRow> {
  const [row] = await db('webhook_endpoints').insert(e).returning('*');
  return row;
}

/** Changes endpoint `id` (the fields given); returns the stored row. */
export async function updateEndpoint(
  db: Db,
  id: string,
  change: Partial<Pick<WebhookEndpointRow, 'url' | 'events' | 'active'>>,
): Promise<WebhookEndpointRow> {
  const [row] = await db('webhook_endpoints').where({ id }).update(change).returning('*');
  return row;
}

/** Deletes endpoint `id` (its deliveries and attempts go with it). */
export async function deleteEndpoint(db: Db, id: string): Promise<void> {
  await db('webhook_endpoints').where({ id }).del();
}

/** A delivery as the delivery log lists it (camelCase; `seq` the event's). */
export interface DeliveryLogRow {
  id: string;
  seq: number;
  type: OrderEventRow['type'];
  status: WebhookDeliveryRow['status'];
  attempts: number;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

/** The deliveries of endpoint `endpointId`, newest first, at most 200. */
export async function listDeliveries(db: Db, endpointId: string): Promise<DeliveryLogRow[]> {
  return db('webhook_deliveries as d')
    .join('order_events as e', 'e.seq', 'd.event_seq')
    .where('d.endpoint_id', endpointId)
    .orderBy('d.created_at', 'desc')
    .limit(200)
    .select(
      'd.id',
      'd.event_seq as seq',
      'e.type',
      'd.status',
      'd.attempts',
      'd.last_status_code as lastStatusCode',
      'd.last_duration_ms as lastDurationMs',
      'd.last_error as lastError',
      'd.created_at as createdAt',
      'd.delivered_at as deliveredAt',
    );
}

/** Whether delivery `deliveryId` belongs to endpoint `endpointId`. */
export async function deliveryExists(db: Db, endpointId: string, deliveryId: string): Promise<boolean> {
  return Boolean(await db('webhook_deliveries').where({ id: deliveryId, endpoint_id: endpointId }).first('id'));
}

/** Puts delivery `deliveryId` back to `pending`. */
export async function markPending(db: Db, deliveryId: string): Promise<void> {
  await db('webhook_deliveries').where({ id: deliveryId }).update({ status: 'pending' });
}

/** What one delivery attempt sends: the delivery, its endpoint and its event. */
export interface DeliveryToSend {
  id: string;
  status: WebhookDeliveryRow['status'];
  url: string;
  secret: string;
  active: boolean;
  seq: number;
  type: OrderEventRow['type'];
  occurred_at: Date;
  payload: unknown;
  test: boolean;
}

/** Delivery `deliveryId` with its endpoint and event; undefined when absent. */
export async function findDeliveryToSend(db: Db, deliveryId: string): Promise<DeliveryToSend | undefined> {
  return db('webhook_deliveries as d')
    .join('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .join('order_events as e', 'e.seq', 'd.event_seq')
    .where('d.id', deliveryId)
    .first('d.id', 'd.status', 'w.url', 'w.secret', 'w.active', 'e.seq', 'e.type', 'e.occurred_at', 'e.payload', 'e.test');
}

/** Logs one attempt and updates its delivery (attempts + 1, the last answer; delivered when `ok`). Run it in a transaction. */
export async function recordAttempt(
  trx: Db,
  attempt: Pick<WebhookAttemptRow, 'delivery_id' | 'status_code' | 'duration_ms' | 'error'>,
  ok: boolean,
): Promise<void> {
  await trx('webhook_attempts').insert(attempt);
  await trx('webhook_deliveries')
    .where({ id: attempt.delivery_id })
    .update({
      attempts: trx.raw('attempts + 1'),
      last_status_code: attempt.status_code,
      last_duration_ms: attempt.duration_ms,
      last_error: ok ? null : attempt.error,
      ...(ok ? { status: 'delivered' as const, delivered_at: trx.fn.now() } : {}),
    });
}

/** Marks delivery `deliveryId` failed unless delivered; returns whether it changed. */
export async function markFailed(db: Db, deliveryId: string): Promise<boolean> {
  const n = await db('webhook_deliveries').where({ id: deliveryId }).whereNot({ status: 'delivered' }).update({ status: 'failed' });
  return n > 0;
}

/**
 * Inserts the delivery rows of one event (`seqSql` the SQL expression of its seq; bindings after those of
 * `seqSql`: type, store id, store id) for every active endpoint subscribed on its store or the store's board.
 */
export const insertDeliveriesSql = (seqSql: string) => `INSERT INTO webhook_deliveries (endpoint_id, event_seq)
  SELECT w.id, ${seqSql} FROM webhook_endpoints w
   WHERE w.active AND ? = ANY(w.events)
     AND (w.store_id = ? OR w.board_id = (SELECT board_id FROM stores WHERE id = ?))
  RETURNING id`;

/** Inserts the delivery rows of event `seq`; returns their ids. */
export async function insertDeliveries(trx: Db, ev: { seq: number; type: string; storeId: number }): Promise<string[]> {
  const { rows } = await trx.raw<{ rows: { id: string }[] }>(insertDeliveriesSql('?'), [ev.seq, ev.type, ev.storeId, ev.storeId]);
  return rows.map((r) => r.id);
}
