import { PgBoss, RETENTION, ensureQueue } from './pg-boss';
import type { Config } from '../config';
import type { Mailer } from '../context';
import type { Db } from '../db/knex';
import type { Logger } from '../logger';
import { reconcileRefunds } from '../modules/orders/refunds';
import { reconcilePending } from '../modules/orders/settlement';

/** The pg-boss queue (and schedule name) of the payment reconciler. */
export const RECONCILE_QUEUE = 'payment-reconcile';

/** What one pass settled: the charges' counts, and the refunds' under `refunds`. */
export type PassCounts = Awaited<ReturnType<typeof reconcilePending>> & { refunds: Awaited<ReturnType<typeof reconcileRefunds>> };

/** The reconciler's lifecycle for main.ts and tests. */
export interface PaymentReconciler {
  /** Creates the queue and its schedule (config.paymentReconcileCron), starts the worker and runs one pass now. */
  start(): Promise<void>;
  /** One pass now (also what each scheduled job runs): charges, then refunds; resolves with their counts. */
  runOnce(): Promise<PassCounts>;
  stop(): Promise<void>;
}

/**
 * The payment reconciler: a pg-boss schedule (every minute by default) whose job settles
 * every card order pending longer than PAYMENT_SETTLE_AFTER_SECONDS by a gateway lookup of its order
 * number (orders/settlement.ts), and every refund sent longer ago than that whose outcome is unknown by a
 * lookup of its reference (orders/refunds.ts: never sent again), plus one pass at startup, so orders left
 * pending by a dead process or a lost database are settled after a restart. Passes are serialised per process; across processes each
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
  let running: Promise<PassCounts> | null = null;
  const pass = async (): Promise<PassCounts> => ({ ...(await reconcilePending(deps)), refunds: await reconcileRefunds(deps) });
  const runOnce = () => {
    running ??= pass().finally(() => {
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
        log.error(
          { err: { message: err instanceof Error ? err.message : String(err) } },
          'startup reconciliation failed; the schedule retries',
        ),
      );
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
