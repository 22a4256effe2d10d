import type { Db, DbTransaction } from '../../db/knex';
import { loadDetail } from './order-detail';
import * as repo from './order-events.repository';
import type { OrderEventType } from './order-events.repository';

export { ORDER_EVENT_ITEM_JSON, ORDER_EVENT_TYPES, feedHorizon, type OrderEventType } from './order-events.repository';

/**
 * JSON text of `value` in ASCII only: every character past U+007F written as a `\uXXXX` escape (a character
 * outside the BMP as its two surrogate escapes), which every JSON parser reads back as the same string.
 * The feed keeps its events in this form: a page of ASCII text stays a one-byte string in Node from the
 * database driver to the socket, where a single "’" in a product name makes the whole page two-byte and its
 * UTF-8 encoding on every answer costs several times the rest of the request.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Where an appended event goes besides the feed (ARCHITECTURE §10): the webhooks module's delivery queue,
 * registered at composition (app.ts: `setOrderEventPublisher`), so the order code imports no webhook code.
 */
export interface OrderEventPublisher {
  /**
   * SQL of one data-modifying statement (`RETURNING id`) queuing the outbound rows of the event whose seq is
   * the SQL expression `seqSql`; its bindings, after those of `seqSql`: the event type, the store id, the
   * store id. It runs inside the append's own statement (one round trip while the feed's lock is held).
   */
  queueSql(seqSql: string): string;
  /** Hands the rows queued (their ids) on, inside the event's transaction. */
  send(trx: Db, ids: readonly string[]): Promise<void>;
}

let publisher: OrderEventPublisher | undefined;

/** Registers (or clears, with undefined) the publisher of appended order events (app.ts). */
export function setOrderEventPublisher(p: OrderEventPublisher | undefined): void {
  publisher = p;
}

/**
 * Appends one `order_events` row for a transition of `orderId` inside the caller's transaction `trx`, as
 * the last write of that transaction (the feed's tail waits for its commit, so call it after the
 * transaction's other work): the payload is the order snapshot (lines, customer, store, fulfillment,
 * payment method and status; never card data), `loaded` the order's `loadDetail` when the caller has it.
 * Appends do not wait for each other (issue 29): the seq's own advisory lock, held until commit, keeps the
 * feed's horizon below it (order_events_horizon()), so a reader never passes an event that commits later;
 * the locks, the seq, the row and the webhook delivery rows are one statement.
 * `item_json` stores the event as the feed sends it (`{ seq, type, occurredAt, order }`, ASCII JSON).
 * Webhook deliveries of the endpoints subscribed to `type` are queued in the same transaction. Returns the
 * event's seq.
 */
export async function appendOrderEvent(
  trx: Db,
  orderId: number,
  type: OrderEventType,
  loaded?: Awaited<ReturnType<typeof loadDetail>>,
): Promise<number> {
  const { row, detail } = loaded ?? (await loadDetail(trx, orderId));
  // The feed's order snapshot carries paymentStatus and refundedAmount, not the card or the payments list.
  const { payment: _card, payments: _payments, ...order } = detail;
  return appendEvent(trx, { orderId, storeId: row.storeId, type, orderJson: asciiJson(order), test: false });
}

/**
 * Appends a synthetic `order.created` of store `storeId` (POST /integrations/test-events), inside the caller's
 * transaction and as its last write like `appendOrderEvent`: no order row behind it (`order_id` null,
 * `test` true), `order` the snapshot given, and the event marked `"test":true` on the feed and in the
 * webhook bodies. Webhook deliveries are queued as for a real event. Returns the seq.
 */
export async function appendTestOrderEvent(trx: Db, storeId: number, order: object): Promise<number> {
  return appendEvent(trx, { orderId: null, storeId, type: 'order.created', orderJson: asciiJson(order), test: true });
}

/** The append itself (order-events.repository.ts), then the webhook jobs of its deliveries and, once committed, the watchers. */
async function appendEvent(trx: Db, ev: repo.OrderEventInsert): Promise<number> {
  const pub = publisher;
  const { seq, deliveries } = await repo.insertEvent(trx, ev, pub && { sql: pub.queueSql, bindings: [ev.type, ev.storeId, ev.storeId] });
  if (pub) await pub.send(trx, deliveries);
  afterCommit(trx, () => {
    for (const watcher of appendWatchers) {
      try {
        watcher(seq);
      } catch {
        // A cache's watcher failing is not the committed order's problem.
      }
    }
  });
  return seq;
}

const appendWatchers = new Set<(seq: number) => void>();

/**
 * Calls `watcher(seq)` for every event this process appends, once its transaction has committed (in the
 * commit's own tick, so before this process reads another request), so an in-process cache of the feed knows
 * of the event without waiting for its NOTIFY (the order feed's index: an order's own events are on the feed
 * for the next request of whoever placed or moved it). Returns the unwatch.
 */
export function watchOrderEventAppends(watcher: (seq: number) => void): () => void {
  appendWatchers.add(watcher);
  return () => void appendWatchers.delete(watcher);
}

/** Runs `run` once the outermost transaction of `trx` commits (never on rollback); at once outside a transaction. */
function afterCommit(trx: Db, run: () => void): void {
  if (!isTransaction(trx)) return run();
  let outer = trx;
  while (outer.parentTransaction) outer = outer.parentTransaction;
  outer.executionPromise.then(run, () => undefined);
}

const isTransaction = (db: Db): db is DbTransaction => db.isTransaction === true;
