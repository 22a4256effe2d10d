import type { Knex } from 'knex';

/**
 * The order feed's index in memory answers the feed's tail without a query (issue 14: 32 readers), which is
 * exact only while it knows of every event appended: `order_events` announces each insert statement on
 * `order_events_appended` (payload: the highest seq it inserted; delivered at commit) and each delete or
 * truncate (a store or order removed with its events) on `order_events_removed`, whatever wrote it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION order_events_notify_append() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      last_seq bigint;
    BEGIN
      SELECT max(seq) INTO last_seq FROM appended;
      IF last_seq IS NOT NULL THEN
        PERFORM pg_notify('order_events_appended', last_seq::text);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER order_events_appended AFTER INSERT ON order_events REFERENCING NEW TABLE AS appended
      FOR EACH STATEMENT EXECUTE FUNCTION order_events_notify_append();

    CREATE FUNCTION order_events_notify_removal() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('order_events_removed', '');
      RETURN NULL;
    END $$;
    CREATE TRIGGER order_events_removed AFTER DELETE OR TRUNCATE ON order_events
      FOR EACH STATEMENT EXECUTE FUNCTION order_events_notify_removal();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS order_events_removed ON order_events;
    DROP FUNCTION IF EXISTS order_events_notify_removal();
    DROP TRIGGER IF EXISTS order_events_appended ON order_events;
    DROP FUNCTION IF EXISTS order_events_notify_append();
  `);
}
