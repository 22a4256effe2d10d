import { PgBoss, RETENTION, ensureQueue } from './pg-boss';
import type { Config } from '../config';
import type { Db } from '../db/knex';
import type { Logger } from '../logger';

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

/** How long finished rows are kept before a janitor removes them (a day of grace for support questions). */
const GRACE = "interval '1 day'";
/** A completed Idempotency-Key answers retries for 24 hours (Stripe's rule); an unfinished one is kept a week. */
const IDEMPOTENCY_COMPLETED_TTL = "interval '24 hours'";
const IDEMPOTENCY_UNFINISHED_TTL = "interval '7 days'";
/** Rows per DELETE statement, so a large backlog never holds long locks. */
const BATCH = 5000;

/** Deletes `table` rows whose ctid the `select` finds, BATCH at a time; returns how many. */
async function deleteInBatches(db: Db, table: string, select: string, bindings: readonly (string | number)[] = []): Promise<number> {
  let total = 0;
  for (;;) {
    const r = await db.raw(`DELETE FROM ${table} WHERE ctid IN (${select} LIMIT ${BATCH})`, bindings);
    total += r.rowCount ?? 0;
    if ((r.rowCount ?? 0) < BATCH) return total;
  }
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
  const checkoutSessions = await deleteInBatches(
    db,
    'checkout_sessions',
    `SELECT cs.ctid FROM checkout_sessions cs
    WHERE cs.expires_at < now() - ${GRACE} AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.checkout_session_id = cs.id)`,
  );
  const idempotencyKeys = await deleteInBatches(
    db,
    'idempotency_keys',
    `SELECT ctid FROM idempotency_keys
    WHERE (completed_at IS NOT NULL AND completed_at < now() - ${IDEMPOTENCY_COMPLETED_TTL}) OR (completed_at IS NULL AND created_at < now() - ${IDEMPOTENCY_UNFINISHED_TTL})`,
  );
  const refreshSessions = await deleteInBatches(
    db,
    'auth_sessions',
    `SELECT ctid FROM auth_sessions
    WHERE expires_at < now() OR revoked_at < now() - ${GRACE}`,
  );
  const resetTokens = await deleteInBatches(
    db,
    'password_reset_tokens',
    `SELECT ctid FROM password_reset_tokens
    WHERE expires_at < now() - ${GRACE} OR used_at < now() - ${GRACE}`,
  );
  const auditRows = await deleteInBatches(
    db,
    'audit_log',
    `SELECT ctid FROM audit_log WHERE occurred_at < now() - make_interval(days => ?)`,
    [config.auditRetentionDays],
  );
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
