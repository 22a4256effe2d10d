import type { Knex } from 'knex';

/**
 * Order lifecycle and warehouse integrations (ARCHITECTURE §10):
 * - orders: `cancel_pending` status (a cancellation whose refund failed), completed/cancelled times and the
 *   cancel reason;
 * - `order_events`: the append-only feed (seq order, one row per transition, payload = order snapshot);
 * - `test_gateway_charges.refunded_at`: the test gateway's refunds;
 * - `webhook_endpoints`, `webhook_deliveries`, `webhook_attempts`: signed webhooks and their delivery log;
 * - `integration_requests`: Idempotency-Key answers of API-key writes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE orders DROP CONSTRAINT orders_status,
    ADD CONSTRAINT orders_status CHECK (status IN ('reserved','ready','completed','cancelled','cancel_pending'))`);
  await knex.schema.alterTable('orders', (t) => {
    t.text('cancel_reason');
    t.timestamp('completed_at', { useTz: true });
    t.timestamp('cancelled_at', { useTz: true });
  });
  await knex.raw(
    `ALTER TABLE orders ADD CONSTRAINT orders_cancel_reason_length CHECK (cancel_reason IS NULL OR char_length(cancel_reason) <= 500)`,
  );
  await knex.schema.createTable('order_events', (t) => {
    t.bigIncrements('seq');
    t.integer('order_id').notNullable().references('orders.id').onDelete('CASCADE');
    t.integer('store_id').notNullable().references('stores.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.jsonb('payload').notNullable();
    t.index(['store_id', 'seq']);
    t.index(['order_id']);
  });
  await knex.raw(
    `ALTER TABLE order_events ADD CONSTRAINT order_events_type CHECK (type IN ('order.created','order.ready','order.completed','order.cancelled','order.cancel_pending'))`,
  );
  await knex.schema.alterTable('test_gateway_charges', (t) => {
    t.timestamp('refunded_at', { useTz: true });
  });
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('url').notNullable();
    t.text('secret').notNullable();
    t.integer('board_id').references('boards.id').onDelete('CASCADE');
    t.integer('store_id').references('stores.id').onDelete('CASCADE');
    t.specificType('events', 'text[]').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    'ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_scoped CHECK (board_id IS NOT NULL OR store_id IS NOT NULL)',
  );
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('endpoint_id').notNullable().references('webhook_endpoints.id').onDelete('CASCADE');
    t.bigInteger('event_seq').notNullable().references('order_events.seq').onDelete('CASCADE');
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('last_status_code');
    t.integer('last_duration_ms');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('delivered_at', { useTz: true });
    t.index(['endpoint_id', 'created_at']);
  });
  await knex.raw(
    `ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status CHECK (status IN ('pending','delivered','failed'))`,
  );
  await knex.schema.createTable('webhook_attempts', (t) => {
    t.bigIncrements('id');
    t.uuid('delivery_id').notNullable().references('webhook_deliveries.id').onDelete('CASCADE');
    t.timestamp('attempted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('status_code');
    t.integer('duration_ms').notNullable();
    t.text('error');
    t.index(['delivery_id']);
  });
  await knex.schema.createTable('integration_requests', (t) => {
    t.uuid('api_key_id').notNullable().references('api_keys.id').onDelete('CASCADE');
    t.text('key').notNullable();
    t.text('request_hash').notNullable();
    t.integer('status_code').notNullable();
    t.jsonb('response_body');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['api_key_id', 'key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['integration_requests', 'webhook_attempts', 'webhook_deliveries', 'webhook_endpoints', 'order_events'])
    await knex.schema.dropTableIfExists(t);
  await knex.schema.alterTable('test_gateway_charges', (t) => {
    t.dropColumn('refunded_at');
  });
  await knex.raw(`UPDATE orders SET status = 'cancelled' WHERE status = 'cancel_pending'`);
  await knex.raw('ALTER TABLE orders DROP CONSTRAINT orders_cancel_reason_length');
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('cancel_reason');
    t.dropColumn('completed_at');
    t.dropColumn('cancelled_at');
  });
  await knex.raw(
    `ALTER TABLE orders DROP CONSTRAINT orders_status, ADD CONSTRAINT orders_status CHECK (status IN ('reserved','ready','completed','cancelled'))`,
  );
}
