import knex, { type Knex } from 'knex';
import type { ScopeType } from '@portal/contracts';
import { preparedRaw, type Db } from '../../db/knex';

/**
 * The SQL of scoped grants (ARCHITECTURE §11): the principal with the codes it holds, and what a grant
 * covers. Every data-scope rule of the API is built here and used through access.service.ts.
 *
 * What a grant `g` covers (its role's codes apply there):
 * - global: everything;
 * - board B: board B, its stores, the outlets of the board (`outlets.board_id`) or linked to its stores, the
 *   board's catalog (items);
 * - store S: store S, the outlets linked to S (their users, for user management), S's board's catalog;
 * - outlet O: outlet O.
 * The system administration outlets (`is_admin_outlet`) are covered only by a grant at the outlet itself or a
 * global one, never through a store or a board.
 */

type Conn = Db | Knex.Transaction;
export type Bindings = Knex.RawBinding[];

export interface Principal {
  userId: string;
  email: string;
  isActive: boolean;
  /** Every permission code the user holds anywhere (the union over their grants): the route gate and the SPA's menus. */
  permissions: Set<string>;
  /** The codes held through a global grant: they apply everywhere. */
  globalPermissions: Set<string>;
  /** The session family (`sid`) of the access token this principal was loaded for. */
  sessionId?: string;
  /**
   * Is that session live: some auth_sessions row of the family for this user, neither revoked nor
   * past its absolute lifetime? Always false when loaded without a session id.
   */
  sessionLive?: boolean;
  /** When a live session stops being live unless changed (its rows' latest `expires_at`, epoch ms); else undefined. */
  sessionExpiresAt?: number;
}

/**
 * A signed-in user acting through a service (one of the API's two actor types; the other is an API key,
 * `ApiKeyPrincipal` in api-keys.ts): who it is (id, email, for scope checks and the audit log), the codes
 * they hold anywhere and everywhere, and the request's address when an audited write needs it.
 */
export type Actor = Pick<Principal, 'userId' | 'email' | 'permissions' | 'globalPermissions'> & { ip?: string | null };

/** A place a permission is held at or checked against. `catalog` is a board's items (covered from its stores too). */
export type Scope =
  | { type: 'global' }
  | { type: 'board'; id: number }
  | { type: 'store'; id: number }
  | { type: 'outlet'; id: number }
  | { type: 'catalog'; id: number };

/**
 * The distinct roles a user holds (anywhere), as a recursive index skip over role_grants (user_id, role_id): a
 * handful of index probes however many places the roles are held at (a board's administrator may hold
 * thousands of grants). SQL text with the user id bound twice.
 */
const HELD_ROLES = `WITH RECURSIVE r(role_id) AS (
    (SELECT role_id FROM role_grants WHERE user_id = ? ORDER BY role_id LIMIT 1)
    UNION ALL
    SELECT (SELECT g.role_id FROM role_grants g WHERE g.user_id = ? AND g.role_id > r.role_id ORDER BY g.role_id LIMIT 1)
      FROM r WHERE r.role_id IS NOT NULL)
  SELECT role_id FROM r WHERE role_id IS NOT NULL`;

