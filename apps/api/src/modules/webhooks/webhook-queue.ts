import type { Db } from '../../db/knex';

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

/** Queues the deliveries of one order event; returns their ids. */
export async function enqueueWebhookDeliveries(trx: Db, ev: { seq: number; type: string; storeId: number }): Promise<string[]> {
  const rows: { id: string }[] = await trx
    .raw(
      `INSERT INTO webhook_deliveries (endpoint_id, event_seq)
     SELECT e.id, ? FROM webhook_endpoints e
      WHERE e.active AND ? = ANY(e.events)
        AND (e.store_id = ? OR e.board_id = (SELECT board_id FROM stores WHERE id = ?))
     RETURNING id`,
      [ev.seq, ev.type, ev.storeId, ev.storeId],
    )
    .then((r: { rows: { id: string }[] }) => r.rows);
  if (sender) for (const r of rows) await sender(trx, r.id);
  return rows.map((r) => r.id);
}

/** Queues one existing delivery again (redeliver); without a sender it stays pending. */
export async function enqueueAgain(trx: Db, deliveryId: string): Promise<void> {
  if (sender) await sender(trx, deliveryId);
}
