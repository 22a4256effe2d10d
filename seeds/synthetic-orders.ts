import type { Knex } from 'knex';

/**
 * The `orders` kind of the synthetic dataset (issue 29 §3, seeds/synthetic.ts): orders SYN-0000001… with 3
 * lines each and their `order.created` feed event, placed by the buyers of the synthetic outlets (else any
 * outlet buyers) at each outlet's store, over the past year; one hot store (the one with the most buyers)
 * takes every tenth order. `npm run db:seed -- --synthetic
 * outlets=10000,users=100000,orders=1000000`. Set-based like the other kinds (INSERT … SELECT
 * generate_series in batches of 20,000; idempotent by order number). Spread by number: 70 % completed, 12 %
 * cancelled, 10 % ready, 8 % reserved (the newest); 80 % in-store, 20 % card (paid; every 400th card order
 * still pending, every 1,000th error: the operators' "Needs attention"); 10 % of card orders delivered.
 */
const BATCH = 20_000;

/** A SyntheticKind of seeds/synthetic.ts (declared here: that module registers this one, no import cycle). */
interface OrdersKind {
  order: number;
  max: number;
  help: string;
  seed(db: Knex, count: number): Promise<number>;
}

export const syntheticOrders: OrdersKind = {
  order: 30,
  max: 9_999_999,
  help: 'orders SYN-0000001… (3 lines, an order.created event) by the synthetic buyers at their outlets’ stores',
  async seed(db: Knex, count: number) {
    await db.raw(`CREATE TEMP TABLE syn_buyers ON COMMIT DROP AS
      SELECT row_number() OVER (ORDER BY g.user_id, g.outlet_id)::int AS n, g.user_id, g.outlet_id, so.store_id,
             coalesce(p.full_name, u.email) AS name, u.email
        FROM role_grants g
        JOIN roles r ON r.id = g.role_id AND r.code = 'outlet_buyer'
        JOIN users u ON u.id = g.user_id
        LEFT JOIN user_profiles p ON p.user_id = g.user_id
        JOIN LATERAL (SELECT min(store_id) AS store_id FROM store_outlets WHERE outlet_id = g.outlet_id) so ON so.store_id IS NOT NULL
       WHERE g.scope_type = 'outlet' AND u.email LIKE 'syn-user-%'`);
    let buyers = Number((await db.raw('SELECT count(*)::int AS n FROM syn_buyers')).rows[0].n);
    if (!buyers) {
      await db.raw(`INSERT INTO syn_buyers
        SELECT row_number() OVER (ORDER BY g.user_id)::int, g.user_id, g.outlet_id, so.store_id, u.email, u.email
          FROM role_grants g JOIN roles r ON r.id = g.role_id AND r.code = 'outlet_buyer' JOIN users u ON u.id = g.user_id
          JOIN LATERAL (SELECT min(store_id) AS store_id FROM store_outlets WHERE outlet_id = g.outlet_id) so ON so.store_id IS NOT NULL
         WHERE g.scope_type = 'outlet'`);
      buyers = Number((await db.raw('SELECT count(*)::int AS n FROM syn_buyers')).rows[0].n);
    }
    if (!buyers) throw new Error('orders need outlet buyers at outlets linked to stores: add users=N (and outlets=N)');
    await db.raw('CREATE UNIQUE INDEX ON syn_buyers (n)');
    // One hot store (the one with the most buyers) takes every tenth order: its buyers are numbered first.
    await db.raw(`WITH hot AS (SELECT store_id FROM syn_buyers GROUP BY 1 ORDER BY count(*) DESC, store_id LIMIT 1),
      renum AS (SELECT b.n, row_number() OVER (ORDER BY (b.store_id = hot.store_id) DESC, b.n)::int AS m FROM syn_buyers b, hot)
      UPDATE syn_buyers b SET n = -r.m FROM renum r WHERE r.n = b.n`);
    await db.raw('UPDATE syn_buyers SET n = -n');
    const hot = Number(
      (await db.raw(`SELECT count(*)::int AS n FROM syn_buyers WHERE store_id = (SELECT store_id FROM syn_buyers WHERE n = 1)`)).rows[0].n,
    );
    await db.raw(`CREATE TEMP TABLE syn_items ON COMMIT DROP AS
      SELECT row_number() OVER (ORDER BY code)::int AS n, code, name, bottle_size_id FROM (SELECT code, name, bottle_size_id FROM items ORDER BY code LIMIT 2000) i`);
    const items = Number((await db.raw('SELECT count(*)::int AS n FROM syn_items')).rows[0].n);
    if (!items) throw new Error('orders need items: import the real data first (npm run db:import)');
    await db.raw('CREATE UNIQUE INDEX ON syn_items (n)');
    // Line k of order g: unit price 8 + (g·k mod 40) dollars, quantity 1 + (g + k) mod 3.
    const price = (k: number) => `(8 + (g * ${k}) % 40)::numeric`;
    const qty = (k: number) => `(1 + (g + ${k}) % 3)`;
    const subtotal = [1, 2, 3].map((k) => `${price(k)} * ${qty(k)}`).join(' + ');
    let created = 0;
    for (let from = 1; from <= count; from += BATCH) {
      const to = Math.min(count, from + BATCH - 1);
      const r = await db.raw(
        `WITH src AS (
           SELECT g, b.user_id, b.outlet_id, b.store_id, b.name, b.email,
                  now() - make_interval(mins => ((?::bigint - g) * 525600 / ?::bigint)::int) AS at,
                  CASE WHEN g % 5 = 0 THEN 'card' ELSE 'in_store' END AS method
             FROM generate_series(?::int, ?::int) g
               JOIN syn_buyers b ON b.n = CASE WHEN g % 10 = 0 THEN 1 + (g / 10) % ?::int ELSE 1 + g % ?::int END),
         ins AS (
           INSERT INTO orders (order_number, user_id, store_id, outlet_id, status, payment_method, payment_status,
                               fulfillment_flag, delivery_charge, subtotal, total_amount, customer_name, customer_email,
                               order_date, created_at, updated_at, ready_at)
           SELECT 'SYN-' || lpad(g::text, 7, '0'), user_id, store_id, outlet_id,
                  CASE WHEN g > ?::int * 0.92 THEN 'reserved' WHEN g % 100 < 12 THEN 'cancelled' WHEN g % 100 < 22 THEN 'ready' ELSE 'completed' END,
                  method,
                  CASE WHEN method = 'in_store' THEN 'not_required' WHEN g % 2000 = 0 THEN 'pending' WHEN g % 5000 = 5 THEN 'error' ELSE 'paid' END,
                  CASE WHEN method = 'card' AND g % 50 = 0 THEN 'Delivery' ELSE 'Pickup' END,
                  0, ${subtotal}, ${subtotal}, name, email, at, at, at,
                  CASE WHEN g % 100 >= 12 AND g <= ?::int * 0.92 THEN at + interval '2 hours' END
             FROM src
           ON CONFLICT (order_number) DO NOTHING
           RETURNING id, order_number, store_id, order_date),
         lines AS (
           INSERT INTO order_items (order_id, item_code, item_name, bottle_size_id, quantity, unit_price, total_price)
           SELECT o.id, it.code, it.name, it.bottle_size_id, q.qty, q.price, q.price * q.qty
             FROM ins o CROSS JOIN LATERAL (SELECT substring(o.order_number from 5)::int AS g) x
                  CROSS JOIN LATERAL (VALUES (1, ${price(1).replace(/g/g, 'x.g')}, ${qty(1).replace(/g/g, 'x.g')}),
                                  (2, ${price(2).replace(/g/g, 'x.g')}, ${qty(2).replace(/g/g, 'x.g')}),
                                  (3, ${price(3).replace(/g/g, 'x.g')}, ${qty(3).replace(/g/g, 'x.g')})) AS q(k, price, qty)
             JOIN syn_items it ON it.n = 1 + (x.g * 7 + q.k * 13) % ?::int
           RETURNING order_id),
         events AS (
           INSERT INTO order_events (order_id, store_id, type, occurred_at, payload)
           SELECT o.id, o.store_id, 'order.created', o.order_date, jsonb_build_object('id', o.id, 'orderNumber', o.order_number)
             FROM ins o ORDER BY o.id
           RETURNING seq)
         SELECT (SELECT count(*) FROM ins)::int AS orders, (SELECT count(*) FROM lines)::int AS lines, (SELECT count(*) FROM events)::int AS events`,
        [count, count, from, to, hot, buyers, count, count, items],
      );
      created += r.rows[0].orders;
    }
    return created;
  },
};
