import type { Knex } from 'knex';

/**
 * Store Orders' tab counts at any size (issue 29 §4, `npm run bench -- growth`):
 * - `store_order_counts (store_id, status, slot, n)`: how many placed orders (payment_status not_required,
 *   paid, refund_pending or refunded: orders.repository PLACED_PAYMENT_STATUSES) a store holds per status,
 *   kept exact by statement triggers on orders (insert, update, delete, truncate) and backfilled here. An
 *   order counts in slot `id % 16`, so concurrent placements in one store update different rows (no queue
 *   behind one hot counter until commit) and every slot stays ≥ 0 (CHECK). Reading a store's counts is a sum
 *   of at most 16 rows per status instead of an index scan of all its orders (79 ms at 101,119 orders).
 */
const PLACED = `('not_required', 'paid', 'refund_pending', 'refunded')`;

/**
 * PL/pgSQL applying `deltas` (store_id, status, slot, n ≠ 0) to store_order_counts in key order: lowered
 * rows by UPDATE (an INSERT … ON CONFLICT would test its negative proposed row against the CHECK first),
 * raised rows by upsert; sets `want`/`got` to the number of counts to lower and of rows lowered.
 */
const apply = (deltas: string) => `
        WITH d AS (${deltas}),
        lowered AS (
          UPDATE store_order_counts c SET n = c.n + d.n FROM d
           WHERE d.n < 0 AND c.store_id = d.store_id AND c.status = d.status AND c.slot = d.slot RETURNING 1),
        raised AS (
          INSERT INTO store_order_counts AS c (store_id, status, slot, n)
          SELECT store_id, status, slot, n FROM d WHERE n > 0 ORDER BY 1, 2, 3
          ON CONFLICT (store_id, status, slot) DO UPDATE SET n = c.n + EXCLUDED.n RETURNING 1)
        SELECT (SELECT count(*) FROM d WHERE n < 0), (SELECT count(*) FROM lowered) INTO want, got;`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw('LOCK TABLE orders IN SHARE ROW EXCLUSIVE MODE');
  await knex.raw(`
    CREATE TABLE store_order_counts (
      store_id integer NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
      status text NOT NULL,
      slot smallint NOT NULL CONSTRAINT store_order_counts_slot_range CHECK (slot BETWEEN 0 AND 15),
      n bigint NOT NULL CONSTRAINT store_order_counts_n_nonnegative CHECK (n >= 0),
      PRIMARY KEY (store_id, status, slot)
    )`);
  await knex.raw(`
    CREATE FUNCTION store_order_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      want bigint;
      got bigint;
    BEGIN
      IF TG_OP = 'INSERT' THEN
        ${apply(`SELECT store_id, status, (id % 16)::smallint AS slot, count(*) AS n FROM new_rows
                  WHERE payment_status IN ${PLACED} GROUP BY 1, 2, 3`)}
      ELSIF TG_OP = 'DELETE' THEN
        ${apply(`SELECT store_id, status, (id % 16)::smallint AS slot, -count(*) AS n FROM old_rows
                  WHERE payment_status IN ${PLACED} GROUP BY 1, 2, 3`)}
      ELSE
        ${apply(`SELECT store_id, status, slot, sum(n) AS n FROM (
            SELECT o.store_id, o.status, (o.id % 16)::smallint AS slot, -1 AS n
              FROM old_rows o JOIN new_rows w ON w.id = o.id
             WHERE o.payment_status IN ${PLACED}
               AND (o.store_id, o.status, o.payment_status) IS DISTINCT FROM (w.store_id, w.status, w.payment_status)
            UNION ALL
            SELECT w.store_id, w.status, (w.id % 16)::smallint, 1
              FROM new_rows w JOIN old_rows o ON o.id = w.id
             WHERE w.payment_status IN ${PLACED}
               AND (o.store_id, o.status, o.payment_status) IS DISTINCT FROM (w.store_id, w.status, w.payment_status)
          ) x GROUP BY 1, 2, 3 HAVING sum(n) <> 0`)}
      END IF;
      IF got <> want THEN
        RAISE EXCEPTION 'store_order_counts: % of % counts to lower are missing', want - got, want;
      END IF;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER store_order_counts_insert AFTER INSERT ON orders
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION store_order_counts_apply()`);
  await knex.raw(`CREATE TRIGGER store_order_counts_update AFTER UPDATE ON orders
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION store_order_counts_apply()`);
  await knex.raw(`CREATE TRIGGER store_order_counts_delete AFTER DELETE ON orders
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION store_order_counts_apply()`);
  await knex.raw(`
    CREATE FUNCTION store_order_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM store_order_counts;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER store_order_counts_truncate AFTER TRUNCATE ON orders
    FOR EACH STATEMENT EXECUTE FUNCTION store_order_counts_truncate()`);
  await knex.raw(`
    INSERT INTO store_order_counts (store_id, status, slot, n)
    SELECT store_id, status, (id % 16)::smallint, count(*) FROM orders WHERE payment_status IN ${PLACED} GROUP BY 1, 2, 3`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS store_order_counts_truncate ON orders');
  await knex.raw('DROP TRIGGER IF EXISTS store_order_counts_delete ON orders');
  await knex.raw('DROP TRIGGER IF EXISTS store_order_counts_update ON orders');
  await knex.raw('DROP TRIGGER IF EXISTS store_order_counts_insert ON orders');
  await knex.raw('DROP FUNCTION IF EXISTS store_order_counts_truncate()');
  await knex.raw('DROP FUNCTION IF EXISTS store_order_counts_apply()');
  await knex.raw('DROP TABLE IF EXISTS store_order_counts');
}
