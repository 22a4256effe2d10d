import type { Knex } from 'knex';

/**
 * API-key Idempotency-Keys get the lease of users' keys (issue 25 §5: one idempotency module): a request
 * claims its key before it runs (`status_code` and `completed_at` null, `lease_expires_at` its lease), so a
 * concurrent retry with the same key waits its turn (409 idempotency_in_progress) instead of running the
 * write a second time. Expand-only: `completed_at` defaults to now(), so the previous release's inserts (a
 * final answer, status 200) stay complete rows; rows already stored are complete.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE integration_requests
    ALTER COLUMN status_code DROP NOT NULL,
    ADD COLUMN completed_at timestamptz DEFAULT now(),
    ADD COLUMN lease_expires_at timestamptz NOT NULL DEFAULT now()`);
  await knex.raw(`UPDATE integration_requests SET completed_at = created_at`);
  await knex.raw(
    `ALTER TABLE integration_requests ADD CONSTRAINT integration_requests_completed CHECK ((completed_at IS NULL) = (status_code IS NULL))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DELETE FROM integration_requests WHERE completed_at IS NULL`);
  await knex.raw(`ALTER TABLE integration_requests DROP CONSTRAINT IF EXISTS integration_requests_completed`);
  await knex.raw(
    `ALTER TABLE integration_requests DROP COLUMN lease_expires_at, DROP COLUMN completed_at, ALTER COLUMN status_code SET NOT NULL`,
  );
}
