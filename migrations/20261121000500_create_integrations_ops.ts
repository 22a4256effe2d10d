import type { Knex } from 'knex';

/** Integrations and ops (ARCHITECTURE §3): API keys, encrypted payment credentials, the audit log. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_keys', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.text('key_prefix').notNullable();
    t.text('key_hash').notNullable().unique();
    t.integer('board_id').references('boards.id').onDelete('CASCADE');
    t.integer('store_id').references('stores.id').onDelete('CASCADE');
    t.specificType('scopes', 'text[]').notNullable().defaultTo('{}');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
  });
  await knex.raw('ALTER TABLE api_keys ADD CONSTRAINT api_keys_scoped CHECK (board_id IS NOT NULL OR store_id IS NOT NULL)');
  await knex.schema.createTable('payment_credentials', (t) => {
    t.increments('id');
    t.text('app_code').notNullable();
    t.text('environment').notNullable();
    t.integer('store_id').notNullable().references('stores.id').onDelete('CASCADE');
    t.text('credential_type').notNullable();
    t.text('dek_secret_name').notNullable();
    t.text('encrypted_payload').notNullable();
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.uuid('updated_by').references('users.id').onDelete('SET NULL');
    t.timestamps(true, true);
    t.unique(['store_id', 'app_code', 'environment', 'credential_type']);
  });
  await knex.raw(`ALTER TABLE payment_credentials
    ADD CONSTRAINT payment_credentials_app CHECK (app_code IN ('BCC','IMS')),
    ADD CONSTRAINT payment_credentials_env CHECK (environment IN ('test','prod')),
    ADD CONSTRAINT payment_credentials_type CHECK (credential_type IN ('Monetra','Stripe','PayPal'))`);
  await knex.schema.createTable('audit_log', (t) => {
    t.bigIncrements('id');
    t.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid('user_id').references('users.id').onDelete('SET NULL');
    t.specificType('actor_email', 'citext');
    t.text('action').notNullable();
    t.text('entity_type');
    t.text('entity_id');
    t.specificType('ip', 'inet');
    t.jsonb('details');
    t.index(['action', 'actor_email', 'occurred_at']);
    t.index(['user_id', 'occurred_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['audit_log', 'payment_credentials', 'api_keys']) await knex.schema.dropTableIfExists(t);
}
