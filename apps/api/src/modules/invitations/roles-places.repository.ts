import type { Knex } from 'knex';
import type { ScopeType } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { BoardRow as BoardTable, OutletRow as OutletTable, RoleRow as RoleTable, StoreRow as StoreTable } from '../../db/tables/admin';

type Q = Db | Knex.Transaction;

/**
 * The roles and places an invitation names or offers (ARCHITECTURE §9, §11): roles and places by id (labels, mail,
 * acceptance), the membership role, and the active outlets, active stores and boards a caller may invite to.
 */

/** Roles by id: id, code, display name (name, else code), level, the scope type they are granted at. */
export async function rolesByIds(
  db: Q,
  ids: number[],
): Promise<{ id: number; code: string; name: string; level: number; scopeType: ScopeType }[]> {
  if (!ids.length) return [];
  const rows = await db('roles').whereIn('id', ids).select('id', 'code', 'role_name', 'role_level', 'scope_type');
  return rows.map((r) => ({ id: r.id, code: r.code, name: r.role_name || r.code, level: r.role_level, scopeType: r.scope_type }));
}

/**
 * The outlet role a holder of `roleId` becomes a member of an outlet with: the most privileged outlet-level role
 * whose every permission `roleId` holds (Outlet Manager for a super administrator, Outlet Viewer for a store
 * manager or board administrator); undefined when none.
 */
export async function membershipRoleFor(db: Q, roleId: number) {
  const r = await db.raw<{ rows: Pick<RoleTable, 'id' | 'code' | 'role_name' | 'role_level' | 'scope_type'>[] }>(
    `SELECT o.id, o.code, o.role_name, o.role_level, o.scope_type FROM roles o
      WHERE o.scope_type = 'outlet' AND o.id <> ?
        AND EXISTS (SELECT 1 FROM role_permissions rp WHERE rp.role_id = o.id)
        AND NOT EXISTS (SELECT 1 FROM role_permissions rp WHERE rp.role_id = o.id
                          AND rp.permission_id NOT IN (SELECT permission_id FROM role_permissions WHERE role_id = ?))
      ORDER BY o.role_level, o.id LIMIT 1`,
    [roleId, roleId],
  );
  const row = r.rows[0];
  return row
    ? { id: row.id, code: row.code, name: row.role_name || row.code, level: row.role_level, scopeType: row.scope_type }
    : undefined;
}

/** Stores by id with their active flag and display name. */
export async function storesByIds(db: Q, ids: number[]): Promise<{ id: number; name: string; active: boolean }[]> {
  if (!ids.length) return [];
  return (await db('stores').whereIn('id', ids).select('id', 'name', 'active')).map((r) => ({ id: r.id, name: r.name, active: r.active }));
}

/** Boards by id with their name. */
export async function boardsByIds(db: Q, ids: number[]): Promise<{ id: number; name: string }[]> {
  if (!ids.length) return [];
  return (await db('boards').whereIn('id', ids).select('id', 'name')).map((r) => ({ id: r.id, name: r.name }));
}

/** Outlets by id with their active flag and display name. */
export async function outletsByIds(
  db: Q,
  ids: number[],
): Promise<{ id: number; code: string; name: string; active: boolean; isAdminOutlet: boolean }[]> {
  if (!ids.length) return [];
  const rows = await db('outlets').whereIn('id', ids).select('id', 'outlet_code', 'name', 'active', 'is_admin_outlet');
  return rows.map((r) => ({ id: r.id, code: r.outlet_code, name: r.name, active: r.active, isAdminOutlet: r.is_admin_outlet }));
}

/** Every role with its level and whether it holds `adminOutletPermission` (ordered by level, then code). */
export async function listRoles(db: Q, adminOutletPermission: string) {
  const rows = await db('roles as r')
    .orderBy([{ column: 'r.role_level' }, { column: 'r.code' }])
    .select<
      (Pick<RoleTable, 'id' | 'code' | 'role_name' | 'description' | 'role_level' | 'scope_type'> & { grants_admin_outlet: boolean })[]
    >(
      'r.id',
      'r.code',
      'r.role_name',
      'r.description',
      'r.role_level',
      'r.scope_type',
      db.raw(
        `EXISTS (SELECT 1 FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id WHERE rp.role_id = r.id AND p.code = ?) AS grants_admin_outlet`,
        [adminOutletPermission],
      ),
    );
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    name: r.role_name || r.code,
    description: r.description,
    level: r.role_level,
    grantsAdminOutlet: Boolean(r.grants_admin_outlet),
    scopeType: r.scope_type,
  }));
}

