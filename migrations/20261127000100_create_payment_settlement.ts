import type { Knex } from 'knex';

/**
 * Money settlement (ARCHITECTURE §6):
 * - `test_gateway_charges`: the test gateway's ledger, keyed by the merchant reference (the order
 *   number), so a lookup after an API restart still knows what was charged;
 * - `idempotency_keys.lease_expires_at`: a claim is held for a lease (60 s); a key whose request died is
 *   taken over after it and goes through settlement, never a second charge;
 * - `orders.payment_checked_at`: when the gateway was last asked about a pending card order (reconciler,
 *   "Check again"), and a partial index over pending card orders for the reconciler.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('test_gateway_charges', (t) => {
    t.text('merchant_reference').primary();
    t.decimal('amount', 12, 2).notNullable();
    t.text('status').notNullable();
    t.text('result_code').notNullable();
    t.text('verbiage').notNullable();
    t.text('gateway_reference');
    t.text('card_last4');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE test_gateway_charges
    ADD CONSTRAINT test_gateway_charges_status CHECK (status IN ('approved','declined','error')),
    ADD CONSTRAINT test_gateway_charges_amount CHECK (amount >= 0),
    ADD CONSTRAINT test_gateway_charges_last4 CHECK (card_last4 IS NULL OR card_last4 ~ '^[0-9]{4}$')`);
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.timestamp('lease_expires_at', { useTz: true }).notNullable().defaultTo(knex.raw(`now() + interval '60 seconds'`));
  });
  await knex.schema.alterTable('orders', (t) => {
    t.timestamp('payment_checked_at', { useTz: true });
  });
  await knex.raw(`CREATE INDEX orders_pending_card_payments ON orders (order_date) WHERE payment_status = 'pending'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS orders_pending_card_payments');
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('payment_checked_at');
  });
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.dropColumn('lease_expires_at');
  });
  await knex.schema.dropTableIfExists('test_gateway_charges');
}
