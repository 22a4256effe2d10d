import { ORDER_EVENT_TYPES } from '@portal/contracts';
import { preparedRaw, type Db } from '../../db/knex';

/** Event types of the order feed and webhooks (ARCHITECTURE §10): one list, in the contracts. */
export { ORDER_EVENT_TYPES };
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number] | 'order.cancel_pending';

/** SQL of a timestamptz as an event's `occurredAt`: ISO 8601 in UTC with milliseconds. */
function occurredAtSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * SQL of an event as the feed sends it, `{"seq","type","occurredAt","order"}` (occurredAt ISO in UTC with
 * milliseconds), over the columns of an `order_events` row aliased `e`: the feed's fallback for a row
 * without `item_json` (one inserted by hand).
 */
export const ORDER_EVENT_ITEM_JSON = `json_build_object('seq', e.seq, 'type', e.type,
  'occurredAt', ${occurredAtSql('e.occurred_at')}, 'order', e.payload)::text`;

/**
 * The advisory locks of an append (migration 2026120100080001, `order_events_horizon()`): the shared
 * "appending" lock, taken before the seq is drawn, and the append's own seq lock (this key's high half, the
 * seq its low half), both held until the transaction ends. Appends never wait for each other; a feed reader
 * reads only up to the horizon (below the lowest seq locked), so it never passes an event that commits later.
 */
const APPENDING_LOCK = 0x0e7e_0014;
const SEQ_LOCK_SPACE = 0x0e7e_0015;

/**
 * The feed's horizon (order_events_horizon(), migration 2026120100080001): the highest seq below which every event
 * has committed or never will, by the locks above. Appends commit out of seq order; a read of `seq > cursor AND
 * seq <= horizon` in a LATER statement than this one (a fresh snapshot) never skips an event that commits
 * afterwards. The one reading of it for the integrations feed, the live streams and GET /me/boot.
 */
export async function feedHorizon(db: Db): Promise<number> {
  const { rows } = await db.raw<{ rows: { h: string }[] }>('SELECT order_events_horizon()::text AS h');
  return Number(rows[0].h);
}

/** One `order_events` row to insert: `orderJson` the order snapshot as ASCII JSON text; `test` for a synthetic event (no order). */
export interface OrderEventInsert {
  orderId: number | null;
  storeId: number;
  type: OrderEventType;
  orderJson: string;
  test: boolean;
}

/**
 * Inserts an event inside `trx` in one statement: the shared appending lock and the seq's own lock (both
 * held until commit: the feed's horizon stays below the seq until then, see APPENDING_LOCK), the seq, the row with its feed text (`item_json`) and, when `outbound` is given (the registered publisher:
 * webhook deliveries of the endpoints subscribed to its type), the rows its SQL queues. Returns the seq and the delivery ids (uuids).
 */
export async function insertEvent(
  trx: Db,
  ev: OrderEventInsert,
  outbound?: { sql: (seqSql: string) => string; bindings: readonly (string | number)[] },
): Promise<{ seq: number; deliveries: string[] }> {
  const { orderId, storeId, type, orderJson, test } = ev;
  // One statement from the locks to the webhook rows. The appending lock is taken before the seq is drawn, the
  // seq's lock right after: a reader that sees the first without the second waits (order_events_horizon()).
  const { rows } = await preparedRaw<{ rows: { seq: string; deliveries: string[] }[] }>(
    trx,
    'order_event_insert',
    `WITH appending AS MATERIALIZED (SELECT pg_advisory_xact_lock_shared(?)),
          seqs AS MATERIALIZED (SELECT nextval(pg_get_serial_sequence('order_events', 'seq')) AS seq, now() AS at FROM appending),
          drawn AS MATERIALIZED (SELECT s.seq, s.at, pg_advisory_xact_lock((?::bigint << 32) | s.seq) FROM seqs s),
          ins AS (
            INSERT INTO order_events (seq, order_id, store_id, type, occurred_at, payload, item_json${test ? ', test' : ''})
            SELECT d.seq, ?::int, ?::int, ?::text, d.at, ?::jsonb,
                   '{"seq":' || d.seq || ',"type":' || ?::text || ',"occurredAt":"'
                     || ${occurredAtSql('d.at')} || '"${test ? ',"test":true' : ''},"order":' || ?::text || '}'${test ? ', true' : ''}
              FROM drawn d
            RETURNING seq),
          deliveries AS (${outbound ? outbound.sql('(SELECT seq FROM ins)') : 'SELECT NULL::text AS id WHERE false'})
     SELECT (SELECT seq FROM ins)::text AS seq, coalesce((SELECT array_agg(id)::text[] FROM deliveries), '{}') AS deliveries`,
    [APPENDING_LOCK, SEQ_LOCK_SPACE, orderId, storeId, type, orderJson, JSON.stringify(type), orderJson, ...(outbound?.bindings ?? [])],
  );
  return { seq: Number(rows[0].seq), deliveries: rows[0].deliveries };
}
