import type { Knex } from 'knex';

/**
 * Issue 29 §3: every change a cached principal (modules/access/principal-cache.ts: active flag, email, the
 * permission codes of the user's grants, the session's liveness) depends on is announced on the channel
 * `principals_changed`, so each API process drops it at once, whatever process or statement made the change:
 * - role_grants added or removed: the user's id;
 * - users deactivated, reactivated, re-emailed or deleted: the user's id;
 * - auth_sessions revoked, re-timed or deleted while live: the user's id;
 * - role_permissions or permissions changed, or any of these tables truncated: `*` (everyone).
 * Statement-level triggers over transition tables: one notification per user (more than 100 users in one
 * statement: `*`), however many rows; a user's last_login_at or a session's rotation says nothing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION principals_notify(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE u uuid;
    BEGIN
      IF cardinality(ids) > 100 THEN
        PERFORM pg_notify('principals_changed', '*');
      ELSE
        FOREACH u IN ARRAY ids LOOP PERFORM pg_notify('principals_changed', u::text); END LOOP;
      END IF;
    END $$;

    CREATE FUNCTION principals_notify_all() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('principals_changed', '*');
      RETURN NULL;
    END $$;

    CREATE FUNCTION principals_notify_grants() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM principals_notify(ARRAY(SELECT DISTINCT user_id FROM changed));
      RETURN NULL;
    END $$;
    CREATE TRIGGER role_grants_principals_added AFTER INSERT ON role_grants
      REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION principals_notify_grants();
    CREATE TRIGGER role_grants_principals_removed AFTER DELETE ON role_grants
      REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION principals_notify_grants();
    CREATE TRIGGER role_grants_principals_truncated AFTER TRUNCATE ON role_grants
      FOR EACH STATEMENT EXECUTE FUNCTION principals_notify_all();

    CREATE FUNCTION principals_notify_users_updated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM principals_notify(ARRAY(SELECT DISTINCT o.id FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE (o.is_active, o.email) IS DISTINCT FROM (n.is_active, n.email)));
      RETURN NULL;
    END $$;
    CREATE FUNCTION principals_notify_users_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM principals_notify(ARRAY(SELECT DISTINCT id FROM changed));
      RETURN NULL;
    END $$;
    CREATE TRIGGER users_principals_updated AFTER UPDATE ON users
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION principals_notify_users_updated();
    CREATE TRIGGER users_principals_deleted AFTER DELETE ON users
      REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION principals_notify_users_deleted();
    CREATE TRIGGER users_principals_truncated AFTER TRUNCATE ON users
      FOR EACH STATEMENT EXECUTE FUNCTION principals_notify_all();

    CREATE FUNCTION principals_notify_sessions_updated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM principals_notify(ARRAY(SELECT o.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id
          WHERE (o.user_id, o.family_id, o.revoked_at, o.expires_at) IS DISTINCT FROM (n.user_id, n.family_id, n.revoked_at, n.expires_at)
        UNION SELECT n.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.user_id IS DISTINCT FROM n.user_id));
      RETURN NULL;
    END $$;
    CREATE FUNCTION principals_notify_sessions_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM principals_notify(ARRAY(SELECT DISTINCT user_id FROM changed WHERE revoked_at IS NULL AND expires_at > now()));
      RETURN NULL;
    END $$;
    CREATE TRIGGER auth_sessions_principals_updated AFTER UPDATE ON auth_sessions
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION principals_notify_sessions_updated();
    CREATE TRIGGER auth_sessions_principals_deleted AFTER DELETE ON auth_sessions
      REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION principals_notify_sessions_deleted();
    CREATE TRIGGER auth_sessions_principals_truncated AFTER TRUNCATE ON auth_sessions
      FOR EACH STATEMENT EXECUTE FUNCTION principals_notify_all();

    CREATE TRIGGER role_permissions_principals_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON role_permissions
      FOR EACH STATEMENT EXECUTE FUNCTION principals_notify_all();
    CREATE TRIGGER permissions_principals_changed AFTER UPDATE OR DELETE OR TRUNCATE ON permissions
      FOR EACH STATEMENT EXECUTE FUNCTION principals_notify_all();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS permissions_principals_changed ON permissions;
    DROP TRIGGER IF EXISTS role_permissions_principals_changed ON role_permissions;
    DROP TRIGGER IF EXISTS auth_sessions_principals_truncated ON auth_sessions;
    DROP TRIGGER IF EXISTS auth_sessions_principals_deleted ON auth_sessions;
    DROP TRIGGER IF EXISTS auth_sessions_principals_updated ON auth_sessions;
    DROP TRIGGER IF EXISTS users_principals_truncated ON users;
    DROP TRIGGER IF EXISTS users_principals_deleted ON users;
    DROP TRIGGER IF EXISTS users_principals_updated ON users;
    DROP TRIGGER IF EXISTS role_grants_principals_truncated ON role_grants;
    DROP TRIGGER IF EXISTS role_grants_principals_removed ON role_grants;
    DROP TRIGGER IF EXISTS role_grants_principals_added ON role_grants;
    DROP FUNCTION IF EXISTS principals_notify_sessions_deleted();
    DROP FUNCTION IF EXISTS principals_notify_sessions_updated();
    DROP FUNCTION IF EXISTS principals_notify_users_deleted();
    DROP FUNCTION IF EXISTS principals_notify_users_updated();
    DROP FUNCTION IF EXISTS principals_notify_grants();
    DROP FUNCTION IF EXISTS principals_notify_all();
    DROP FUNCTION IF EXISTS principals_notify(uuid[]);
  `);
}
