import type { Knex } from 'knex';

/**
 * Test events for integrators (issue 24 §7, `POST /integrations/test-events`): a synthetic `order.created`
 * goes to the feed and the webhooks like a real one, marked `test: true`, with no order behind it.
 * `order_events.order_id` becomes nullable and `order_events.test` says which rows are synthetic (only
 * those may lack an order); `api_keys.sandbox` lets a key make them outside test and development.
 * Expand-only: older code never writes test rows and reads events by seq and store, so it runs against
 * this schema unchanged.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.boolean('sandbox').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('order_events', (t) => {
    t.boolean('test').notNullable().defaultTo(false);
  });
  await knex.raw(`ALTER TABLE order_events ALTER COLUMN order_id DROP NOT NULL`);
  await knex.raw(`ALTER TABLE order_events ADD CONSTRAINT order_events_order_unless_test CHECK (test OR order_id IS NOT NULL)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex('order_events').where({ test: true }).del();
  await knex.raw(`ALTER TABLE order_events DROP CONSTRAINT IF EXISTS order_events_order_unless_test`);
  await knex.raw(`ALTER TABLE order_events ALTER COLUMN order_id SET NOT NULL`);
  await knex.schema.alterTable('order_events', (t) => {
    t.dropColumn('test');
  });
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropColumn('sandbox');
  });
}
