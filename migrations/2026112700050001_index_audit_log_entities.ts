import type { Knex } from 'knex';

/**
 * Audit log reads (GET /admin/audit-log): newest first by id, filtered by entity (`user:<id>`)
 * and scoped for board administrators by entity; this index serves both.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX IF NOT EXISTS audit_log_entity_idx ON audit_log (entity_type, entity_id, id DESC)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS audit_log_entity_idx');
}
