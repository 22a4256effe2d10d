import { PgBoss, RETENTION, ensureQueue } from './pg-boss';
import type { Config } from '../config';
import type { Mailer } from '../context';
import type { Db } from '../db/knex';
import type { Logger } from '../logger';
import { reconcilePending } from '../modules/orders/settlement';

/** The pg-boss queue (and schedule name) of the payment reconciler. */
export const RECONCILE_QUEUE = 'payment-reconcile';

/** The reconciler's lifecycle for main.ts and tests. */
export interface PaymentReconciler {
  /** Creates the queue and its schedule (config.paymentReconcileCron), starts the worker and runs one pass now. */
  start(): Promise<void>;
  /** One pass now (also what each scheduled job runs); resolves with its counts. */
  runOnce(): ReturnType<typeof reconcilePending>;
  stop(): Promise<void>;
}

/**
 * The payment reconciler: a pg-boss schedule (every minute by default) whose job settles
 * every card order pending longer than PAYMENT_SETTLE_AFTER_SECONDS by a gateway lookup of its order
 * number (orders/settlement.ts), plus one pass at startup, so orders left pending by a dead process or a
 * lost database are settled after a restart. Passes are serialised per process; across processes each
 * order is settled under its row lock, so a double pass only costs a lookup.
 */
export function createPaymentReconciler(opts: {
  connectionString: string;
  db: Db;
  config: Config;
  logger: Logger;
  mailer: Mailer;
}): PaymentReconciler {
  const log = opts.logger.child({ component: 'payment-reconciler' });
  const boss = new PgBoss({ connectionString: opts.connectionString, max: 2, application_name: 'portal-reconciler', ...RETENTION });
  boss.on('error', (err: Error) => log.error({ err: { message: err.message } }, 'reconciler queue error'));
  const deps = { db: opts.db, config: opts.config, mailer: opts.mailer, logger: log };
  let running: ReturnType<typeof reconcilePending> | null = null;
  const runOnce = () => {
    running ??= reconcilePending(deps).finally(() => {
      running = null;
    });
    return running;
  };
  return {
    runOnce,
    async start() {
      await boss.start();
      const queueOptions = { retryLimit: 0, expireInSeconds: 300 };
      await ensureQueue(boss, RECONCILE_QUEUE, queueOptions);
      await boss.schedule(RECONCILE_QUEUE, opts.config.paymentReconcileCron);
      await boss.work(RECONCILE_QUEUE, { pollingIntervalSeconds: 5, batchSize: 1 }, async () => {
        await runOnce();
      });
      void runOnce().catch((err) =>
        log.error({ err: { message: (err as Error).message } }, 'startup reconciliation failed; the schedule retries'),
      );
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
