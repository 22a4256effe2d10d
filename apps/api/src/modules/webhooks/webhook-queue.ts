import type { Db } from '../../db/knex';
import * as repo from './webhooks.repository';

/**
 * The webhook delivery queue as the order code sees it: `enqueueWebhookDeliveries` (in the event's
 * transaction) creates one delivery row per subscribed active endpoint of the store or its board, and
 * hands each to the registered job sender (pg-boss, jobs/webhook-queue.ts). Without a sender (tests,
 * tools) the rows stay `pending` and can be delivered with `deliverOnce`.
 */
export type WebhookJobSender = (db: Db, deliveryId: string) => Promise<void>;
let sender: WebhookJobSender | undefined;

/** Registers (or clears) the pg-boss sender of delivery jobs (main.ts). */
export function setWebhookJobSender(fn: WebhookJobSender | undefined): void {
  sender = fn;
}

/**
 * SQL inserting the delivery rows of one event whose seq is the SQL expression `seqSql`: one per active
 * endpoint subscribed to the event's type on its store or its store's board. Bindings after those of
 * `seqSql`: type, store id, store id. Returns `id`.
 */
export const insertWebhookDeliveriesSql = repo.insertDeliveriesSql;

/** Queues the deliveries of one order event; returns their ids. */
export async function enqueueWebhookDeliveries(trx: Db, ev: { seq: number; type: string; storeId: number }): Promise<string[]> {
  const ids = await repo.insertDeliveries(trx, ev);
  await sendDeliveryJobs(trx, ids);
  return ids;
}

/** Hands delivery rows already inserted (in `trx`) to the job sender; without one they stay pending. */
export async function sendDeliveryJobs(trx: Db, deliveryIds: readonly string[]): Promise<void> {
  if (sender) for (const id of deliveryIds) await sender(trx, id);
}

/** Queues one existing delivery again (redeliver); without a sender it stays pending. */
export async function enqueueAgain(trx: Db, deliveryId: string): Promise<void> {
  if (sender) await sender(trx, deliveryId);
}

/**
 * The webhooks side of an appended order event (modules/orders/order-events.ts's `OrderEventPublisher`,
 * registered in app.ts): the delivery rows are inserted in the append's statement, then handed to the sender.
 */
export const webhookEventPublisher = { queueSql: insertWebhookDeliveriesSql, send: sendDeliveryJobs };
