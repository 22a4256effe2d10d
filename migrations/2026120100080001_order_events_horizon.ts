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
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS order_events_horizon()');
}
