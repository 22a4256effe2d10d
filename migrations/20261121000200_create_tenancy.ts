import type { Knex } from 'knex';

const STATE_CHECK = (col: string) => `CHECK (${col} IS NULL OR ${col} ~ '^[A-Z]{2}$')`;

/** Tenancy (ARCHITECTURE §3): boards own stores; outlets buy from stores; users are assigned to outlets. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('boards', (t) => {
    t.increments('id');
    t.integer('board_number').notNullable().unique();
    t.text('name').notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamps(true, true);
  });
  // A store's id is the warehouse system's store number (warehouseid), kept as the key.
  await knex.schema.createTable('stores', (t) => {
    t.integer('id').primary();
    t.text('warehouse_code').notNullable().unique();
    t.text('name').notNullable();
    t.integer('board_id').notNullable().references('boards.id').onDelete('RESTRICT');
    t.text('address');
    t.text('city');
    t.text('state');
    t.text('zip_code');
    t.text('phone');
    t.boolean('active').notNullable().defaultTo(true);
    t.boolean('is_warehouse').notNullable().defaultTo(false);
    t.boolean('delivery_enabled').notNullable().defaultTo(false);
    t.decimal('delivery_charge', 12, 2).notNullable().defaultTo(0);
    t.text('orderconf_ccemails');
    t.decimal('latitude', 9, 6);
    t.decimal('longitude', 9, 6);
    t.timestamps(true, true);
    t.index(['board_id']);
  });
  await knex.raw(`ALTER TABLE stores
    ADD CONSTRAINT stores_id_positive CHECK (id > 0),
    ADD CONSTRAINT stores_state_two_letters ${STATE_CHECK('state')},
    ADD CONSTRAINT stores_delivery_charge_nonnegative CHECK (delivery_charge >= 0),
    ADD CONSTRAINT stores_latitude_range CHECK (latitude IS NULL OR latitude BETWEEN -90 AND 90),
    ADD CONSTRAINT stores_longitude_range CHECK (longitude IS NULL OR longitude BETWEEN -180 AND 180)`);
  await knex.schema.createTable('outlets', (t) => {
    t.increments('id');
    t.text('outlet_code').notNullable().unique();
    t.text('name').notNullable();
    t.integer('board_id').references('boards.id').onDelete('SET NULL');
    t.text('address');
    t.text('city');
    t.text('state');
    t.text('zip_code');
    t.text('phone');
    t.text('email');
    t.boolean('active').notNullable().defaultTo(true);
    t.boolean('is_admin_outlet').notNullable().defaultTo(false);
    t.integer('default_store_id').references('stores.id').onDelete('SET NULL');
    t.timestamps(true, true);
  });
  await knex.raw(`ALTER TABLE outlets ADD CONSTRAINT outlets_state_two_letters ${STATE_CHECK('state')},
    ADD CONSTRAINT outlets_name_not_blank CHECK (btrim(name) <> ''),
    ADD CONSTRAINT outlets_code_not_blank CHECK (btrim(outlet_code) <> '')`);
  await knex.schema.createTable('store_outlets', (t) => {
    t.integer('store_id').notNullable().references('stores.id').onDelete('CASCADE');
    t.integer('outlet_id').notNullable().references('outlets.id').onDelete('CASCADE');
    t.primary(['store_id', 'outlet_id']);
    t.index(['outlet_id']);
  });
  await knex.schema.createTable('user_outlets', (t) => {
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('outlet_id').notNullable().references('outlets.id').onDelete('CASCADE');
    t.integer('last_selected_store_id').references('stores.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'outlet_id']);
    t.index(['outlet_id']);
  });
  await knex.schema.createTable('outlet_requests', (t) => {
    t.increments('id');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('outlet_id').notNullable().references('outlets.id').onDelete('CASCADE');
    t.text('status').notNullable().defaultTo('pending');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('decided_at', { useTz: true });
    t.uuid('decided_by').references('users.id').onDelete('SET NULL');
  });
  await knex.raw(`ALTER TABLE outlet_requests ADD CONSTRAINT outlet_requests_status CHECK (status IN ('pending','approved','rejected'))`);
  await knex.raw(`CREATE UNIQUE INDEX outlet_requests_one_pending ON outlet_requests (user_id, outlet_id) WHERE status = 'pending'`);
  await knex.schema.createTable('invitations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.specificType('email', 'citext').notNullable();
    t.text('first_name').notNullable();
    t.text('last_name').notNullable();
    t.specificType('role_ids', 'integer[]').notNullable();
    t.specificType('outlet_ids', 'integer[]').notNullable();
    t.uuid('invited_by').references('users.id').onDelete('SET NULL');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['email']);
  });
  await knex.raw(`ALTER TABLE invitations ADD CONSTRAINT invitations_roles_nonempty CHECK (cardinality(role_ids) > 0)`);
  await knex.schema.alterTable('user_profiles', (t) => {
    t.foreign('last_selected_outlet_id').references('outlets.id').onDelete('SET NULL');
    t.foreign('last_selected_store_id').references('stores.id').onDelete('SET NULL');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('user_profiles', (t) => {
    t.dropForeign(['last_selected_outlet_id']);
    t.dropForeign(['last_selected_store_id']);
  });
  for (const t of ['invitations', 'outlet_requests', 'user_outlets', 'store_outlets', 'outlets', 'stores', 'boards']) {
    await knex.schema.dropTableIfExists(t);
  }
}
