import type { Knex } from 'knex';

/**
 * The webhook delivery log shows why a delivery failed (issue 24 §7): `last_error` holds the receiver's
 * answer (its status and the start of its body) or the network error of the last attempt, as each
 * `webhook_attempts.error` does for its attempt. A partial index on pending deliveries makes the backlog
 * gauges of /metrics (count, oldest) one small index read. Expand-only: older code ignores both.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.text('last_error');
  });
  await knex.raw(
    `ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_last_error_length CHECK (char_length(last_error) <= 1000)`,
  );
  await knex.raw(`ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_error_length CHECK (char_length(error) <= 1000) NOT VALID`);
  await knex.raw(`CREATE INDEX webhook_deliveries_pending_created ON webhook_deliveries (created_at) WHERE status = 'pending'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX IF EXISTS webhook_deliveries_pending_created`);
  await knex.raw(`ALTER TABLE webhook_attempts DROP CONSTRAINT IF EXISTS webhook_attempts_error_length`);
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('last_error');
  });
}
