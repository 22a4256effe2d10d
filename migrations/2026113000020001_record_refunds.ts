import type { Knex } from 'knex';

/**
 * Refunds paid once and recorded (issue 23 §1, ARCHITECTURE §6, §10):
 * - `orders.payment_status` gains `refund_pending` (the refund's intent is recorded under the row lock
 *   before the gateway is called: a second cancel sees it and is refused) and `refunded`;
 * - `payments.kind` (`charge` | `refund`), `payments.merchant_reference` (the idempotent reference sent to
 *   the gateway: the order number for a charge, `<order number>-refund` for its refund) and
 *   `payments.attempted_at` (when the last attempt was sent, so the reconciler settles an unknown refund
 *   only once it is old); at most one refund row per order (partial unique index);
 * - `test_gateway_charges.refund_reference`: the test gateway refunds a charge once per reference and
 *   finds the refund again by it (lookup).
 * Existing rows are charges; their merchant reference is the order number.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE orders DROP CONSTRAINT orders_payment_status,
    ADD CONSTRAINT orders_payment_status CHECK (payment_status IN ('not_required','pending','paid','failed','error','refund_pending','refunded'))`);
  await knex.schema.alterTable('payments', (t) => {
    t.text('kind').notNullable().defaultTo('charge');
    t.text('merchant_reference');
    t.timestamp('attempted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    `UPDATE payments p SET merchant_reference = o.order_number, attempted_at = p.created_at FROM orders o WHERE o.id = p.order_id`,
  );
  await knex.raw(`ALTER TABLE payments ADD CONSTRAINT payments_kind CHECK (kind IN ('charge','refund'))`);
  await knex.raw(`CREATE UNIQUE INDEX payments_one_refund_per_order ON payments (order_id) WHERE kind = 'refund'`);
  await knex.raw(`CREATE INDEX orders_refund_pending ON orders (id) WHERE payment_status = 'refund_pending'`);
  await knex.schema.alterTable('test_gateway_charges', (t) => {
    t.text('refund_reference').unique();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('test_gateway_charges', (t) => {
    t.dropColumn('refund_reference');
  });
  await knex.raw('DROP INDEX IF EXISTS orders_refund_pending');
  await knex.raw('DROP INDEX IF EXISTS payments_one_refund_per_order');
  await knex.raw(`DELETE FROM payments WHERE kind = 'refund'`);
  await knex.schema.alterTable('payments', (t) => {
    t.dropColumn('attempted_at');
    t.dropColumn('merchant_reference');
    t.dropColumn('kind');
  });
  await knex.raw(`UPDATE orders SET payment_status = 'paid' WHERE payment_status IN ('refund_pending','refunded')`);
  await knex.raw(`ALTER TABLE orders DROP CONSTRAINT orders_payment_status,
    ADD CONSTRAINT orders_payment_status CHECK (payment_status IN ('not_required','pending','paid','failed','error'))`);
}
