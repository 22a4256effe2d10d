import type { Db } from '../db/knex';

/** The queries behind the /metrics gauges that need the database (http/metrics.ts), each one cheap index read. */

/**
 * Mail jobs waiting in pg-boss's `mail` queue (created or waiting for a retry) and the age of the oldest in
 * seconds (0 when none); undefined when pg-boss's schema is not installed (no outbox has started here).
 * Served by pg-boss's partial index on waiting jobs (`job_i5`).
 */
export async function mailQueueStats(db: Db): Promise<{ waiting: number; oldestAgeSeconds: number } | undefined> {
  const installed = await db.raw<{ rows: { ok: boolean }[] }>(`SELECT to_regclass('pgboss.job') IS NOT NULL AS ok`);
  if (!installed.rows[0].ok) return undefined;
  const { rows } = await db.raw<{ rows: { waiting: number; oldest: number }[] }>(
    `SELECT count(*)::int AS waiting, coalesce(extract(epoch FROM now() - min(created_on)), 0)::float8 AS oldest
       FROM pgboss.job WHERE name = 'mail' AND state < 'active'`,
  );
  return { waiting: rows[0].waiting, oldestAgeSeconds: Math.max(0, rows[0].oldest) };
}

/**
 * Webhook deliveries still pending (not delivered, not given up) and the age of the oldest in seconds (0 when
 * none), from the partial index on pending deliveries.
 */
export async function webhookBacklog(db: Db): Promise<{ pending: number; oldestAgeSeconds: number }> {
  const { rows } = await db.raw<{ rows: { pending: number; oldest: number }[] }>(
    `SELECT count(*)::int AS pending, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest
       FROM webhook_deliveries WHERE status = 'pending'`,
  );
  return { pending: rows[0].pending, oldestAgeSeconds: Math.max(0, rows[0].oldest) };
}
