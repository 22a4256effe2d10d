import type { Knex } from 'knex';

/**
 * Idempotency keys of writes that must not happen twice (ARCHITECTURE §5): POST /orders records the
 * first answer (status code and body) per user and key, so a retry gets it back and never charges twice.
 * request_hash fingerprints the request (never card data); a key reused for another request is refused.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('key').notNullable();
    t.text('scope').notNullable();
    t.text('request_hash').notNullable();
    t.integer('status_code');
    t.jsonb('response_body');
    t.integer('order_id').references('orders.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.primary(['user_id', 'scope', 'key']);
    t.index(['created_at']);
  });
  await knex.raw(`ALTER TABLE idempotency_keys
    ADD CONSTRAINT idempotency_keys_key_length CHECK (char_length(key) BETWEEN 1 AND 255),
    ADD CONSTRAINT idempotency_keys_completed CHECK ((completed_at IS NULL) = (status_code IS NULL))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('idempotency_keys');
}
