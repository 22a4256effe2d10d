import type { Knex } from 'knex';

/**
 * Order lists at a million orders (issue 29 §3, `npm run bench -- growth`):
 * - `orders_needs_attention`: the operators' "Needs attention" list (orders.repository findAttention: unsettled
 *   card payments, cancel_pending, refund_pending; oldest first) is a walk of this small partial index instead
 *   of every order of the store (341 ms → 1.4 ms for a store with 100,000 orders; 0.3 ms for every store);
 * - `orders_store_status`: Store Orders' tab counts (countByStatus: placed orders per status of a store) are
 *   an index-only scan, no heap visit per order (533 ms → about 40 ms of index for 100,000 orders);
 * - `orders_user_status`: the same for My Orders' counts (a buyer's own orders per status).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX orders_needs_attention ON orders (order_date, id)
    WHERE (payment_status = 'pending' AND payment_method = 'card') OR status = 'cancel_pending' OR payment_status = 'refund_pending'`);
  await knex.raw('CREATE INDEX orders_store_status ON orders (store_id, status) INCLUDE (payment_status, user_id, outlet_id)');
  await knex.raw('CREATE INDEX orders_user_status ON orders (user_id, status) INCLUDE (payment_status)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS orders_user_status');
  await knex.raw('DROP INDEX IF EXISTS orders_store_status');
  await knex.raw('DROP INDEX IF EXISTS orders_needs_attention');
}
