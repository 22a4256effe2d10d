import type { Db } from '../db/knex';

/**
 * The janitors' deletes (janitors.ts): expired or finished rows of several modules' tables, removed in
 * batches of BATCH rows per statement so a large backlog never holds long locks. Each returns how many
 * rows it removed.
 */

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
    const r = await db.raw<{ rowCount: number | null }>(`DELETE FROM ${table} WHERE ctid IN (${select} LIMIT ${BATCH})`, bindings);
    total += r.rowCount ?? 0;
    if ((r.rowCount ?? 0) < BATCH) return total;
  }
}

/** Checkout sessions expired for a day and not referenced by an order (an order keeps its session). */
export function deleteExpiredCheckoutSessions(db: Db): Promise<number> {
  return deleteInBatches(
    db,
    'checkout_sessions',
    `SELECT cs.ctid FROM checkout_sessions cs
    WHERE cs.expires_at < now() - ${GRACE} AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.checkout_session_id = cs.id)`,
  );
}

/** Idempotency-Keys completed more than 24 hours ago, or left unfinished for 7 days. */
export function deleteExpiredIdempotencyKeys(db: Db): Promise<number> {
  return deleteInBatches(
    db,
    'idempotency_keys',
    `SELECT ctid FROM idempotency_keys
    WHERE (completed_at IS NOT NULL AND completed_at < now() - ${IDEMPOTENCY_COMPLETED_TTL}) OR (completed_at IS NULL AND created_at < now() - ${IDEMPOTENCY_UNFINISHED_TTL})`,
  );
}

/** Refresh sessions (auth_sessions) past their absolute lifetime, or revoked a day ago. */
export function deleteExpiredRefreshSessions(db: Db): Promise<number> {
  return deleteInBatches(
    db,
    'auth_sessions',
    `SELECT ctid FROM auth_sessions
    WHERE expires_at < now() OR revoked_at < now() - ${GRACE}`,
  );
}

/** Password reset tokens expired or used a day ago. */
export function deleteExpiredResetTokens(db: Db): Promise<number> {
  return deleteInBatches(
    db,
    'password_reset_tokens',
    `SELECT ctid FROM password_reset_tokens
    WHERE expires_at < now() - ${GRACE} OR used_at < now() - ${GRACE}`,
  );
}

/** Audit rows older than `days` days (AUDIT_RETENTION_DAYS). */
export function deleteAuditRowsOlderThan(db: Db, days: number): Promise<number> {
  return deleteInBatches(db, 'audit_log', `SELECT ctid FROM audit_log WHERE occurred_at < now() - make_interval(days => ?)`, [days]);
}
