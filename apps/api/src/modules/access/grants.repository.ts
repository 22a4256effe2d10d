import type { Knex } from 'knex';
import type { ScopeType } from '@portal/contracts';
import type { Db } from '../../db/knex';

/**
 * The SQL of grants themselves (ARCHITECTURE §11): who holds which role where (with names), adding and removing
 * grants, the roles that may be granted, and the codes a person holds by place. Used through access.service.ts
 * and grants.service.ts; what a grant covers is built in access.repository.ts.
 */

type Conn = Db | Knex.Transaction;

export interface GrantRow {
  id: number;
  userId: string;
  roleId: number;
  code: string;
  name: string | null;
  description: string | null;
  level: number;
  scopeType: ScopeType;
  scopeId: number | null;
  scopeName: string;
}

/** The grants of these users with role and place names, by user, then role level, scope type and name. */
export async function grantsOf(db: Conn, userIds: string[]): Promise<GrantRow[]> {
  if (!userIds.length) return [];
  const rows = await db('role_grants as g')
    .join('roles as r', 'r.id', 'g.role_id')
    .leftJoin('boards as b', 'b.id', 'g.board_id')
    .leftJoin('stores as s', 's.id', 'g.store_id')
    .leftJoin('outlets as o', 'o.id', 'g.outlet_id')
    .whereIn('g.user_id', userIds)
    .orderBy([{ column: 'g.user_id' }, { column: 'r.role_level' }, { column: 'r.code' }, { column: 'g.scope_type' }])
    .orderByRaw(`coalesce(b.name, s.name, o.name), g.scope_id`)
    .select(
      'g.id',
      'g.user_id',
      'g.role_id',
      'r.code',
      'r.role_name',
      'r.description',
      'r.role_level',
      'g.scope_type',
      'g.scope_id',
      db.raw(`coalesce(b.name, s.name, o.name, 'All') AS scope_name`),
    );
  return rows.map((r) => ({
    id: Number(r.id),
    userId: r.user_id,
    roleId: r.role_id,
    code: r.code,
    name: r.role_name,
    description: r.description,
    level: r.role_level,
    scopeType: r.scope_type,
    scopeId: r.scope_id,
    scopeName: r.scope_name,
  }));
}

export interface GrantKey {
  roleId: number;
  scopeType: ScopeType;
  scopeId: number | null;
}

const SCOPE_COLUMN: Record<Exclude<ScopeType, 'global'>, string> = { board: 'board_id', store: 'store_id', outlet: 'outlet_id' };

/** Inserts grants (existing ones are kept); answers the ones actually added. */
export async function insertGrants(db: Conn, userId: string, grants: GrantKey[], grantedBy: string | null): Promise<GrantKey[]> {
  if (!grants.length) return [];
  const rows = await db('role_grants')
    .insert(
      grants.map((g) => ({
        user_id: userId,
        role_id: g.roleId,
        scope_type: g.scopeType,
        ...(g.scopeType === 'global' ? {} : { [SCOPE_COLUMN[g.scopeType]]: g.scopeId }),
        granted_by: grantedBy,
      })),
    )
    .onConflict()
    .ignore()
    .returning(['role_id', 'scope_type', 'scope_id']);
  return rows.map((r) => ({ roleId: r.role_id, scopeType: r.scope_type, scopeId: r.scope_id }));
}

/** Deletes grants; answers the ones that existed. */
export async function deleteGrants(db: Conn, userId: string, grants: GrantKey[]): Promise<GrantKey[]> {
  if (!grants.length) return [];
  const rows = await db('role_grants')
    .where('user_id', userId)
    .andWhere((w) => {
      for (const g of grants)
        w.orWhere((x) => {
          x.where({ role_id: g.roleId, scope_type: g.scopeType });
          if (g.scopeId === null) x.whereNull('scope_id');
          else x.where('scope_id', g.scopeId);
        });
    })
    .delete()
    .returning(['role_id', 'scope_type', 'scope_id']);
  return rows.map((r) => ({ roleId: r.role_id, scopeType: r.scope_type, scopeId: r.scope_id }));
}

