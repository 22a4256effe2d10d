import { PgBoss, fromKnex } from 'pg-boss';
import type { Knex } from 'knex';
import type { Logger } from '../logger';
import { setWebhookJobSender } from '../modules/webhooks/webhook-queue';
import { deliverOnce, markFailed } from '../modules/webhooks/webhooks.service';

/** The pg-boss queue of webhook deliveries (one job per event per endpoint). */
export const WEBHOOK_QUEUE = 'webhook-delivery';

/**
 * Webhook delivery jobs: queued in the order event's transaction; the worker posts the
 * signed event; a non-2xx or network failure throws so pg-boss retries with exponential backoff
 * (10 s doubling, at most 1 h apart, 30 retries ≈ 24 h); after the last one the delivery is `failed`.
 */
export function createWebhookJobs(opts: {
  connectionString: string;
  db: Knex;
  logger: Logger;
  production: boolean;
  work?: boolean;
  pollingIntervalSeconds?: number;
}) {
  const log = opts.logger.child({ component: 'webhooks' });
  const boss = new PgBoss({ connectionString: opts.connectionString, max: 2, application_name: 'portal-webhooks', schedule: false });
  boss.on('error', (err) => log.error({ err }, 'webhook queue error'));
  const queueOptions = { retryLimit: 30, retryDelay: 10, retryBackoff: true, retryDelayMax: 3600, expireInSeconds: 60 };
  return {
    async start() {
      await boss.start();
      if (await boss.getQueue(WEBHOOK_QUEUE)) await boss.updateQueue(WEBHOOK_QUEUE, queueOptions);
      else await boss.createQueue(WEBHOOK_QUEUE, queueOptions);
      setWebhookJobSender(async (db, deliveryId) => {
        await boss.send(WEBHOOK_QUEUE, { deliveryId }, { db: fromKnex(db) });
      });
      if (opts.work ?? true) {
        await boss.work<{ deliveryId: string }>(
          WEBHOOK_QUEUE,
          { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5, batchSize: 1 },
          async (jobs) => {
            for (const job of jobs) {
              const ok = await deliverOnce(opts.db, job.data.deliveryId, opts.production);
              if (!ok) {
                if (
                  (job as { retryCount?: number }).retryCount !== undefined &&
                  (job as { retryCount: number }).retryCount >= queueOptions.retryLimit
                )
                  await markFailed(opts.db, job.data.deliveryId);
                throw new Error('webhook delivery failed');
              }
            }
          },
        );
      }
    },
    async stop() {
      setWebhookJobSender(undefined);
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
