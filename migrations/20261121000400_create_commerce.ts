import type { Knex } from 'knex';

/**
 * Commerce (ARCHITECTURE §3): carts and their lines, server-side checkout sessions, orders with their
 * line snapshots, and payments (gateway reference and last 4 digits only, never a card number).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('carts', (t) => {
    t.increments('id');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('outlet_id').notNullable().references('outlets.id').onDelete('CASCADE');
    t.integer('store_id').notNullable().references('stores.id').onDelete('CASCADE');
    t.text('status').notNullable().defaultTo('active');
    t.text('fulfillment_flag').notNullable().defaultTo('Pickup');
    t.decimal('delivery_charge', 12, 2).notNullable().defaultTo(0);
    t.date('delivery_date');
    t.text('created_by_flag').notNullable().defaultTo('portal');
    t.timestamps(true, true);
  });
  await knex.raw(`ALTER TABLE carts
    ADD CONSTRAINT carts_status CHECK (status IN ('active','checked_out','abandoned')),
    ADD CONSTRAINT carts_fulfillment CHECK (fulfillment_flag IN ('Pickup','Delivery')),
    ADD CONSTRAINT carts_delivery_charge_nonnegative CHECK (delivery_charge >= 0),
    ADD CONSTRAINT carts_charge_only_for_delivery CHECK (fulfillment_flag = 'Delivery' OR delivery_charge = 0)`);
  await knex.raw(
    `CREATE UNIQUE INDEX carts_one_active_per_user_outlet_store ON carts (user_id, outlet_id, store_id) WHERE status = 'active'`,
  );
  await knex.schema.createTable('cart_items', (t) => {
    t.increments('id');
    t.integer('cart_id').notNullable().references('carts.id').onDelete('CASCADE');
    t.integer('item_id').notNullable().references('items.id').onDelete('CASCADE');
    t.text('item_code').notNullable();
    t.integer('quantity').notNullable();
    t.decimal('unit_price', 12, 2).notNullable();
    t.timestamps(true, true);
    t.unique(['cart_id', 'item_code']);
  });
  await knex.raw(`ALTER TABLE cart_items
    ADD CONSTRAINT cart_items_quantity_range CHECK (quantity BETWEEN 1 AND 999),
    ADD CONSTRAINT cart_items_unit_price_nonnegative CHECK (unit_price >= 0)`);
  await knex.schema.createTable('checkout_sessions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('token_hash').notNullable().unique();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('cart_id').notNullable().references('carts.id').onDelete('CASCADE');
    t.decimal('total', 12, 2).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('consumed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('ALTER TABLE checkout_sessions ADD CONSTRAINT checkout_sessions_total_nonnegative CHECK (total >= 0)');
  await knex.raw('CREATE SEQUENCE order_number_seq START 1000');
  await knex.schema.createTable('orders', (t) => {
    t.increments('id');
    t.text('order_number').notNullable().unique();
    t.uuid('user_id').references('users.id').onDelete('SET NULL');
    t.integer('store_id').notNullable().references('stores.id').onDelete('RESTRICT');
    t.integer('outlet_id').notNullable().references('outlets.id').onDelete('RESTRICT');
    t.uuid('checkout_session_id').references('checkout_sessions.id').onDelete('SET NULL');
    t.text('status').notNullable().defaultTo('reserved');
    t.text('payment_method').notNullable().defaultTo('card');
    t.text('payment_status').notNullable().defaultTo('pending');
    t.text('fulfillment_flag').notNullable().defaultTo('Pickup');
    t.date('delivery_date');
    t.decimal('delivery_charge', 12, 2).notNullable().defaultTo(0);
    t.decimal('subtotal', 12, 2).notNullable();
    t.decimal('total_amount', 12, 2).notNullable();
    t.text('customer_name').notNullable();
    t.text('customer_email').notNullable();
    t.text('customer_phone');
    t.text('notes');
    t.text('idempotency_key');
    t.timestamp('order_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('ready_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['store_id', 'order_date']);
    t.index(['user_id', 'order_date']);
    t.unique(['user_id', 'idempotency_key']);
  });
  await knex.raw(`ALTER TABLE orders
    ADD CONSTRAINT orders_status CHECK (status IN ('reserved','ready','completed','cancelled')),
    ADD CONSTRAINT orders_payment_method CHECK (payment_method IN ('card','in_store')),
    ADD CONSTRAINT orders_payment_status CHECK (payment_status IN ('not_required','pending','paid','failed','error')),
    ADD CONSTRAINT orders_fulfillment CHECK (fulfillment_flag IN ('Pickup','Delivery')),
    ADD CONSTRAINT orders_in_store_not_delivery CHECK (NOT (payment_method = 'in_store' AND fulfillment_flag = 'Delivery')),
    ADD CONSTRAINT orders_money_nonnegative CHECK (delivery_charge >= 0 AND subtotal >= 0 AND total_amount >= 0),
    ADD CONSTRAINT orders_total_adds_up CHECK (total_amount = subtotal + delivery_charge)`);
  // At most one live (not failed) order per checkout session: a second charge cannot get an order row.
  await knex.raw(
    `CREATE UNIQUE INDEX orders_one_live_per_checkout_session ON orders (checkout_session_id) WHERE payment_status NOT IN ('failed')`,
  );
  await knex.schema.createTable('order_items', (t) => {
    t.increments('id');
    t.integer('order_id').notNullable().references('orders.id').onDelete('CASCADE');
    t.text('item_code').notNullable();
    t.text('item_name').notNullable();
    t.integer('bottle_size_id').references('bottle_sizes.id').onDelete('SET NULL');
    t.text('bottlesize_text');
    t.integer('quantity').notNullable();
    t.decimal('unit_price', 12, 2).notNullable();
    t.decimal('total_price', 12, 2).notNullable();
    t.index(['order_id']);
  });
  await knex.raw(`ALTER TABLE order_items
    ADD CONSTRAINT order_items_quantity_range CHECK (quantity BETWEEN 1 AND 999),
    ADD CONSTRAINT order_items_money CHECK (unit_price >= 0 AND total_price = unit_price * quantity)`);
  await knex.schema.createTable('payments', (t) => {
    t.increments('id');
    t.integer('order_id').notNullable().references('orders.id').onDelete('RESTRICT');
    t.text('gateway').notNullable();
    t.decimal('amount', 12, 2).notNullable();
    t.text('currency').notNullable().defaultTo('840');
    t.text('status').notNullable();
    t.text('result_code');
    t.text('verbiage');
    t.text('gateway_reference');
    t.text('card_brand');
    t.text('card_last4');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['order_id']);
  });
  await knex.raw(`ALTER TABLE payments
    ADD CONSTRAINT payments_status CHECK (status IN ('pending','approved','declined','error')),
    ADD CONSTRAINT payments_amount_nonnegative CHECK (amount >= 0),
    ADD CONSTRAINT payments_last4 CHECK (card_last4 IS NULL OR card_last4 ~ '^[0-9]{4}$')`);
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['payments', 'order_items', 'orders', 'checkout_sessions', 'cart_items', 'carts']) await knex.schema.dropTableIfExists(t);
  await knex.raw('DROP SEQUENCE IF EXISTS order_number_seq');
}
