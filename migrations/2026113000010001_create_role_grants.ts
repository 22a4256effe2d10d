import type { Knex } from 'knex';

/**
 * Scoped grants (ARCHITECTURE §11, issue 22): a role is held *at* a place. `role_grants` (user × role ×
 * scope) replaces the global `user_roles`, and each role carries the `scope_type` it is granted at.
 *
 * The database enforces the model:
 * - `roles.scope_type` ∈ global | board | store | outlet, and only super_admin is global;
 * - a grant names exactly the place its scope type needs (board_id, store_id or outlet_id, none for global),
 *   that place exists (foreign keys, removed with it), and its scope type is its role's (a composite foreign
 *   key on roles (id, scope_type)); no grant twice; grants are never updated (a change is a delete and an insert);
 * - `user_outlets` (outlet memberships, which also remember a person's last store there) is kept in step with
 *   the grants: a grant at an outlet makes the person a member, removing their last grant there ends it, and
 *   a membership cannot be written without a grant at that outlet nor removed while one remains.
 *
 * The upgrade converts every `user_roles` row so that nobody gains or loses access (the reach of the old
 * model at upgrade time): outlet roles at each of the user's outlets; store roles at each store linked to the
 * user's outlets (inactive ones too: the store editor reached them; their orders count once they are active); board roles at the boards of the user's outlets and of the stores linked to
 * them; super_admin globally. A person who shopped at their outlets through a board, store or global role
 * keeps that membership with the most privileged outlet role whose every permission their old roles held
 * (Outlet Viewer for store managers and board administrators, Outlet Manager for super administrators);
 * memberships that gave nothing (no role could act there) are dropped. One audit entry per converted user
 * (`user.grants.migrated`) records the old roles and outlets and the new grants.
 *
 * Invitations gain `store_ids` and `board_ids` (store- and board-level roles are granted there).
 *
 * `down` restores `user_roles` as the set of roles each user holds anywhere (memberships stay).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE roles ADD COLUMN scope_type text NOT NULL DEFAULT 'outlet';
    UPDATE roles SET scope_type = CASE code
      WHEN 'super_admin' THEN 'global' WHEN 'board_admin' THEN 'board'
      WHEN 'store_manager' THEN 'store' WHEN 'store_staff' THEN 'store' ELSE 'outlet' END;
    ALTER TABLE roles ALTER COLUMN scope_type DROP DEFAULT,
      ADD CONSTRAINT roles_scope_type CHECK (scope_type IN ('global', 'board', 'store', 'outlet')),
      ADD CONSTRAINT roles_global_only_super_admin CHECK (scope_type <> 'global' OR code = 'super_admin'),
      ADD CONSTRAINT roles_id_scope_type UNIQUE (id, scope_type);

    CREATE TABLE role_grants (
      id bigserial PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      role_id integer NOT NULL,
      scope_type text NOT NULL,
      board_id integer REFERENCES boards(id) ON DELETE CASCADE,
      store_id integer REFERENCES stores(id) ON DELETE CASCADE,
      outlet_id integer REFERENCES outlets(id) ON DELETE CASCADE,
      scope_id integer GENERATED ALWAYS AS (coalesce(board_id, store_id, outlet_id)) STORED,
      granted_by uuid REFERENCES users(id) ON DELETE SET NULL,
      granted_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT role_grants_role_scope FOREIGN KEY (role_id, scope_type) REFERENCES roles(id, scope_type)
        ON DELETE CASCADE ON UPDATE CASCADE,
      CONSTRAINT role_grants_one_scope CHECK (
        (scope_type = 'global' AND board_id IS NULL AND store_id IS NULL AND outlet_id IS NULL) OR
        (scope_type = 'board' AND board_id IS NOT NULL AND store_id IS NULL AND outlet_id IS NULL) OR
        (scope_type = 'store' AND store_id IS NOT NULL AND board_id IS NULL AND outlet_id IS NULL) OR
        (scope_type = 'outlet' AND outlet_id IS NOT NULL AND board_id IS NULL AND store_id IS NULL))
    );
    CREATE UNIQUE INDEX role_grants_unique ON role_grants (user_id, role_id, scope_type, coalesce(scope_id, 0));
    CREATE INDEX role_grants_user_role ON role_grants (user_id, role_id);
    CREATE INDEX role_grants_outlet ON role_grants (outlet_id, user_id) WHERE outlet_id IS NOT NULL;
    CREATE INDEX role_grants_store ON role_grants (store_id, user_id) WHERE store_id IS NOT NULL;
    CREATE INDEX role_grants_board ON role_grants (board_id, user_id) WHERE board_id IS NOT NULL;
    CREATE INDEX role_grants_role ON role_grants (role_id);
    CREATE INDEX role_grants_global ON role_grants (user_id) WHERE scope_type = 'global';

    -- Invitations name where each role is held: outlet roles at outlet_ids, store roles at store_ids…
    ALTER TABLE invitations ADD COLUMN store_ids integer[] NOT NULL DEFAULT '{}',
      ADD COLUMN board_ids integer[] NOT NULL DEFAULT '{}';
  `);

  // The conversion: what each user reached through each old role, as grants.
  await knex.raw(`
    INSERT INTO role_grants (user_id, role_id, scope_type, granted_at)
    SELECT ur.user_id, ur.role_id, 'global', ur.created_at
      FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE r.scope_type = 'global';

    INSERT INTO role_grants (user_id, role_id, scope_type, outlet_id, granted_at)
    SELECT ur.user_id, ur.role_id, 'outlet', uo.outlet_id, ur.created_at
      FROM user_roles ur JOIN roles r ON r.id = ur.role_id JOIN user_outlets uo ON uo.user_id = ur.user_id
     WHERE r.scope_type = 'outlet';

    INSERT INTO role_grants (user_id, role_id, scope_type, store_id, granted_at)
    SELECT DISTINCT ur.user_id, ur.role_id, 'store', so.store_id, ur.created_at
      FROM user_roles ur JOIN roles r ON r.id = ur.role_id
      JOIN user_outlets uo ON uo.user_id = ur.user_id
      JOIN store_outlets so ON so.outlet_id = uo.outlet_id
     WHERE r.scope_type = 'store';

    INSERT INTO role_grants (user_id, role_id, scope_type, board_id, granted_at)
    SELECT DISTINCT ur.user_id, ur.role_id, 'board', b.board_id, ur.created_at
      FROM user_roles ur JOIN roles r ON r.id = ur.role_id
      JOIN (SELECT uo.user_id, o.board_id FROM user_outlets uo JOIN outlets o ON o.id = uo.outlet_id WHERE o.board_id IS NOT NULL
            UNION
            SELECT uo.user_id, s.board_id FROM user_outlets uo JOIN store_outlets so ON so.outlet_id = uo.outlet_id
              JOIN stores s ON s.id = so.store_id) b ON b.user_id = ur.user_id
     WHERE r.scope_type = 'board';

    WITH held AS (
      SELECT ur.user_id, array_agg(DISTINCT p.code) AS codes
        FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id JOIN permissions p ON p.id = rp.permission_id
       GROUP BY ur.user_id
    ), outlet_roles AS (
      SELECT r.id, r.role_level, array_agg(p.code) AS codes
        FROM roles r JOIN role_permissions rp ON rp.role_id = r.id JOIN permissions p ON p.id = rp.permission_id
       WHERE r.scope_type = 'outlet' GROUP BY r.id
    ), pick AS (
      SELECT h.user_id, (SELECT o.id FROM outlet_roles o WHERE o.codes <@ h.codes ORDER BY o.role_level, o.id LIMIT 1) AS role_id
        FROM held h
    )
    INSERT INTO role_grants (user_id, role_id, scope_type, outlet_id)
    SELECT uo.user_id, pick.role_id, 'outlet', uo.outlet_id
      FROM user_outlets uo JOIN pick ON pick.user_id = uo.user_id
     WHERE pick.role_id IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM role_grants g WHERE g.user_id = uo.user_id AND g.outlet_id = uo.outlet_id);

    INSERT INTO audit_log (action, actor_email, entity_type, entity_id, details)
    SELECT 'user.grants.migrated', 'system', 'user', u.id::text, jsonb_build_object(
             'email', u.email,
             'roles', coalesce((SELECT jsonb_agg(r.code ORDER BY r.role_level, r.code) FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id), '[]'),
             'outlets', coalesce((SELECT jsonb_agg(uo.outlet_id ORDER BY uo.outlet_id) FROM user_outlets uo WHERE uo.user_id = u.id), '[]'),
             'grants', coalesce((SELECT jsonb_agg(jsonb_build_object('role', r.code, 'scopeType', g.scope_type, 'scopeId', g.scope_id) ORDER BY r.role_level, g.scope_type, g.scope_id)
                                   FROM role_grants g JOIN roles r ON r.id = g.role_id WHERE g.user_id = u.id), '[]'),
             'membershipsDropped', coalesce((SELECT jsonb_agg(uo.outlet_id ORDER BY uo.outlet_id) FROM user_outlets uo WHERE uo.user_id = u.id
                                   AND NOT EXISTS (SELECT 1 FROM role_grants g WHERE g.user_id = uo.user_id AND g.outlet_id = uo.outlet_id)), '[]'))
      FROM users u
     WHERE EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id) OR EXISTS (SELECT 1 FROM user_outlets uo WHERE uo.user_id = u.id);

    DELETE FROM user_outlets uo
     WHERE NOT EXISTS (SELECT 1 FROM role_grants g WHERE g.user_id = uo.user_id AND g.outlet_id = uo.outlet_id);
    DROP TABLE user_roles;
  `);

  await knex.raw(`
    CREATE FUNCTION role_grants_keep_memberships() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        IF NEW.outlet_id IS NOT NULL THEN
          INSERT INTO user_outlets (user_id, outlet_id) VALUES (NEW.user_id, NEW.outlet_id) ON CONFLICT DO NOTHING;
        END IF;
      ELSIF OLD.outlet_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM role_grants g WHERE g.user_id = OLD.user_id AND g.outlet_id = OLD.outlet_id) THEN
        DELETE FROM user_outlets WHERE user_id = OLD.user_id AND outlet_id = OLD.outlet_id;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER role_grants_memberships AFTER INSERT OR DELETE ON role_grants
      FOR EACH ROW EXECUTE FUNCTION role_grants_keep_memberships();

    CREATE FUNCTION role_grants_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'role_grants rows are not updated: delete the grant and insert the new one'
        USING ERRCODE = 'check_violation', CONSTRAINT = 'role_grants_immutable';
    END $$;
    CREATE TRIGGER role_grants_immutable BEFORE UPDATE ON role_grants
      FOR EACH ROW EXECUTE FUNCTION role_grants_refuse_update();

    -- A membership exists exactly while the person holds a grant at the outlet. The delete guard lets
    -- cascades through (the user or the outlet is already gone then).
    CREATE FUNCTION user_outlets_follow_grants() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        IF NOT EXISTS (SELECT 1 FROM role_grants g WHERE g.user_id = NEW.user_id AND g.outlet_id = NEW.outlet_id) THEN
          RAISE EXCEPTION 'an outlet membership needs a grant at the outlet (role_grants)'
            USING ERRCODE = 'check_violation', CONSTRAINT = 'user_outlets_need_grant';
        END IF;
        RETURN NEW;
      END IF;
      IF EXISTS (SELECT 1 FROM role_grants g JOIN users u ON u.id = g.user_id JOIN outlets o ON o.id = g.outlet_id
                  WHERE g.user_id = OLD.user_id AND g.outlet_id = OLD.outlet_id) THEN
        RAISE EXCEPTION 'an outlet membership ends with the last grant at the outlet (delete the grants)'
          USING ERRCODE = 'check_violation', CONSTRAINT = 'user_outlets_need_grant';
      END IF;
      RETURN OLD;
    END $$;
    CREATE TRIGGER user_outlets_follow_grants BEFORE INSERT OR DELETE ON user_outlets
      FOR EACH ROW EXECUTE FUNCTION user_outlets_follow_grants();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS user_outlets_follow_grants ON user_outlets;
    DROP FUNCTION IF EXISTS user_outlets_follow_grants();
    CREATE TABLE user_roles (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      role_id integer NOT NULL REFERENCES roles(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, role_id)
    );
    INSERT INTO user_roles (user_id, role_id, created_at)
    SELECT user_id, role_id, min(granted_at) FROM role_grants GROUP BY user_id, role_id;
    DROP TABLE role_grants;
    DROP FUNCTION IF EXISTS role_grants_keep_memberships();
    DROP FUNCTION IF EXISTS role_grants_refuse_update();
    ALTER TABLE invitations DROP COLUMN store_ids, DROP COLUMN board_ids;
    ALTER TABLE roles DROP CONSTRAINT roles_id_scope_type, DROP CONSTRAINT roles_global_only_super_admin,
      DROP CONSTRAINT roles_scope_type, DROP COLUMN scope_type;
  `);
}
