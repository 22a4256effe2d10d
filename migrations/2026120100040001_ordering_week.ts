import type { Knex } from 'knex';

/**
 * The licensee's ordering week (issue 27, ARCHITECTURE §5):
 * - items get their quantity rule (min, max or none, increment; all bottles), keyed per item (an item is a
 *   board's, so the rule holds at every store of the board; a store's split-case policy adds to it);
 * - stores get `split_case_policy` (any | full_cases | split_fee) and `split_case_fee` (dollars per bottle of
 *   an incomplete case); orders keep the fee they were charged (`split_case_fee`, part of total_amount:
 *   orders_total_adds_up becomes total = subtotal + delivery charge + split-case fee);
 * - order_guides (outlet × store, named, unique name per outlet) and order_guide_lines (item code, par, position);
 * - store_item_history: a store's real weekly bottles per item (from store_items_2022.csv, seeds), the basis
 *   of a suggestion for an outlet with no history of its own.
 * The database refuses what the API refuses: CHECKs on every quantity, FKs with the deletes they need.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('items', (t) => {
    t.integer('min_order_quantity').notNullable().defaultTo(1);
    t.integer('max_order_quantity').nullable();
    t.integer('order_increment').notNullable().defaultTo(1);
  });
  await knex.raw(`ALTER TABLE items
    ADD CONSTRAINT items_min_order_quantity_range CHECK (min_order_quantity BETWEEN 1 AND 999),
    ADD CONSTRAINT items_order_increment_range CHECK (order_increment BETWEEN 1 AND 999),
    ADD CONSTRAINT items_max_order_quantity_range CHECK (max_order_quantity IS NULL OR max_order_quantity BETWEEN min_order_quantity AND 999)`);
  await knex.schema.alterTable('stores', (t) => {
    t.text('split_case_policy').notNullable().defaultTo('any');
    t.decimal('split_case_fee', 12, 2).notNullable().defaultTo(0);
  });
  await knex.raw(`ALTER TABLE stores
    ADD CONSTRAINT stores_split_case_policy_known CHECK (split_case_policy IN ('any', 'full_cases', 'split_fee')),
    ADD CONSTRAINT stores_split_case_fee_nonnegative CHECK (split_case_fee >= 0)`);
  await knex.schema.alterTable('orders', (t) => {
    t.decimal('split_case_fee', 12, 2).notNullable().defaultTo(0);
  });
  await knex.raw(`ALTER TABLE orders ADD CONSTRAINT orders_split_case_fee_nonnegative CHECK (split_case_fee >= 0),
    DROP CONSTRAINT orders_total_adds_up,
    ADD CONSTRAINT orders_total_adds_up CHECK (total_amount = subtotal + delivery_charge + split_case_fee)`);

  await knex.schema.createTable('order_guides', (t) => {
    t.increments('id').primary();
    t.integer('outlet_id').notNullable().references('id').inTable('outlets').onDelete('CASCADE');
    t.integer('store_id').notNullable().references('id').inTable('stores').onDelete('CASCADE');
    t.text('name').notNullable();
    t.uuid('created_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['outlet_id', 'name'], { indexName: 'order_guides_outlet_name_unique' });
    t.index(['outlet_id', 'store_id'], 'order_guides_outlet_store');
  });
  await knex.raw(`ALTER TABLE order_guides ADD CONSTRAINT order_guides_name_length CHECK (length(btrim(name)) BETWEEN 1 AND 100)`);
  await knex.schema.createTable('order_guide_lines', (t) => {
    t.increments('id').primary();
    t.integer('guide_id').notNullable().references('id').inTable('order_guides').onDelete('CASCADE');
    t.text('item_code').notNullable();
    t.integer('par_quantity').notNullable();
    t.integer('position').notNullable();
    t.unique(['guide_id', 'item_code'], { indexName: 'order_guide_lines_guide_code_unique' });
  });
  await knex.raw(`ALTER TABLE order_guide_lines
    ADD CONSTRAINT order_guide_lines_par_range CHECK (par_quantity BETWEEN 1 AND 999),
    ADD CONSTRAINT order_guide_lines_position_nonnegative CHECK (position >= 0),
    ADD CONSTRAINT order_guide_lines_code_length CHECK (length(item_code) BETWEEN 1 AND 32)`);

  await knex.schema.createTable('store_item_history', (t) => {
    t.integer('store_id').notNullable().references('id').inTable('stores').onDelete('CASCADE');
    t.text('item_code').notNullable();
    t.decimal('weekly_bottles', 10, 2).notNullable();
    t.integer('order_lines').notNullable().defaultTo(0);
    t.smallint('year').notNullable();
    t.primary(['store_id', 'item_code']);
  });
  await knex.raw(`ALTER TABLE store_item_history ADD CONSTRAINT store_item_history_weekly_positive CHECK (weekly_bottles > 0)`);
}

export async function down(knex: Knex): Promise<void> {
  // Dropping a column drops the CHECKs that name it.
  await knex.schema.dropTableIfExists('store_item_history');
  await knex.schema.dropTableIfExists('order_guide_lines');
  await knex.schema.dropTableIfExists('order_guides');
  // An order that paid split-case fees keeps them in its total: the old rule is re-added for new rows only.
  await knex.raw(`ALTER TABLE orders DROP CONSTRAINT orders_total_adds_up`);
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('split_case_fee');
  });
  await knex.raw(`ALTER TABLE orders ADD CONSTRAINT orders_total_adds_up CHECK (total_amount = subtotal + delivery_charge) NOT VALID`);
  await knex.schema.alterTable('stores', (t) => {
    t.dropColumns('split_case_policy', 'split_case_fee');
  });
  await knex.schema.alterTable('items', (t) => {
    t.dropColumns('min_order_quantity', 'max_order_quantity', 'order_increment');
  });
}
