import type { Knex } from 'knex';

/**
 * Rate-limit counters shared by every API process (issue 24 §7: per API key across processes): the table
 * rate-limiter-flexible's PostgreSQL limiter uses (apps/api/src/http/rate-limit-store.ts), in its column
 * order (it inserts `VALUES (key, points, expire)`): `key` = limiter prefix + the limited key, `points` = hits
 * in the window, `expire` = the window's end in epoch milliseconds. UNLOGGED: counters are not worth WAL
 * (a crash or failover starts every window afresh, which is all a lost counter means). Expired rows are
 * deleted by the limiter every 5 minutes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE UNLOGGED TABLE rate_limits (
    key varchar(255) PRIMARY KEY,
    points integer NOT NULL DEFAULT 0,
    expire bigint
  )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_limits');
}
