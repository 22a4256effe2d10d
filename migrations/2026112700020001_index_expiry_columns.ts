import type { Knex } from 'knex';

/**
 * Indexes for the janitors: each hourly cleanup deletes by an expiry or age column, so it
 * reads only the rows it removes instead of scanning the tables.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX IF NOT EXISTS audit_log_occurred_at_idx ON audit_log (occurred_at)');
  await knex.raw('CREATE INDEX IF NOT EXISTS auth_sessions_expires_at_idx ON auth_sessions (expires_at)');
  await knex.raw('CREATE INDEX IF NOT EXISTS password_reset_tokens_expires_at_idx ON password_reset_tokens (expires_at)');
  await knex.raw('CREATE INDEX IF NOT EXISTS checkout_sessions_expires_at_idx ON checkout_sessions (expires_at)');
}

export async function down(knex: Knex): Promise<void> {
  for (const name of [
    'audit_log_occurred_at_idx',
    'auth_sessions_expires_at_idx',
    'password_reset_tokens_expires_at_idx',
    'checkout_sessions_expires_at_idx',
  ]) {
    await knex.raw(`DROP INDEX IF EXISTS ${name}`);
  }
}
