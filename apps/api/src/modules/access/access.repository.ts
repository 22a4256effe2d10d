import type { Db } from '../../db/knex';

export interface Principal {
  userId: string;
  email: string;
  isActive: boolean;
  permissions: Set<string>;
}

/** Loads a user with the union of their roles' permission codes in one query; undefined when absent. */
export async function findPrincipal(db: Db, userId: string): Promise<Principal | undefined> {
  const row = await db('users as u')
    .leftJoin('user_roles as ur', 'ur.user_id', 'u.id')
    .leftJoin('role_permissions as rp', 'rp.role_id', 'ur.role_id')
    .leftJoin('permissions as p', 'p.id', 'rp.permission_id')
    .where('u.id', userId)
    .groupBy('u.id')
    .first('u.id', 'u.email', 'u.is_active', db.raw(`coalesce(array_agg(DISTINCT p.code) FILTER (WHERE p.code IS NOT NULL), '{}') AS codes`));
  if (!row) return undefined;
  return { userId: row.id, email: row.email, isActive: row.is_active, permissions: new Set<string>(row.codes) };
}

/** Ids of the active outlets assigned to the user (user_outlets), ARCHITECTURE §4 data scope. */
export async function accessibleOutletIds(db: Db, userId: string): Promise<number[]> {
  const rows = await db('user_outlets as uo').join('outlets as o', 'o.id', 'uo.outlet_id').where({ 'uo.user_id': userId, 'o.active': true }).select('o.id');
  return rows.map((r) => r.id);
}

/** Does the user reach this outlet (assigned and active)? */
export async function canReachOutlet(db: Db, userId: string, outletId: number): Promise<boolean> {
  const row = await db('user_outlets as uo').join('outlets as o', 'o.id', 'uo.outlet_id')
    .where({ 'uo.user_id': userId, 'uo.outlet_id': outletId, 'o.active': true }).first('o.id');
  return Boolean(row);
}

/**
 * Does the user reach this store: an active store linked (store_outlets) to an active outlet the user is
 * assigned to? With `outletId`, the link must be through that outlet.
 */
export async function canReachStore(db: Db, userId: string, storeId: number, outletId?: number): Promise<boolean> {
  const q = db('user_outlets as uo')
    .join('outlets as o', 'o.id', 'uo.outlet_id')
    .join('store_outlets as so', 'so.outlet_id', 'uo.outlet_id')
    .join('stores as s', 's.id', 'so.store_id')
    .where({ 'uo.user_id': userId, 'so.store_id': storeId, 'o.active': true, 's.active': true });
  if (outletId !== undefined) q.andWhere('uo.outlet_id', outletId);
  return Boolean(await q.first('s.id'));
}

/**
 * The canReachStore rule (without an outlet) as a raw SQL condition, for queries that check reach in the
 * same statement (the catalog search): `EXISTS (…)` with bindings [userId, storeId].
 */
export function storeReachExistsSql(userId: string, storeId: number): { sql: string; bindings: [string, number] } {
  return {
    sql: `EXISTS (SELECT 1 FROM user_outlets uo
      JOIN outlets o ON o.id = uo.outlet_id
      JOIN store_outlets so ON so.outlet_id = uo.outlet_id
      JOIN stores s ON s.id = so.store_id
      WHERE uo.user_id = ? AND so.store_id = ? AND o.active AND s.active)`,
    bindings: [userId, storeId],
  };
}

/** Ids of the active stores the user reaches through their outlets (store managers' order scope). */
export async function reachableStoreIds(db: Db, userId: string): Promise<number[]> {
  const rows = await db('user_outlets as uo')
    .join('outlets as o', 'o.id', 'uo.outlet_id')
    .join('store_outlets as so', 'so.outlet_id', 'uo.outlet_id')
    .join('stores as s', 's.id', 'so.store_id')
    .where({ 'uo.user_id': userId, 'o.active': true, 's.active': true })
    .distinct('s.id');
  return rows.map((r) => r.id);
}
