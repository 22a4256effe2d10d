import type { Knex } from 'knex';

/** Identity and access (ARCHITECTURE §3): users, sessions, reset tokens, roles and permissions. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS citext');
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.specificType('email', 'citext').notNullable().unique();
    t.text('password_hash').notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamp('last_login_at', { useTz: true });
    t.timestamps(true, true);
  });
  await knex.raw(`ALTER TABLE users ADD CONSTRAINT users_email_format CHECK (email ~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$')`);
  await knex.schema.createTable('user_profiles', (t) => {
    t.uuid('user_id').primary().references('users.id').onDelete('CASCADE');
    t.text('first_name');
    t.text('last_name');
    t.text('full_name');
    t.text('phone');
    t.integer('last_selected_outlet_id');
    t.integer('last_selected_store_id');
    t.timestamps(true, true);
  });
  await knex.schema.createTable('auth_sessions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('family_id').notNullable();
    t.text('token_hash').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('rotated_at', { useTz: true });
    t.uuid('replaced_by').references('auth_sessions.id').onDelete('SET NULL');
    t.timestamp('revoked_at', { useTz: true });
    t.text('revoked_reason');
    t.text('user_agent');
    t.specificType('ip', 'inet');
    t.index(['family_id']);
    t.index(['user_id']);
  });
  await knex.schema.createTable('password_reset_tokens', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.specificType('requested_ip', 'inet');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'created_at']);
  });
  await knex.schema.createTable('roles', (t) => {
    t.increments('id');
    t.text('code').notNullable().unique();
    t.text('role_name');
    t.text('description');
    t.integer('role_level').notNullable();
    t.timestamps(true, true);
  });
  await knex.raw('ALTER TABLE roles ADD CONSTRAINT roles_level_range CHECK (role_level BETWEEN 0 AND 999)');
  await knex.schema.createTable('permissions', (t) => {
    t.increments('id');
    t.text('code').notNullable().unique();
    t.text('description');
  });
  await knex.raw(`ALTER TABLE permissions ADD CONSTRAINT permissions_code_prefix CHECK (code LIKE 'bcc.%')`);
  await knex.schema.createTable('role_permissions', (t) => {
    t.integer('role_id').notNullable().references('roles.id').onDelete('CASCADE');
    t.integer('permission_id').notNullable().references('permissions.id').onDelete('CASCADE');
    t.primary(['role_id', 'permission_id']);
  });
  await knex.schema.createTable('user_roles', (t) => {
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('role_id').notNullable().references('roles.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'role_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of [
    'user_roles',
    'role_permissions',
    'permissions',
    'roles',
    'password_reset_tokens',
    'auth_sessions',
    'user_profiles',
    'users',
  ]) {
    await knex.schema.dropTableIfExists(t);
  }
}
