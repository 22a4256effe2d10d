import type { Knex } from 'knex';

/**
 * What the integration API's speed rests on (issue 14):
 * 1. `api_keys` announces every change a cached key principal depends on (revoked, scopes, board or store,
 *    name, hash; a deleted or truncated row) on the channel `api_keys_changed` (payload: the key's hash, or
 *    `*` for all), so an API process that caches principals drops the entry at once, whatever made the
 *    change (the admin area, a cascade, an operator's SQL). A `last_used_at` update alone says nothing.
 * 2. `stores` announces on `stores_changed` every statement that adds, removes or moves a store to another
 *    board (the order feed's index in memory reloads a board's stores).
 * 3. `order_events.item_json` rewritten as ASCII JSON (`\uXXXX` escapes past U+007F), as appends now store it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION api_keys_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'TRUNCATE' THEN
        PERFORM pg_notify('api_keys_changed', '*');
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('api_keys_changed', OLD.key_hash);
      ELSIF (OLD.revoked_at, OLD.scopes, OLD.board_id, OLD.store_id, OLD.name, OLD.key_hash)
            IS DISTINCT FROM (NEW.revoked_at, NEW.scopes, NEW.board_id, NEW.store_id, NEW.name, NEW.key_hash) THEN
        PERFORM pg_notify('api_keys_changed', OLD.key_hash);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER api_keys_changed AFTER UPDATE OR DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION api_keys_notify_change();
    CREATE TRIGGER api_keys_truncated AFTER TRUNCATE ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION api_keys_notify_change();

    CREATE FUNCTION stores_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('stores_changed', '');
      RETURN NULL;
    END $$;
    CREATE TRIGGER stores_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF board_id ON stores
      FOR EACH STATEMENT EXECUTE FUNCTION stores_notify_change();
  `);
  // Existing event texts in ASCII (a handful of characters per row; rows already ASCII are left alone).
  await knex.raw(`
    UPDATE order_events SET item_json = (
      SELECT string_agg(CASE WHEN ascii(c) < 128 THEN c
                             WHEN ascii(c) < 65536 THEN '\\u' || lpad(to_hex(ascii(c)), 4, '0')
                             ELSE '\\u' || to_hex(55296 + ((ascii(c) - 65536) >> 10)) || '\\u' || to_hex(56320 + ((ascii(c) - 65536) & 1023))
                        END, '' ORDER BY i)
        FROM regexp_split_to_table(item_json, '') WITH ORDINALITY AS x(c, i))
     WHERE item_json ~ '[^\\x01-\\x7f]'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS stores_changed ON stores;
    DROP FUNCTION IF EXISTS stores_notify_change();
    DROP TRIGGER IF EXISTS api_keys_truncated ON api_keys;
    DROP TRIGGER IF EXISTS api_keys_changed ON api_keys;
    DROP FUNCTION IF EXISTS api_keys_notify_change();
  `);
}
