import type { Knex } from 'knex';
import type { Logger } from '../logger';
import { setWebhookJobSender } from '../modules/webhooks/webhook-queue';
import { deliverOnce, markFailed } from '../modules/webhooks/webhooks.service';
import { PgBoss, RETENTION, failWithCeiling, knexDb, ensureQueue } from './pg-boss';

/** The pg-boss queue of webhook deliveries (one job per event per endpoint). */
export const WEBHOOK_QUEUE = 'webhook-delivery';

/**
 * Webhook delivery jobs: queued in the order event's transaction; the worker posts the
 * signed event; a non-2xx or network failure fails the job so pg-boss retries it with exponential backoff
 * (10 s doubling, at most 1 h apart, 30 retries ≈ 24 h); after the last one the delivery is `failed`.
 */
export function createWebhookJobs(opts: {
  connectionString: string;
  db: Knex;
  logger: Logger;
  production: boolean;
  work?: boolean;
  pollingIntervalSeconds?: number;
  /** The first retry's delay (doubling from there); 10 s unless a test shortens it. */
  retryDelaySeconds?: number;
}) {
  const log = opts.logger.child({ component: 'webhooks' });
  const boss = new PgBoss({
    connectionString: opts.connectionString,
    max: 2,
    application_name: 'portal-webhooks',
    schedule: false,
    ...RETENTION,
  });
  boss.on('error', (err: Error) => log.error({ err }, 'webhook queue error'));
  const queueOptions = { retryLimit: 30, retryDelay: opts.retryDelaySeconds ?? 10, retryBackoff: true, expireInSeconds: 60 };
  /** No two attempts more than an hour apart. */
  const retryDelayMax = 3600;
  return {
    async start() {
      await boss.start();
      await ensureQueue(boss, WEBHOOK_QUEUE, queueOptions);
      setWebhookJobSender(async (db, deliveryId) => {
        await boss.send(WEBHOOK_QUEUE, { deliveryId }, { db: knexDb(db) });
      });
      if (opts.work ?? true) {
        await boss.work<{ deliveryId: string }>(
          WEBHOOK_QUEUE,
          { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5, batchSize: 1, includeMetadata: true },
          async (jobs) => {
            for (const job of jobs) {
              if (await deliverOnce(opts.db, job.data.deliveryId, opts.production)) continue;
              if (job.retryCount >= queueOptions.retryLimit) await markFailed(opts.db, job.data.deliveryId);
              await failWithCeiling(boss, WEBHOOK_QUEUE, job.id, { message: 'webhook delivery failed' }, retryDelayMax);
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
