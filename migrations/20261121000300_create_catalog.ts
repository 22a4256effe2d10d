import type { Knex } from 'knex';

/** Catalog (ARCHITECTURE §3): bottle sizes, the board's items, and each store's inventory. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('bottle_sizes', (t) => {
    t.increments('id');
    t.text('name').notNullable().unique();
    t.integer('volume_ml').notNullable().unique();
  });
  await knex.raw('ALTER TABLE bottle_sizes ADD CONSTRAINT bottle_sizes_volume_nonnegative CHECK (volume_ml >= 0)');
  await knex.schema.createTable('items', (t) => {
    t.increments('id');
    t.integer('board_id').notNullable().references('boards.id').onDelete('CASCADE');
    t.text('code').notNullable();
    t.text('name').notNullable();
    t.text('category');
    t.decimal('retail', 12, 2).notNullable();
    t.integer('bottles_per_case');
    t.integer('bottle_size_id').references('bottle_sizes.id').onDelete('SET NULL');
    t.boolean('active').notNullable().defaultTo(true);
    t.text('vendor_code');
    t.text('vendor_name');
    t.integer('proof');
    t.integer('age');
    t.text('upc');
    t.date('list_date');
    t.timestamps(true, true);
    t.unique(['board_id', 'code']);
  });
  await knex.raw(`ALTER TABLE items
    ADD CONSTRAINT items_retail_nonnegative CHECK (retail >= 0),
    ADD CONSTRAINT items_bottles_per_case_positive CHECK (bottles_per_case IS NULL OR bottles_per_case > 0),
    ADD CONSTRAINT items_code_not_blank CHECK (btrim(code) <> '')`);
  await knex.raw('CREATE INDEX items_name_trgm ON items USING gin (name gin_trgm_ops)');
  await knex.raw('CREATE INDEX items_code_trgm ON items USING gin (code gin_trgm_ops)');
  await knex.schema.createTable('inventory', (t) => {
    t.integer('store_id').notNullable().references('stores.id').onDelete('CASCADE');
    t.integer('item_id').notNullable().references('items.id').onDelete('CASCADE');
    t.integer('on_hand');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['store_id', 'item_id']);
    t.index(['item_id']);
  });
  await knex.raw('ALTER TABLE inventory ADD CONSTRAINT inventory_on_hand_nonnegative CHECK (on_hand IS NULL OR on_hand >= 0)');
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['inventory', 'items', 'bottle_sizes']) await knex.schema.dropTableIfExists(t);
}
