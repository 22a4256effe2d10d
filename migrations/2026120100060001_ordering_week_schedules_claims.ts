import type { Knex } from 'knex';

/**
 * The licensee's ordering week II (issue 28, ARCHITECTURE §5):
 * - `store_schedules`: one row per store that has its own ordering settings (none: the defaults of
 *   contracts DEFAULT_STORE_SCHEDULE): order days (0 = Sunday … 6), cut-off local time, IANA time zone,
 *   delivery lead days, delivery minimums (ml, amount; null = none), the outlets' yearly emergency allowance
 *   and the emergency fee;
 * - `outlet_store_schedules`: per outlet × store overrides (a null column keeps the store's value);
 * - `orders.emergency`, `orders.emergency_fee`, `checkout_sessions.emergency`: an emergency order skips
 *   the calendar, uses one of the outlet's allowance and carries the fee in its total;
 * - `order_claims`, `order_claim_lines`: claims after delivery (within 48 h of completion), each line
 *   with its reason and, once resolved, its outcome and credit;
 * - `order_events.type` gains `order.claim_opened` and `order.claim_resolved`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('store_schedules', (t) => {
    t.integer('store_id').primary().references('stores.id').onDelete('CASCADE');
    t.specificType('order_days', 'smallint[]').notNullable().defaultTo(knex.raw(`'{0,1,2,3,4,5,6}'`));
    t.specificType('cutoff_local_time', 'time').notNullable().defaultTo('14:00');
    t.text('time_zone').notNullable().defaultTo('America/Chicago');
    t.integer('delivery_lead_days').notNullable().defaultTo(1);
    t.integer('delivery_minimum_ml');
    t.decimal('delivery_minimum_amount', 12, 2);
    t.integer('emergency_allowance').notNullable().defaultTo(12);
    t.decimal('emergency_fee', 12, 2).notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE store_schedules
    ADD CONSTRAINT store_schedules_days CHECK (cardinality(order_days) BETWEEN 1 AND 7 AND order_days <@ '{0,1,2,3,4,5,6}'::smallint[]),
    ADD CONSTRAINT store_schedules_lead CHECK (delivery_lead_days BETWEEN 0 AND 14),
    ADD CONSTRAINT store_schedules_minimums CHECK ((delivery_minimum_ml IS NULL OR delivery_minimum_ml >= 0) AND (delivery_minimum_amount IS NULL OR delivery_minimum_amount >= 0)),
    ADD CONSTRAINT store_schedules_emergency CHECK (emergency_allowance BETWEEN 0 AND 365 AND emergency_fee >= 0),
    ADD CONSTRAINT store_schedules_time_zone CHECK (char_length(time_zone) BETWEEN 1 AND 64)`);
  await knex.schema.createTable('outlet_store_schedules', (t) => {
    t.integer('outlet_id').notNullable().references('outlets.id').onDelete('CASCADE');
    t.integer('store_id').notNullable().references('stores.id').onDelete('CASCADE');
    t.specificType('order_days', 'smallint[]');
    t.specificType('cutoff_local_time', 'time');
    t.integer('delivery_lead_days');
    t.integer('emergency_allowance');
    t.primary(['outlet_id', 'store_id']);
  });
  await knex.raw(`ALTER TABLE outlet_store_schedules
    ADD CONSTRAINT outlet_store_schedules_days CHECK (order_days IS NULL OR (cardinality(order_days) BETWEEN 1 AND 7 AND order_days <@ '{0,1,2,3,4,5,6}'::smallint[])),
    ADD CONSTRAINT outlet_store_schedules_lead CHECK (delivery_lead_days IS NULL OR delivery_lead_days BETWEEN 0 AND 14),
    ADD CONSTRAINT outlet_store_schedules_emergency CHECK (emergency_allowance IS NULL OR emergency_allowance BETWEEN 0 AND 365)`);
  await knex.schema.alterTable('orders', (t) => {
    t.boolean('emergency').notNullable().defaultTo(false);
    t.decimal('emergency_fee', 12, 2).notNullable().defaultTo(0);
  });
  await knex.raw(`ALTER TABLE orders ADD CONSTRAINT orders_emergency_fee CHECK (emergency_fee >= 0 AND (emergency OR emergency_fee = 0))`);
  // The total adds the emergency fee: whatever the sum's other terms are (other migrations may add fees), the
  // check now holds for total_amount − emergency_fee.
  await rewriteTotalCheck(knex, (expr) => expr.replace(/\btotal_amount\b/, '(total_amount - emergency_fee)'));
  await knex.raw(`CREATE INDEX orders_emergency_outlet ON orders (outlet_id, order_date) WHERE emergency`);
  await knex.raw(`CREATE INDEX orders_store_delivery_date ON orders (store_id, delivery_date) WHERE delivery_date IS NOT NULL`);
  await knex.schema.alterTable('checkout_sessions', (t) => {
    t.boolean('emergency').notNullable().defaultTo(false);
  });
  await knex.schema.createTable('order_claims', (t) => {
    t.increments('id');
    t.integer('order_id').notNullable().references('orders.id').onDelete('CASCADE');
    t.uuid('opened_by').references('users.id').onDelete('SET NULL');
    t.text('note');
    t.text('status').notNullable().defaultTo('open');
    t.text('outcome');
    t.text('resolution_note');
    t.uuid('resolved_by').references('users.id').onDelete('SET NULL');
    t.decimal('credit_amount', 12, 2).notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('resolved_at', { useTz: true });
    t.index(['order_id']);
  });
  await knex.raw(`ALTER TABLE order_claims
    ADD CONSTRAINT order_claims_status CHECK (status IN ('open','resolved')),
    ADD CONSTRAINT order_claims_outcome CHECK (outcome IS NULL OR outcome IN ('credit','replace','rejected')),
    ADD CONSTRAINT order_claims_resolved CHECK ((status = 'resolved') = (outcome IS NOT NULL AND resolved_at IS NOT NULL)),
    ADD CONSTRAINT order_claims_credit CHECK (credit_amount >= 0 AND (outcome = 'credit' OR credit_amount = 0)),
    ADD CONSTRAINT order_claims_note_length CHECK (note IS NULL OR char_length(note) <= 1000),
    ADD CONSTRAINT order_claims_resolution_length CHECK (resolution_note IS NULL OR char_length(resolution_note) <= 1000)`);
  await knex.schema.createTable('order_claim_lines', (t) => {
    t.increments('id');
    t.integer('claim_id').notNullable().references('order_claims.id').onDelete('CASCADE');
    t.text('item_code').notNullable();
    t.integer('quantity').notNullable();
    t.text('reason').notNullable();
    t.text('outcome');
    t.decimal('credit_amount', 12, 2);
    t.index(['claim_id']);
  });
  await knex.raw(`ALTER TABLE order_claim_lines
    ADD CONSTRAINT order_claim_lines_quantity CHECK (quantity > 0 AND quantity <= 999),
    ADD CONSTRAINT order_claim_lines_reason CHECK (reason IN ('damaged','wrong_item','short','leaking')),
    ADD CONSTRAINT order_claim_lines_outcome CHECK (outcome IS NULL OR outcome IN ('credit','replace','rejected')),
    ADD CONSTRAINT order_claim_lines_credit CHECK (credit_amount IS NULL OR (credit_amount >= 0 AND outcome = 'credit'))`);
  await knex.raw(`ALTER TABLE order_events DROP CONSTRAINT order_events_type,
    ADD CONSTRAINT order_events_type CHECK (type IN ('order.created','order.ready','order.completed','order.cancelled','order.cancel_pending','order.claim_opened','order.claim_resolved'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DELETE FROM order_events WHERE type IN ('order.claim_opened','order.claim_resolved')`);
  await knex.raw(`ALTER TABLE order_events DROP CONSTRAINT order_events_type,
    ADD CONSTRAINT order_events_type CHECK (type IN ('order.created','order.ready','order.completed','order.cancelled','order.cancel_pending'))`);
  await knex.schema.dropTable('order_claim_lines');
  await knex.schema.dropTable('order_claims');
  await knex.schema.alterTable('checkout_sessions', (t) => {
    t.dropColumn('emergency');
  });
  await knex.raw('DROP INDEX IF EXISTS orders_store_delivery_date');
  await knex.raw('DROP INDEX IF EXISTS orders_emergency_outlet');
  await knex.raw('UPDATE orders SET total_amount = total_amount - emergency_fee WHERE emergency_fee > 0');
  await rewriteTotalCheck(knex, (expr) => expr.replace(/\(total_amount - emergency_fee\)/, 'total_amount'));
  await knex.raw('ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_emergency_fee');
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('emergency_fee');
    t.dropColumn('emergency');
  });
  await knex.schema.dropTable('outlet_store_schedules');
  await knex.schema.dropTable('store_schedules');
}

/** Replaces orders_total_adds_up with the rewritten expression of its current definition. */
async function rewriteTotalCheck(knex: Knex, rewrite: (expr: string) => string): Promise<void> {
  const { rows } = await knex.raw<{ rows: { def: string }[] }>(
    `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'orders_total_adds_up' AND conrelid = 'orders'::regclass`,
  );
  const def = rows[0]?.def ?? 'CHECK ((total_amount = (subtotal + delivery_charge)))';
  const expr = def.replace(/^CHECK\s*/, '');
  await knex.raw(
    `ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_total_adds_up, ADD CONSTRAINT orders_total_adds_up CHECK ${rewrite(expr)}`,
  );
}
