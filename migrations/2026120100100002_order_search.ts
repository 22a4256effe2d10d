import type { Knex } from 'knex';

/**
 * Store Orders' list and search at a million orders (issue 29 §4, `npm run bench -- growth`):
 * - `orders.search_text`: what the search matches (order number, customer name, customer email), lower-cased
 *   and joined by newlines, a stored generated column: one LIKE per order instead of three ILIKEs (which
 *   lower-case per row: ~3× the time).
 * - `orders_store_list (store_id, order_date DESC, id DESC) INCLUDE (status, payment_status, user_id,
 *   outlet_id, search_text)`: replaces orders_store_id_order_date_index. A page of a store's orders, with the
 *   scope, status and search filters, is an index-only walk newest first, forward (a backward btree walk
 *   measured slower), with no heap visit per order skipped; a broad term whose matches are all old walks at
 *   most the store's own index range (91,459 entries for 'SYN-00' in the hot store at 1M orders).
 * - `orders_search_trgm`: pg_trgm GIN over search_text, so a rare term is an index lookup
 *   (a term matching nothing: ~1.5 ms instead of a walk of the store's 101,119 orders).
 * Adding the column rewrites orders (about 60 s at 1,000,000 orders, under an exclusive lock); index-only
 * walks need the visibility map back (autovacuum, or VACUUM orders) after it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE orders ADD COLUMN search_text text
    GENERATED ALWAYS AS (lower(order_number || E'\\n' || customer_name || E'\\n' || customer_email)) STORED`);
  await knex.raw(`CREATE INDEX orders_store_list ON orders (store_id, order_date DESC, id DESC)
    INCLUDE (status, payment_status, user_id, outlet_id, search_text)`);
  await knex.raw('DROP INDEX IF EXISTS orders_store_id_order_date_index');
  await knex.raw('CREATE INDEX orders_search_trgm ON orders USING gin (search_text gin_trgm_ops)');
  // The new column's statistics, so the planner weighs a term's matches (walk vs trigram index) from the start.
  await knex.raw('ANALYZE orders');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS orders_search_trgm');
  await knex.raw('CREATE INDEX IF NOT EXISTS orders_store_id_order_date_index ON orders (store_id, order_date)');
  await knex.raw('DROP INDEX IF EXISTS orders_store_list');
  await knex.raw('ALTER TABLE orders DROP COLUMN IF EXISTS search_text');
}
