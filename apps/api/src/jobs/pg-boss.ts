import PgBoss from 'pg-boss';
import type { Knex } from 'knex';

/**
 * What every queue of the API shares on pg-boss 10 (the line that runs on Node 20, the version the
 * README states): the class, a knex adapter so a job is inserted in the caller's transaction, and a
 * retry whose backoff has a ceiling.
 */
export { PgBoss };

/** Completed jobs are archived after 10 minutes and the archive emptied after 10 more: a job's data
 * (a mail's links, a delivery id) does not stay in pgboss for the default week. */
export const RETENTION = { archiveCompletedAfterSeconds: 600, deleteAfterSeconds: 600 } as const;

/**
 * pg-boss's `db` option on a knex connection or transaction: the job is written (or rolled back) with the
 * caller's rows. pg-boss sends `$1…$n` placeholders; knex binds `?`, so each `$n` becomes a `?` bound to
 * `values[n-1]` in the order they appear (a literal `?` is escaped).
 */
export function knexDb(db: Knex | Knex.Transaction): PgBoss.Db {
  return {
    async executeSql(text, values) {
      const bindings: Knex.RawBinding[] = [];
      const sql = text.replace(/\?/g, '\\?').replace(/\$(\d+)/g, (_m, n: string) => {
        bindings.push(values[Number(n) - 1] ?? null); // pg sends undefined as NULL; knex refuses it
        return '?';
      });
      const result = await db.raw<{ rows: unknown[] }>(sql, bindings);
      return { rows: result.rows };
    },
  };
}

/**
 * Fails one job of a batch (the others complete when the handler returns) and caps its next attempt:
 * pg-boss doubles `retryDelay` on each retry; the job starts again after at most `maxDelaySeconds`.
 * `output` is stored as the job's output (a message, never a secret).
 */
export async function failWithCeiling(boss: PgBoss, queue: string, jobId: string, output: object, maxDelaySeconds: number): Promise<void> {
  await boss.fail(queue, jobId, output);
  await boss
    .getDb()
    .executeSql(
      `UPDATE pgboss.job SET start_after = least(start_after, now() + make_interval(secs => $1)) WHERE name = $2 AND id = $3 AND state = 'retry'`,
      [maxDelaySeconds, queue, jobId],
    );
}

/** Creates the queue, or brings an existing one's retry and expiry options up to date (every start). */
export async function ensureQueue(boss: PgBoss, name: string, options: Omit<PgBoss.Queue, 'name'>): Promise<void> {
  if (await boss.getQueue(name)) await boss.updateQueue(name, { name, ...options });
  else await boss.createQueue(name, { name, ...options });
}