/** Active outlets, optionally restricted to the ids a subquery selects, with board name; ordered by name. */
export async function listActiveOutlets(db: Q, within: Knex.QueryBuilder | null) {
  const q = db('outlets as o')
    .leftJoin('boards as b', 'b.id', 'o.board_id')
    .where('o.active', true)
    .orderBy([{ column: 'o.is_admin_outlet', order: 'desc' }, { column: 'o.name' }, { column: 'o.id' }])
    .select<(Pick<OutletTable, 'id' | 'outlet_code' | 'name' | 'is_admin_outlet' | 'city'> & { board_name: string | null })[]>(
      'o.id',
      'o.outlet_code',
      'o.name',
      'o.is_admin_outlet',
      'o.city',
      'b.name as board_name',
    );
  if (within) q.whereIn('o.id', within);
  const rows = await q;
  return rows.map((r) => ({
    id: r.id,
    code: r.outlet_code,
    name: r.name,
    isAdminOutlet: r.is_admin_outlet,
    boardName: r.board_name ?? null,
    city: r.city ?? null,
  }));
}

/** Active stores, optionally restricted to the ids a subquery selects, with board name; ordered by name. */
export async function listActiveStores(db: Q, within: Knex.QueryBuilder | null) {
  const q = db('stores as s')
    .join('boards as b', 'b.id', 's.board_id')
    .where('s.active', true)
    .orderBy([{ column: 's.name' }, { column: 's.id' }])
    .select<(Pick<StoreTable, 'id' | 'warehouse_code' | 'name' | 'city'> & { board_name: string | null })[]>(
      's.id',
      's.warehouse_code',
      's.name',
      's.city',
      'b.name as board_name',
    );
  if (within) q.whereIn('s.id', within);
  return (await q).map((r) => ({
    id: r.id,
    warehouseCode: r.warehouse_code,
    name: r.name,
    city: r.city ?? null,
    boardName: r.board_name ?? null,
  }));
}

/** Boards, optionally restricted to the ids a subquery selects; ordered by board number. */
export async function listBoards(db: Q, within: Knex.QueryBuilder | null) {
  const q = db('boards as b')
    .orderBy('b.board_number')
    .select<Pick<BoardTable, 'id' | 'board_number' | 'name'>[]>('b.id', 'b.board_number', 'b.name');
  if (within) q.whereIn('b.id', within);
  return (await q).map((r) => ({ id: r.id, boardNumber: r.board_number, name: r.name }));
}

/** Roles by code (bulk invitations name roles by code): code → id. */
export async function roleIdsByCodes(db: Q, codes: string[]): Promise<Map<string, number>> {
  if (!codes.length) return new Map();
  const rows = await db('roles').whereIn('code', codes).select<Pick<RoleTable, 'id' | 'code'>[]>('id', 'code');
  return new Map(rows.map((r) => [r.code, r.id]));
}

/** Active outlets by code (bulk invitations name outlets by code): code → id. */
export async function activeOutletIdsByCodes(db: Q, codes: string[]): Promise<Map<string, number>> {
  if (!codes.length) return new Map();
  const rows = await db('outlets')
    .whereIn('outlet_code', codes)
    .where('active', true)
    .select<Pick<OutletTable, 'id' | 'outlet_code'>[]>('id', 'outlet_code');
  return new Map(rows.map((r) => [r.outlet_code, r.id]));
}

/** Active stores by store number (the id, the warehouse system's number): the numbers that exist. */
export async function activeStoreNumbers(db: Q, numbers: number[]): Promise<Set<number>> {
  if (!numbers.length) return new Set();
  const rows = await db('stores').whereIn('id', numbers).where('active', true).select<Pick<StoreTable, 'id'>[]>('id');
  return new Set(rows.map((r) => r.id));
}
