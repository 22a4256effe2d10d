import type { Knex } from 'knex';

/**
 * Invitations and outlet requests (ARCHITECTURE §5): the invitation link's token is stored as a
 * SHA-256 hash; an invitation is pending until used, revoked (also when replaced by a newer one or resent)
 * or expired. At most one open invitation per email. Outlet requests keep the reject reason, and a decided
 * request always has its decision time.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invitations', (t) => {
    t.text('token_hash').unique();
    t.timestamp('revoked_at', { useTz: true });
    t.uuid('revoked_by').references('users.id').onDelete('SET NULL');
    t.text('revoked_reason');
    t.uuid('accepted_user_id').references('users.id').onDelete('SET NULL');
    t.timestamp('sent_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE invitations
    ADD CONSTRAINT invitations_token_hash_format CHECK (token_hash IS NULL OR token_hash ~ '^[0-9a-f]{64}$'),
    ADD CONSTRAINT invitations_used_or_revoked CHECK (used_at IS NULL OR revoked_at IS NULL),
    ADD CONSTRAINT invitations_revoked_reason CHECK (revoked_reason IS NULL OR revoked_reason IN ('revoked', 'replaced', 'resent')),
    ADD CONSTRAINT invitations_accepted_has_user CHECK (accepted_user_id IS NULL OR used_at IS NOT NULL),
    ADD CONSTRAINT invitations_expiry_after_creation CHECK (expires_at > created_at),
    ADD CONSTRAINT invitations_names_not_blank CHECK (btrim(first_name) <> '' AND btrim(last_name) <> ''),
    ADD CONSTRAINT invitations_outlets_positive CHECK (0 < ALL (outlet_ids)),
    ADD CONSTRAINT invitations_roles_positive CHECK (0 < ALL (role_ids))`);
  // One open (not used, not revoked) invitation per address: a second invitation replaces the first.
  await knex.raw('CREATE UNIQUE INDEX invitations_one_open_per_email ON invitations (email) WHERE used_at IS NULL AND revoked_at IS NULL');
  await knex.raw('CREATE INDEX invitations_created_at ON invitations (created_at DESC)');

  await knex.schema.alterTable('outlet_requests', (t) => {
    t.text('decision_reason');
    t.index(['status', 'created_at']);
  });
  await knex.raw(`ALTER TABLE outlet_requests
    ADD CONSTRAINT outlet_requests_decided_at CHECK ((status = 'pending') = (decided_at IS NULL)),
    ADD CONSTRAINT outlet_requests_reason_only_rejected CHECK (decision_reason IS NULL OR status = 'rejected'),
    ADD CONSTRAINT outlet_requests_reason_length CHECK (decision_reason IS NULL OR char_length(decision_reason) <= 500)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE outlet_requests
    DROP CONSTRAINT IF EXISTS outlet_requests_decided_at,
    DROP CONSTRAINT IF EXISTS outlet_requests_reason_only_rejected,
    DROP CONSTRAINT IF EXISTS outlet_requests_reason_length`);
  await knex.schema.alterTable('outlet_requests', (t) => {
    t.dropIndex(['status', 'created_at']);
    t.dropColumn('decision_reason');
  });
  await knex.raw('DROP INDEX IF EXISTS invitations_created_at');
  await knex.raw('DROP INDEX IF EXISTS invitations_one_open_per_email');
  await knex.raw(`ALTER TABLE invitations
    DROP CONSTRAINT IF EXISTS invitations_token_hash_format,
    DROP CONSTRAINT IF EXISTS invitations_used_or_revoked,
    DROP CONSTRAINT IF EXISTS invitations_revoked_reason,
    DROP CONSTRAINT IF EXISTS invitations_accepted_has_user,
    DROP CONSTRAINT IF EXISTS invitations_expiry_after_creation,
    DROP CONSTRAINT IF EXISTS invitations_names_not_blank,
    DROP CONSTRAINT IF EXISTS invitations_outlets_positive,
    DROP CONSTRAINT IF EXISTS invitations_roles_positive`);
  await knex.schema.alterTable('invitations', (t) => {
    t.dropColumn('token_hash');
    t.dropColumn('revoked_at');
    t.dropColumn('revoked_by');
    t.dropColumn('revoked_reason');
    t.dropColumn('accepted_user_id');
    t.dropColumn('sent_at');
    t.dropColumn('updated_at');
  });
}