/** Which of these places exist: `{ board: Set, store: Set, outlet: Set }` of ids. */
export async function existingPlaces(db: Conn, keys: { scopeType: ScopeType; scopeId: number | null }[]) {
  const ids = (t: string) => [...new Set(keys.flatMap((k) => (k.scopeType === t && k.scopeId !== null ? [k.scopeId] : [])))];
  const [boards, stores, outlets] = await Promise.all([
    ids('board').length ? db('boards').whereIn('id', ids('board')).pluck('id') : [],
    ids('store').length ? db('stores').whereIn('id', ids('store')).pluck('id') : [],
    ids('outlet').length ? db('outlets').whereIn('id', ids('outlet')).pluck('id') : [],
  ]);
  return { board: new Set<number>(boards), store: new Set<number>(stores), outlet: new Set<number>(outlets) };
}

/** Roles by id with level and scope type. */
export async function rolesByIds(db: Conn, ids: number[]) {
  if (!ids.length) return [];
  const rows = await db('roles').whereIn('id', ids).select('id', 'code', 'role_name', 'description', 'role_level', 'scope_type');
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    name: r.role_name ?? null,
    description: r.description ?? null,
    level: r.role_level,
    scopeType: r.scope_type,
  }));
}

/** Every role (by level, then code), optionally only those strictly less privileged than `belowLevel`. */
export async function listRoles(db: Conn, belowLevel?: number | null) {
  const q = db('roles')
    .orderBy([{ column: 'role_level' }, { column: 'code' }])
    .select('id', 'code', 'role_name', 'description', 'role_level', 'scope_type');
  if (belowLevel !== undefined && belowLevel !== null) q.where('role_level', '>', belowLevel);
  return (await q).map((r) => ({
    id: r.id,
    code: r.code,
    name: r.role_name ?? null,
    description: r.description ?? null,
    level: r.role_level,
    scopeType: r.scope_type,
  }));
}

/**
 * The codes a user holds, grouped where they are held (GET /me/permissions), in one query: global, per board,
 * per store and per outlet named by a grant.
 */
export async function codesByPlace(db: Conn, userId: string) {
  // A few rows however many grants: each held role with its codes and, per scope type, the ids it is held at
  // (thousands of grants as one integer array each, not one row of text arrays per place).
  const rows = await db.raw<{ rows: { scope_type: ScopeType; scope_ids: (number | null)[]; codes: string[] | null }[] }>(
    `SELECT g.role_id, g.scope_type, array_agg(g.scope_id ORDER BY g.scope_id) AS scope_ids,
            (SELECT array_agg(p.code ORDER BY p.code) FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id
              WHERE rp.role_id = g.role_id) AS codes
       FROM role_grants g WHERE g.user_id = ? GROUP BY g.role_id, g.scope_type`,
    [userId],
  );
  const byPlace = new Map<string, { scope_type: ScopeType; scope_id: number | null; codes: Set<string> }>();
  for (const r of rows.rows) {
    for (const id of r.scope_ids) {
      const key = `${r.scope_type}:${id}`;
      let place = byPlace.get(key);
      if (!place) byPlace.set(key, (place = { scope_type: r.scope_type, scope_id: id, codes: new Set() }));
      for (const c of r.codes ?? []) place.codes.add(c);
    }
  }
  return [...byPlace.values()]
    .map((p) => ({ scope_type: p.scope_type, scope_id: p.scope_id, codes: [...p.codes].sort() }))
    .sort((a, b) => (a.scope_type === b.scope_type ? (a.scope_id ?? 0) - (b.scope_id ?? 0) : a.scope_type < b.scope_type ? -1 : 1));
}

/** The places a user's grants name, as (scope type, id) pairs. */
export async function placesOf(db: Conn, userId: string): Promise<{ scopeType: ScopeType; scopeId: number | null }[]> {
  const rows = await db('role_grants').where('user_id', userId).distinct('scope_type', 'scope_id');
  return rows.map((r) => ({ scopeType: r.scope_type, scopeId: r.scope_id }));
}
