import knex, { type Knex } from 'knex';
import type { Db } from '../../db/knex';

export interface Principal {
  userId: string;
  email: string;
  isActive: boolean;
  permissions: Set<string>;
  /** The session family (`sid`) of the access token this principal was loaded for. */
  sessionId?: string;
  /**
   * Is that session live: some auth_sessions row of the family for this user, neither revoked nor
   * past its absolute lifetime? Always false when loaded without a session id.
   */
  sessionLive?: boolean;
}

/**
 * Loads a user with the union of their roles' permission codes in one query; undefined when absent.
 * With `sessionId` the same query also says whether that session family is still live.
 */
export async function findPrincipal(db: Db, userId: string, sessionId?: string): Promise<Principal | undefined> {
  const row = await db('users as u')
    .leftJoin('user_roles as ur', 'ur.user_id', 'u.id')
    .leftJoin('role_permissions as rp', 'rp.role_id', 'ur.role_id')
    .leftJoin('permissions as p', 'p.id', 'rp.permission_id')
    .where('u.id', userId)
    .groupBy('u.id')
    .first(
      'u.id',
      'u.email',
      'u.is_active',
      db.raw(`coalesce(array_agg(DISTINCT p.code) FILTER (WHERE p.code IS NOT NULL), '{}') AS codes`),
      sessionId
        ? db.raw(
            `EXISTS (SELECT 1 FROM auth_sessions s WHERE s.family_id = ? AND s.user_id = u.id AND s.revoked_at IS NULL AND s.expires_at > now()) AS session_live`,
            [sessionId],
          )
        : db.raw('false AS session_live'),
    );
  if (!row) return undefined;
  return {
    userId: row.id,
    email: row.email,
    isActive: row.is_active,
    permissions: new Set<string>(row.codes),
    sessionId,
    sessionLive: row.session_live,
  };
}

/** Ids of the active outlets assigned to the user (user_outlets), ARCHITECTURE §4 data scope. */
export async function accessibleOutletIds(db: Db, userId: string): Promise<number[]> {
  const rows = await db('user_outlets as uo')
    .join('outlets as o', 'o.id', 'uo.outlet_id')
    .where({ 'uo.user_id': userId, 'o.active': true })
    .select('o.id');
  return rows.map((r) => r.id);
}

/** Does the user reach this outlet (assigned and active)? */
export async function canReachOutlet(db: Db, userId: string, outletId: number): Promise<boolean> {
  const row = await db('user_outlets as uo')
    .join('outlets as o', 'o.id', 'uo.outlet_id')
    .where({ 'uo.user_id': userId, 'uo.outlet_id': outletId, 'o.active': true })
    .first('o.id');
  return Boolean(row);
}

/**
 * The one "which stores does the user reach" rule (ARCHITECTURE §4 data scope): a subquery of the
 * (`store_id`, `outlet_id`) pairs of active stores linked (store_outlets) to the active outlets the user is
 * assigned to (user_outlets). Every reach check below reads it.
 */
export function storeReach(db: Db | Knex, userId: string): Knex.QueryBuilder {
  return db('user_outlets as uo')
    .join('outlets as o', 'o.id', 'uo.outlet_id')
    .join('store_outlets as so', 'so.outlet_id', 'uo.outlet_id')
    .join('stores as s', 's.id', 'so.store_id')
    .where('uo.user_id', userId)
    .whereRaw('o.active AND s.active')
    .select('so.store_id', 'so.outlet_id');
}

/** Does the user reach this store (storeReach)? With `outletId`, the link must be through that outlet. */
export async function canReachStore(db: Db, userId: string, storeId: number, outletId?: number): Promise<boolean> {
  const q = db.from(storeReach(db, userId).as('r')).where('r.store_id', storeId);
  if (outletId !== undefined) q.andWhere('r.outlet_id', outletId);
  return Boolean(await q.first(db.raw('1 AS reached')));
}

/** Builds SQL text only (no connection): storeReach as raw SQL for statements written by hand. */
const sqlText = knex({ client: 'pg' });

/**
 * canReachStore (without an outlet) as a raw SQL condition, for statements that check reach in the same
 * round trip (the catalog page): `EXISTS (…)` and its bindings, from the one storeReach subquery.
 */
export function storeReachExistsSql(userId: string, storeId: number): { sql: string; bindings: (string | number)[] } {
  const { sql, bindings } = sqlText.from(storeReach(sqlText, userId).as('r')).where('r.store_id', storeId).select(sqlText.raw('1')).toSQL();
  return { sql: `EXISTS (${sql})`, bindings: bindings as (string | number)[] };
}

/** Ids of the active stores the user reaches (storeReach): store managers' order scope. */
export async function reachableStoreIds(db: Db, userId: string): Promise<number[]> {
  const rows = await db.from(storeReach(db, userId).as('r')).distinct('r.store_id as id');
  return rows.map((r: { id: number }) => r.id);
}