/** Loads a user with the codes of their grants (anywhere and global) in one query; undefined when absent. */
export async function findPrincipal(db: Db, userId: string, sessionId?: string): Promise<Principal | undefined> {
  // A prepared statement (every signed-in request without a cached principal runs it): planned once per connection.
  const { rows } = await preparedRaw<{
    rows: { id: string; email: string; is_active: boolean; codes: string[]; global_codes: string[]; session_ends: Date | null }[];
  }>(
    db,
    'principal',
    `SELECT u.id, u.email, u.is_active,
       coalesce((SELECT array_agg(DISTINCT p.code) FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id
          WHERE rp.role_id IN (${HELD_ROLES})), '{}') AS codes,
       coalesce((SELECT array_agg(DISTINCT p.code) FROM role_grants g
          JOIN role_permissions rp ON rp.role_id = g.role_id JOIN permissions p ON p.id = rp.permission_id
         WHERE g.user_id = u.id AND g.scope_type = 'global'), '{}') AS global_codes,
       (SELECT max(s.expires_at) FROM auth_sessions s WHERE s.family_id = ?::uuid AND s.user_id = u.id
          AND s.revoked_at IS NULL AND s.expires_at > now()) AS session_ends
       FROM users u WHERE u.id = ?::uuid LIMIT 1`,
    [userId, userId, sessionId ?? null, userId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    userId: row.id,
    email: row.email,
    isActive: row.is_active,
    permissions: new Set<string>(row.codes),
    globalPermissions: new Set<string>(row.global_codes),
    sessionId,
    sessionLive: row.session_ends !== null,
    sessionExpiresAt: row.session_ends?.getTime(),
  };
}

/** `g` holds one of the codes (bound as a text array). */
const HOLDS = `EXISTS (SELECT 1 FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id WHERE rp.role_id = g.role_id AND p.code = ANY(?::text[]))`;

/**
 * The condition "grant `g` covers this place" for a place given as a SQL expression (`?` with its binding, or
 * a column reference such as `uo.outlet_id`). Global grants are not included (callers add them).
 */
export function coversSql(type: Exclude<Scope['type'], 'global'>, id: string, bindings: Bindings): { sql: string; bindings: Bindings } {
  const n = (id.match(/\?/g) ?? []).length;
  const b = (k: number) => Array.from({ length: k }, () => bindings.slice(0, n)).flat();
  switch (type) {
    case 'board':
      return { sql: `(g.scope_type = 'board' AND g.board_id = ${id})`, bindings: b(1) };
    case 'store':
      return {
        sql: `((g.scope_type = 'store' AND g.store_id = ${id}) OR (g.scope_type = 'board' AND g.board_id = (SELECT cs.board_id FROM stores cs WHERE cs.id = ${id})))`,
        bindings: b(2),
      };
    case 'catalog':
      return {
        sql: `((g.scope_type = 'board' AND g.board_id = ${id}) OR (g.scope_type = 'store' AND EXISTS (SELECT 1 FROM stores cs WHERE cs.id = g.store_id AND cs.board_id = ${id})))`,
        bindings: b(2),
      };
    case 'outlet':
      return {
        sql: `((g.scope_type = 'outlet' AND g.outlet_id = ${id})
          OR (g.scope_type IN ('store', 'board') AND NOT EXISTS (SELECT 1 FROM outlets ao WHERE ao.id = ${id} AND ao.is_admin_outlet) AND (
               (g.scope_type = 'store' AND EXISTS (SELECT 1 FROM store_outlets cso WHERE cso.store_id = g.store_id AND cso.outlet_id = ${id}))
            OR (g.scope_type = 'board' AND (EXISTS (SELECT 1 FROM outlets co WHERE co.id = ${id} AND co.board_id = g.board_id)
                 OR EXISTS (SELECT 1 FROM store_outlets cso JOIN stores cs ON cs.id = cso.store_id WHERE cso.outlet_id = ${id} AND cs.board_id = g.board_id))))))`,
        bindings: b(5),
      };
  }
}

/** Does the user hold one of `codes` through a grant covering `scope` (global grants included)? One query. */
export async function holdsAt(db: Conn, userId: string, readonlyCodes: readonly string[], scope: Scope): Promise<boolean> {
  const codes = [...readonlyCodes];
  if (scope.type === 'global') {
    const r = await db.raw(
      `SELECT EXISTS (SELECT 1 FROM role_grants g WHERE g.user_id = ? AND g.scope_type = 'global' AND ${HOLDS}) AS ok`,
      [userId, codes],
    );
    return r.rows[0].ok;
  }
  const c = coversSql(scope.type, '?', [scope.id]);
  const r = await db.raw(
    `SELECT EXISTS (SELECT 1 FROM role_grants g WHERE g.user_id = ? AND ${HOLDS} AND (g.scope_type = 'global' OR ${c.sql})) AS ok`,
    [userId, codes, ...c.bindings],
  );
  return r.rows[0].ok;
}

/** The user's grants holding one of `codes` (alias `g`), for the reach subqueries. */
const held = (db: Conn, userId: string, codes: readonly string[], scopeType: ScopeType) =>
  db('role_grants as g')
    .where('g.user_id', userId)
    .andWhere('g.scope_type', scopeType)
    .whereRaw(HOLDS, [[...codes]]);

/**
 * A subquery (one column `id`) of the places of `kind` the user's grants holding `codes` cover, global grants
 * excepted (the caller skips the filter then): board ids, store ids, outlet ids, or the board ids whose
 * catalog is covered (`catalog`).
 */
export function reachQuery(db: Conn, userId: string, codes: readonly string[], kind: Exclude<Scope['type'], 'global'>): Knex.QueryBuilder {
  switch (kind) {
    case 'board':
      return held(db, userId, codes, 'board').select('g.board_id as id');
    case 'catalog':
      return held(db, userId, codes, 'board')
        .select('g.board_id as id')
        .union(held(db, userId, codes, 'store').join('stores as s', 's.id', 'g.store_id').select('s.board_id'));
    case 'store':
      return held(db, userId, codes, 'store')
        .select('g.store_id as id')
        .union(held(db, userId, codes, 'board').join('stores as s', 's.board_id', 'g.board_id').select('s.id'));
    case 'outlet': {
      const notAdmin = (col: string) => db.raw(`NOT EXISTS (SELECT 1 FROM outlets ao WHERE ao.id = ${col} AND ao.is_admin_outlet)`);
      return held(db, userId, codes, 'outlet')
        .select('g.outlet_id as id')
        .union(
          held(db, userId, codes, 'store')
            .join('store_outlets as so', 'so.store_id', 'g.store_id')
            .whereRaw(notAdmin('so.outlet_id'))
            .select('so.outlet_id'),
          held(db, userId, codes, 'board')
            .join('outlets as o', 'o.board_id', 'g.board_id')
            .where('o.is_admin_outlet', false)
            .select('o.id'),
          held(db, userId, codes, 'board')
            .join('stores as s', 's.board_id', 'g.board_id')
            .join('store_outlets as so', 'so.store_id', 's.id')
            .whereRaw(notAdmin('so.outlet_id'))
            .select('so.outlet_id'),
        );
    }
  }
}

/**
 * A subquery (column `user_id`) of the users holding a grant at a place the caller's grants holding `codes`
 * cover (the "users of those outlets / stores / boards" of ARCHITECTURE §11).
 */
export function usersReachQuery(db: Conn, userId: string, codes: readonly string[]): Knex.QueryBuilder {
  return db('role_grants as t')
    .where((w) =>
      w
        .where((x) => x.where('t.scope_type', 'outlet').whereIn('t.outlet_id', reachQuery(db, userId, codes, 'outlet')))
        .orWhere((x) => x.where('t.scope_type', 'store').whereIn('t.store_id', reachQuery(db, userId, codes, 'store')))
        .orWhere((x) => x.where('t.scope_type', 'board').whereIn('t.board_id', reachQuery(db, userId, codes, 'board'))),
    )
    .select('t.user_id');
}

/** Active users holding one of `codes` through a grant covering `scope` (global grants included), by email. */
export async function holdersAt(db: Conn, readonlyCodes: readonly string[], scope: Exclude<Scope, { type: 'global' }>) {
  const codes = [...readonlyCodes];
  const c = coversSql(scope.type, '?', [scope.id]);
  const r = await db.raw<{ rows: { id: string; email: string }[] }>(
    `SELECT DISTINCT u.id, u.email FROM users u JOIN role_grants g ON g.user_id = u.id
      WHERE u.is_active AND ${HOLDS} AND (g.scope_type = 'global' OR ${c.sql}) ORDER BY u.email`,
    [codes, ...c.bindings],
  );
  return r.rows;
}

/** The most privileged (lowest) role level of the user's grants, `null` without any; with `scope`, of those covering it. */
export async function bestLevel(db: Conn, userId: string, scope?: Scope): Promise<number | null> {
  if (!scope) {
    const r = await db('role_grants as g')
      .join('roles as r', 'r.id', 'g.role_id')
      .where('g.user_id', userId)
      .min<{ m: number | null }>({ m: 'r.role_level' })
      .first();
    return r?.m ?? null;
  }
  const c = scope.type === 'global' ? { sql: 'false', bindings: [] } : coversSql(scope.type, '?', [scope.id]);
  const r = await db.raw(
    `SELECT min(r.role_level) AS m FROM role_grants g JOIN roles r ON r.id = g.role_id
      WHERE g.user_id = ? AND (g.scope_type = 'global' OR ${c.sql})`,
    [userId, ...c.bindings],
  );
  return r.rows[0].m ?? null;
}

// ---- memberships: the outlets a person works at (holds a grant at), where they shop ----

/**
 * The (`store_id`, `outlet_id`) pairs of active stores linked to the active outlets the user is a member of:
 * where they may shop (spec 000 §3 accessible stores).
 */
export function shopReach(db: Conn, userId: string): Knex.QueryBuilder {
  return db('user_outlets as uo')
    .join('outlets as o', 'o.id', 'uo.outlet_id')
    .join('store_outlets as so', 'so.outlet_id', 'uo.outlet_id')
    .join('stores as s', 's.id', 'so.store_id')
    .where('uo.user_id', userId)
    .whereRaw('o.active AND s.active')
    .select('so.store_id', 'so.outlet_id');
}

/** Ids of the active outlets the user is a member of. */
export async function memberOutletIds(db: Conn, userId: string): Promise<number[]> {
  const rows = await db('user_outlets as uo')
    .join('outlets as o', 'o.id', 'uo.outlet_id')
    .where({ 'uo.user_id': userId, 'o.active': true })
    .select('o.id');
  return rows.map((r) => r.id);
}

/** Is the user a member of this active outlet? */
export async function isMember(db: Conn, userId: string, outletId: number): Promise<boolean> {
  const row = await db('user_outlets as uo')
    .join('outlets as o', 'o.id', 'uo.outlet_id')
    .where({ 'uo.user_id': userId, 'uo.outlet_id': outletId, 'o.active': true })
    .first('o.id');
  return Boolean(row);
}

/**
 * mayActAt as a raw SQL condition over SQL expressions (`c.outlet_id`, or `?` bound first), for statements that
 * check it with their own read (the cart routes). Bindings: `outlet`'s, `store`'s, then the user id and the codes.
 */
export function mayActAtSql(
  userId: string,
  readonlyCodes: readonly string[],
  outlet: { sql: string; bindings: Bindings },
  store?: { sql: string; bindings: Bindings },
): { sql: string; bindings: Bindings } {
  const c = coversSql('outlet', 'uo.outlet_id', []);
  const storeSql =
    store === undefined
      ? ''
      : `AND EXISTS (SELECT 1 FROM store_outlets so JOIN stores s ON s.id = so.store_id WHERE so.outlet_id = uo.outlet_id AND so.store_id = ${store.sql} AND s.active)`;
  return {
    sql: `EXISTS (SELECT 1 FROM user_outlets uo JOIN outlets o ON o.id = uo.outlet_id AND o.active
       WHERE uo.outlet_id = ${outlet.sql} ${storeSql} AND uo.user_id = ?
         AND EXISTS (SELECT 1 FROM role_grants g WHERE g.user_id = uo.user_id AND ${HOLDS} AND (g.scope_type = 'global' OR ${c.sql})))`,
    bindings: [...outlet.bindings, ...(store?.bindings ?? []), userId, [...readonlyCodes]],
  };
}

/**
 * Acting for an outlet (carts, checkout, reorder): the user is a member of the active outlet (linked to the
 * active store, when given) and holds one of `codes` through a grant covering the outlet. One query.
 */
export async function mayActAt(
  db: Conn,
  userId: string,
  readonlyCodes: readonly string[],
  outletId: number,
  storeId?: number,
): Promise<boolean> {
  const cond = mayActAtSql(
    userId,
    readonlyCodes,
    { sql: '?', bindings: [outletId] },
    storeId === undefined ? undefined : { sql: '?', bindings: [storeId] },
  );
  const r = await db.raw(`SELECT ${cond.sql} AS ok`, cond.bindings);
  return r.rows[0].ok;
}

/** Builds SQL text only (no connection), for conditions embedded in statements written by hand. */
const sqlText = knex({ client: 'pg' });

/**
 * "May browse store S's catalog" as a raw SQL condition (`EXISTS … OR EXISTS …`) with its bindings: the user is
 * a member of an active outlet linked to the active store, holding one of `shopCodes` or `viewCodes` there, or
 * holds one of `viewCodes` through a grant covering the store itself. For the catalog page, checked in its own query.
 */
export function browseStoreSql(
  userId: string,
  storeId: number,
  shopCodes: readonly string[],
  viewCodes: readonly string[],
): { sql: string; bindings: Bindings } {
  const shop = sqlText.from(shopReach(sqlText, userId).as('r')).where('r.store_id', storeId).select('r.outlet_id').toSQL();
  const outlet = coversSql('outlet', 'r2.outlet_id', []);
  const store = coversSql('store', '?', [storeId]);
  return {
    sql: `(EXISTS (SELECT 1 FROM (${shop.sql}) r2 WHERE EXISTS (SELECT 1 FROM role_grants g WHERE g.user_id = ? AND ${HOLDS} AND (g.scope_type = 'global' OR ${outlet.sql})))
       OR EXISTS (SELECT 1 FROM role_grants g WHERE g.user_id = ? AND ${HOLDS} AND (g.scope_type = 'global' OR ${store.sql})))`,
    bindings: [...(shop.bindings as Bindings), userId, [...shopCodes, ...viewCodes], userId, [...viewCodes], ...store.bindings],
  };
}

// ---- reach helpers of access.service ----

/** A subquery selecting no rows, with an `id` or `user_id` column (the reach of a code held nowhere). */
export function noRows(db: Conn, column: 'id' | 'user_id'): Knex.QueryBuilder {
  return db('role_grants')
    .whereRaw('false')
    .select(column === 'id' ? 'role_id as id' : 'user_id');
}

/** The ids a reach subquery (column `id`) selects. */
export async function idsOf(q: Knex.QueryBuilder): Promise<number[]> {
  const rows: { id: number }[] = await q;
  return rows.map((r) => r.id);
}

/** Does the user exist? */
export async function userExists(db: Conn, userId: string): Promise<boolean> {
  return Boolean(await db('users').where({ id: userId }).first('id'));
}

/** Does the users subquery (column `user_id`) select this user? */
export async function selectsUser(db: Conn, users: Knex.QueryBuilder, userId: string): Promise<boolean> {
  return Boolean(await db.from(users.as('r')).where('r.user_id', userId).first('r.user_id'));
}

/** Does the store exist? */
export async function storeExists(db: Conn, storeId: number): Promise<boolean> {
  return Boolean(await db('stores').where({ id: storeId }).first('id'));
}

/** May the user browse the store: evaluates `browseStoreSql`. */
export async function canBrowseStore(
  db: Conn,
  userId: string,
  storeId: number,
  shopCodes: readonly string[],
  viewCodes: readonly string[],
): Promise<boolean> {
  const b = browseStoreSql(userId, storeId, shopCodes, viewCodes);
  const r = await db.raw<{ rows: { ok: boolean }[] }>(`SELECT ${b.sql} AS ok`, b.bindings);
  return r.rows[0].ok;
}

/** Does the user shop at the store (an active store linked to an active outlet they are a member of; that outlet, when given)? */
export async function shopsAt(db: Conn, userId: string, storeId: number, outletId?: number): Promise<boolean> {
  const q = db.from(shopReach(db, userId).as('r')).where('r.store_id', storeId);
  if (outletId !== undefined) q.andWhere('r.outlet_id', outletId);
  return Boolean(await q.first(db.raw('1 AS reached')));
}
