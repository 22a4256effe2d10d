import type { Knex } from 'knex';

/**
 * Administration at scale (issue 26; ARCHITECTURE §5 "Administration at scale"): the admin lists sort and
 * filter 100,000 users and 10,000 outlets within 100 ms.
 *
 * - `users.sort_name`: the users list's name key, lower(full name, else first + last, else email), kept by
 *   triggers (a user's insert or email change, a profile's insert or name change) so that sorting by name walks an
 *   index instead of sorting every user joined to their profile. NOT NULL: every user has one.
 * - `users.has_grant`: does the user hold any grant (who the super administrator's list shows), kept by
 *   triggers on role_grants, so counting 100,000 listed users reads one partial index instead of joining
 *   every user to their grants.
 * - B-tree indexes for the sorts (name, last sign-in, outlet name/code) and trigram indexes for the users
 *   search (name key and email, substring, case-insensitive).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE users ADD COLUMN sort_name text;

    CREATE FUNCTION user_display_sort_name(p_first text, p_last text, p_full text, p_email text) RETURNS text
      LANGUAGE sql IMMUTABLE AS $$
        SELECT lower(coalesce(nullif(btrim(p_full), ''), nullif(btrim(coalesce(p_first, '') || ' ' || coalesce(p_last, '')), ''), p_email))
      $$;

    CREATE FUNCTION users_set_sort_name() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.sort_name := (SELECT user_display_sort_name(p.first_name, p.last_name, p.full_name, NEW.email::text)
                          FROM user_profiles p WHERE p.user_id = NEW.id);
      IF NEW.sort_name IS NULL THEN NEW.sort_name := lower(NEW.email::text); END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER users_sort_name BEFORE INSERT OR UPDATE OF email ON users
      FOR EACH ROW EXECUTE FUNCTION users_set_sort_name();

    CREATE FUNCTION user_profiles_sort_name() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE users u SET sort_name = user_display_sort_name(NEW.first_name, NEW.last_name, NEW.full_name, u.email::text)
       WHERE u.id = NEW.user_id
         AND u.sort_name IS DISTINCT FROM user_display_sort_name(NEW.first_name, NEW.last_name, NEW.full_name, u.email::text);
      RETURN NEW;
    END $$;
    CREATE TRIGGER user_profiles_sort_name AFTER INSERT OR UPDATE OF first_name, last_name, full_name ON user_profiles
      FOR EACH ROW EXECUTE FUNCTION user_profiles_sort_name();

    UPDATE users u SET sort_name = coalesce(
      (SELECT user_display_sort_name(p.first_name, p.last_name, p.full_name, u.email::text) FROM user_profiles p WHERE p.user_id = u.id),
      lower(u.email::text));
    ALTER TABLE users ALTER COLUMN sort_name SET NOT NULL;

    ALTER TABLE users ADD COLUMN has_grant boolean NOT NULL DEFAULT false;
    UPDATE users u SET has_grant = true WHERE EXISTS (SELECT 1 FROM role_grants g WHERE g.user_id = u.id);
    CREATE FUNCTION role_grants_has_grant() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        UPDATE users SET has_grant = true WHERE id = NEW.user_id AND NOT has_grant;
        RETURN NEW;
      END IF;
      UPDATE users u SET has_grant = false
       WHERE u.id = OLD.user_id AND u.has_grant
         AND NOT EXISTS (SELECT 1 FROM role_grants g WHERE g.user_id = OLD.user_id);
      RETURN OLD;
    END $$;
    CREATE TRIGGER role_grants_has_grant AFTER INSERT OR DELETE ON role_grants
      FOR EACH ROW EXECUTE FUNCTION role_grants_has_grant();
    CREATE INDEX users_granted_idx ON users (sort_name, id) WHERE has_grant;
    CREATE INDEX users_inactive_idx ON users (sort_name, id) WHERE NOT is_active;

    CREATE INDEX users_sort_name_idx ON users (sort_name, id);
    CREATE INDEX users_last_login_idx ON users (last_login_at DESC NULLS LAST, id);
    CREATE INDEX users_sort_name_trgm ON users USING gin (sort_name gin_trgm_ops);
    CREATE INDEX users_email_trgm ON users USING gin ((email::text) gin_trgm_ops);
    CREATE INDEX outlets_name_idx ON outlets (name, id);
    CREATE INDEX outlets_name_trgm ON outlets USING gin (name gin_trgm_ops);
    CREATE INDEX stores_name_idx ON stores (name, id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX IF EXISTS stores_name_idx;
    DROP INDEX IF EXISTS outlets_name_trgm;
    DROP INDEX IF EXISTS outlets_name_idx;
    DROP INDEX IF EXISTS users_email_trgm;
    DROP INDEX IF EXISTS users_sort_name_trgm;
    DROP INDEX IF EXISTS users_last_login_idx;
    DROP INDEX IF EXISTS users_sort_name_idx;
    DROP INDEX IF EXISTS users_granted_idx;
    DROP INDEX IF EXISTS users_inactive_idx;
    DROP TRIGGER IF EXISTS role_grants_has_grant ON role_grants;
    DROP FUNCTION IF EXISTS role_grants_has_grant();
    ALTER TABLE users DROP COLUMN IF EXISTS has_grant;
    DROP TRIGGER IF EXISTS user_profiles_sort_name ON user_profiles;
    DROP FUNCTION IF EXISTS user_profiles_sort_name();
    DROP TRIGGER IF EXISTS users_sort_name ON users;
    DROP FUNCTION IF EXISTS users_set_sort_name();
    DROP FUNCTION IF EXISTS user_display_sort_name(text, text, text, text);
    ALTER TABLE users DROP COLUMN IF EXISTS sort_name;
  `);
}
