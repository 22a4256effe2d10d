import type { Knex } from 'knex';

/**
 * The order feed without a global lock on appends (issue 29 §1). Appends used to hold one exclusive advisory
 * lock from drawing their seq until commit, so seqs committed in seq order; now each append holds, until its
 * transaction ends, the shared "appending" lock (key 0x0e7e0014, taken before its seq is drawn) and an
 * exclusive lock on its own seq (key 0x0e7e0015 << 32 | seq): appends no longer wait for each other, and seqs
 * may commit out of order. `order_events_horizon()` is the highest seq below which every event is committed
 * (or never will be: a rolled-back append leaves a permanent gap): the newest seq drawn, lowered below the
 * lowest seq still locked by an append in flight. A reader that reads `seq > cursor AND seq <= horizon` in a
 * statement after the one that computed the horizon never skips an event. An append seen between its draw
 * and its seq lock (a microsecond window) makes the function wait for every append in flight instead (the
 * appending lock taken exclusively, at once released). Seqs up to 2^32 (the lock key's low half).
 * `order_events_after(...)` is the feed's read: the horizon, then the events after a cursor up to it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION order_events_horizon() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
    DECLARE
      drawn bigint;
      mid_draw boolean;
      low bigint;
    BEGIN
      drawn := coalesce(pg_sequence_last_value(pg_get_serial_sequence('order_events', 'seq')::regclass), 0);
      WITH l AS MATERIALIZED (
        SELECT pid, classid::bigint AS hi, objid::bigint AS lo FROM pg_locks
         WHERE locktype = 'advisory' AND objsubid = 1 AND granted
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))
      SELECT EXISTS (SELECT 1 FROM l d WHERE d.hi = 0 AND d.lo = 243138580
                        AND NOT EXISTS (SELECT 1 FROM l s WHERE s.pid = d.pid AND s.hi = 243138581)),
             (SELECT min(s.lo) FROM l s WHERE s.hi = 243138581)
        INTO mid_draw, low;
      IF mid_draw THEN
        PERFORM pg_advisory_lock(243138580);
        drawn := coalesce(pg_sequence_last_value(pg_get_serial_sequence('order_events', 'seq')::regclass), 0);
        PERFORM pg_advisory_unlock(243138580);
        RETURN drawn;
      END IF;
      RETURN least(drawn, coalesce(low - 1, drawn));
    END $$;

    -- The events (seq, store) after p_after up to the horizon, by seq, at most p_limit: of store p_store, else
    -- of board p_board's stores, else of every store. One round trip; the read is a later statement than the
    -- horizon's (a volatile function's statements each take a fresh snapshot).
    CREATE FUNCTION order_events_after(p_after bigint, p_limit int, p_store int DEFAULT NULL, p_board int DEFAULT NULL)
      RETURNS TABLE (seq bigint, store_id int) LANGUAGE plpgsql VOLATILE AS $$
    DECLARE
      h bigint := order_events_horizon();
    BEGIN
      IF h <= p_after THEN
        RETURN;
      ELSIF p_store IS NOT NULL THEN
        RETURN QUERY SELECT e.seq, e.store_id FROM order_events e
          WHERE e.store_id = p_store AND e.seq > p_after AND e.seq <= h ORDER BY e.seq LIMIT p_limit;
      ELSIF p_board IS NOT NULL THEN
        RETURN QUERY SELECT e.seq, e.store_id FROM order_events e
          WHERE e.store_id IN (SELECT s.id FROM stores s WHERE s.board_id = p_board) AND e.seq > p_after AND e.seq <= h
          ORDER BY e.seq LIMIT p_limit;
      ELSE
        RETURN QUERY SELECT e.seq, e.store_id FROM order_events e WHERE e.seq > p_after AND e.seq <= h ORDER BY e.seq LIMIT p_limit;
      END IF;
    END $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS order_events_after(bigint, int, int, int)');
  await knex.raw('DROP FUNCTION IF EXISTS order_events_horizon()');
}
