import { PgBoss, RETENTION, ensureQueue } from './pg-boss';
import type { Config } from '../config';
import type { Db } from '../db/knex';
import type { Logger } from '../logger';
import * as repo from './janitors.repository';

/** The pg-boss queue (and schedule name) of the janitors. */
export const JANITOR_QUEUE = 'janitor';

/** Rows each janitor removed in one pass. */
export interface JanitorCounts {
  checkoutSessions: number;
  idempotencyKeys: number;
  refreshSessions: number;
  resetTokens: number;
  auditRows: number;
}

/**
 * One cleanup pass:
 * - checkout sessions expired for a day and not referenced by an order (an order keeps its session);
 * - Idempotency-Keys completed more than 24 hours ago, or left unfinished for 7 days;
 * - refresh sessions (auth_sessions) past their absolute lifetime, or revoked a day ago;
 * - password reset tokens expired or used a day ago;
 * - audit rows older than AUDIT_RETENTION_DAYS.
 * Resolves with the counts per janitor.
 */
export async function runJanitors(db: Db, config: Pick<Config, 'auditRetentionDays'>): Promise<JanitorCounts> {
  const checkoutSessions = await repo.deleteExpiredCheckoutSessions(db);
  const idempotencyKeys = await repo.deleteExpiredIdempotencyKeys(db);
  const refreshSessions = await repo.deleteExpiredRefreshSessions(db);
  const resetTokens = await repo.deleteExpiredResetTokens(db);
  const auditRows = await repo.deleteAuditRowsOlderThan(db, config.auditRetentionDays);
  return { checkoutSessions, idempotencyKeys, refreshSessions, resetTokens, auditRows };
}

/** The janitors' lifecycle for main.ts. */
export interface Janitors {
  /** Creates the queue and its schedule (JANITOR_CRON, hourly by default) and starts the worker. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The janitors on a pg-boss schedule: every JANITOR_CRON one job runs `runJanitors` and
 * logs its counts. pg-boss creates one job per cron tick across every replica, so a pass runs once.
 */
export function createJanitors(opts: { connectionString: string; db: Db; config: Config; logger: Logger }): Janitors {
  const log = opts.logger.child({ component: 'janitors' });
  const boss = new PgBoss({ connectionString: opts.connectionString, max: 2, application_name: 'portal-janitors', ...RETENTION });
  boss.on('error', (err: Error) => log.error({ err: { message: err.message } }, 'janitor queue error'));
  return {
    async start() {
      await boss.start();
      const queueOptions = { retryLimit: 1, expireInSeconds: 900 };
      await ensureQueue(boss, JANITOR_QUEUE, queueOptions);
      await boss.schedule(JANITOR_QUEUE, opts.config.janitorCron);
      await boss.work(JANITOR_QUEUE, { pollingIntervalSeconds: 30, batchSize: 1 }, async () => {
        const counts = await runJanitors(opts.db, opts.config);
        log.info({ counts }, 'janitors removed expired rows');
      });
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
