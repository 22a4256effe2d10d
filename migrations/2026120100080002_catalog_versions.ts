import type { Knex } from 'knex';

/**
 * Versions of what a catalog page shows (issue 29 §2: the API's per-store result cache). `catalog_versions`
 * holds one counter per store (its `inventory` rows) and one for every store (store_id 0: `items` and
 * `bottle_sizes`); statement-level triggers bump them in the writing transaction, whatever wrote (imports,
 * integration pushes, admin edits, by hand). A cached page is served only while the sum of its store's
 * counter and the global one is the one it was read under (read in the same request: read-your-writes holds
 * across API processes). A TRUNCATE of inventory bumps the global counter.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE catalog_versions (
      store_id integer PRIMARY KEY CHECK (store_id >= 0),
      version bigint NOT NULL DEFAULT 1 CHECK (version > 0)
    );
    COMMENT ON TABLE catalog_versions IS 'Catalog page versions: per store (inventory), store_id 0 for items and bottle sizes (issue 29)';

    CREATE FUNCTION catalog_bump_stores() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO catalog_versions AS v (store_id)
        SELECT DISTINCT store_id FROM changed ORDER BY store_id
        ON CONFLICT (store_id) DO UPDATE SET version = v.version + 1;
      RETURN NULL;
    END $$;
    CREATE FUNCTION catalog_bump_stores_updated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO catalog_versions AS v (store_id)
        SELECT store_id FROM (SELECT store_id FROM changed UNION SELECT store_id FROM before) s ORDER BY store_id
        ON CONFLICT (store_id) DO UPDATE SET version = v.version + 1;
      RETURN NULL;
    END $$;
    CREATE FUNCTION catalog_bump_all() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO catalog_versions AS v (store_id) VALUES (0)
        ON CONFLICT (store_id) DO UPDATE SET version = v.version + 1;
      RETURN NULL;
    END $$;

    CREATE TRIGGER catalog_inventory_inserted AFTER INSERT ON inventory REFERENCING NEW TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION catalog_bump_stores();
    CREATE TRIGGER catalog_inventory_updated AFTER UPDATE ON inventory REFERENCING OLD TABLE AS before NEW TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION catalog_bump_stores_updated();
    CREATE TRIGGER catalog_inventory_deleted AFTER DELETE ON inventory REFERENCING OLD TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION catalog_bump_stores();
    CREATE TRIGGER catalog_inventory_truncated AFTER TRUNCATE ON inventory
      FOR EACH STATEMENT EXECUTE FUNCTION catalog_bump_all();
    CREATE TRIGGER catalog_items_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON items
      FOR EACH STATEMENT EXECUTE FUNCTION catalog_bump_all();
    CREATE TRIGGER catalog_bottle_sizes_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON bottle_sizes
      FOR EACH STATEMENT EXECUTE FUNCTION catalog_bump_all();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS catalog_bottle_sizes_changed ON bottle_sizes;
    DROP TRIGGER IF EXISTS catalog_items_changed ON items;
    DROP TRIGGER IF EXISTS catalog_inventory_truncated ON inventory;
    DROP TRIGGER IF EXISTS catalog_inventory_deleted ON inventory;
    DROP TRIGGER IF EXISTS catalog_inventory_updated ON inventory;
    DROP TRIGGER IF EXISTS catalog_inventory_inserted ON inventory;
    DROP FUNCTION IF EXISTS catalog_bump_all();
    DROP FUNCTION IF EXISTS catalog_bump_stores_updated();
    DROP FUNCTION IF EXISTS catalog_bump_stores();
    DROP TABLE IF EXISTS catalog_versions;
  `);
}
