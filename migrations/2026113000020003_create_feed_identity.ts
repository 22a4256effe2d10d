import type { Knex } from 'knex';

/**
 * The order feed's identity (issue 23 §4): `feed_identity` holds one row, a random `feed_id` answered with
 * every feed page, and the fingerprint of the database it was made in. `feed_fingerprint()` answers the
 * live fingerprint: the database's oid, this table's own oid, and the WAL timeline:
 * - a dump restored into a new database (pg_restore, psql, `createdb -T`) gets a new database oid;
 * - a dump restored into the same database (`pg_restore --clean`) recreates this table: a new table oid;
 * - a physical restore (base backup with recovery, point-in-time recovery) or a promoted standby starts a
 *   new timeline.
 * When the stored fingerprint is not the live one, the API makes a new feed_id (modules/integrations/
 * feed-identity.ts): the events' seqs may be handed out again, and a cursor of the old feed is refused
 * (409 feed_reset) instead of silently skipping events. The timeline is read from the current WAL file's
 * name (`pg_walfile_name`, open to every role), NULL where it cannot be (a server in recovery).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION feed_fingerprint() RETURNS text LANGUAGE plpgsql STABLE AS $$
    DECLARE
      timeline text;
    BEGIN
      BEGIN
        timeline := substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8);
      EXCEPTION WHEN OTHERS THEN
        timeline := NULL;
      END;
      RETURN (SELECT oid FROM pg_database WHERE datname = current_database())::text
        || ':' || 'feed_identity'::regclass::oid::text || ':' || coalesce(timeline, '-');
    END $$;
    CREATE TABLE feed_identity (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      feed_id uuid NOT NULL,
      fingerprint text NOT NULL,
      made_at timestamptz NOT NULL DEFAULT now()
    );
    INSERT INTO feed_identity (feed_id, fingerprint) VALUES (gen_random_uuid(), feed_fingerprint());
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS feed_identity; DROP FUNCTION IF EXISTS feed_fingerprint();');
}
