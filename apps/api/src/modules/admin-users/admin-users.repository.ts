import type { Knex } from 'knex';
import { PERMISSIONS } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { Principal } from '../access/access.service';
import { manageableOutletsQuery } from '../access/access.service';

/** Queries of user administration; the only place with its SQL. */

type Q = Db | Knex.Transaction;

export interface RoleRef {
  id: number;
  code: string;
  name: string | null;
  description: string | null;
  level: number;
}
export interface OutletRef {
  id: number;
  name: string;
  code: string;
}

/** `lower(coalesce(full name, first + last, email))`: the list's sort and search key. */
const DISPLAY_NAME = `coalesce(nullif(btrim(p.full_name), ''), nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), ''))`;
const SORT_KEY = `lower(coalesce(${DISPLAY_NAME}, u.email::text))`;

/** Escapes LIKE wildcards so a search is taken literally. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Users the caller may see in the users list: super administrators every user with a role or an outlet;
 * everyone else the users assigned to an outlet the caller may manage (access-scope.ts).
 */
export function scopedUsers(db: Q, actor: Pick<Principal, 'userId' | 'permissions'>, search?: string) {
  const scope = manageableOutletsQuery(db, actor);
  const q = db('users as u').leftJoin('user_profiles as p', 'p.user_id', 'u.id');
  if (!scope) {
    q.where((w) =>
      w.whereExists(db('user_roles as r').whereRaw('r.user_id = u.id')).orWhereExists(db('user_outlets as o').whereRaw('o.user_id = u.id')),
    );
  } else {
    q.whereExists(db('user_outlets as so').whereRaw('so.user_id = u.id').whereIn('so.outlet_id', scope));
  }
  if (search) {
    const pattern = `%${likeEscape(search)}%`;
    q.andWhere((w) => w.whereRaw(`u.email::text ILIKE ?`, [pattern]).orWhereRaw(`${DISPLAY_NAME} ILIKE ?`, [pattern]));
  }
  return q;
}

export interface UserListRow {
  id: string;
  email: string;
  isActive: boolean;
  fullName: string | null;
  sortKey: string;
}

/** One page of scoped users ordered by name (then id) after the keyset `after`. */
export async function listUsersPage(
  db: Q,
  actor: Pick<Principal, 'userId' | 'permissions'>,
  opts: { search?: string; after?: { key: string; id: string }; limit: number },
): Promise<UserListRow[]> {
  const q = scopedUsers(db, actor, opts.search)
    .select('u.id', 'u.email', 'u.is_active', db.raw(`${DISPLAY_NAME} AS full_name`), db.raw(`${SORT_KEY} AS sort_key`))
    .orderByRaw(`${SORT_KEY}, u.id`)
    .limit(opts.limit);
  if (opts.after) q.andWhereRaw(`(${SORT_KEY}, u.id) > (?, ?::uuid)`, [opts.after.key, opts.after.id]);
  const rows = await q;
  return rows.map((r) => ({ id: r.id, email: r.email, isActive: r.is_active, fullName: r.full_name, sortKey: r.sort_key }));
}

export async function countUsers(db: Q, actor: Pick<Principal, 'userId' | 'permissions'>, search?: string): Promise<number> {
  const row = await scopedUsers(db, actor, search).count<{ n: number }[]>({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** Roles of each user (by level, then code). */
export async function rolesOf(db: Q, userIds: string[]): Promise<Map<string, RoleRef[]>> {
  const out = new Map<string, RoleRef[]>(userIds.map((id) => [id, []]));
  if (!userIds.length) return out;
  const rows = await db('user_roles as ur')
    .join('roles as r', 'r.id', 'ur.role_id')
    .whereIn('ur.user_id', userIds)
    .orderBy([{ column: 'r.role_level' }, { column: 'r.code' }])
    .select('ur.user_id', 'r.id', 'r.code', 'r.role_name', 'r.description', 'r.role_level');
  for (const r of rows)
    out.get(r.user_id)?.push({ id: r.id, code: r.code, name: r.role_name, description: r.description, level: r.role_level });
  return out;
}

/** Outlets of each user (by name). */
export async function outletsOf(db: Q, userIds: string[]): Promise<Map<string, OutletRef[]>> {
  const out = new Map<string, OutletRef[]>(userIds.map((id) => [id, []]));
  if (!userIds.length) return out;
  const rows = await db('user_outlets as uo')
    .join('outlets as o', 'o.id', 'uo.outlet_id')
    .whereIn('uo.user_id', userIds)
    .orderBy([{ column: 'o.name' }, { column: 'o.id' }])
    .select('uo.user_id', 'o.id', 'o.name', 'o.outlet_code');
  for (const r of rows) out.get(r.user_id)?.push({ id: r.id, name: r.name, code: r.outlet_code });
  return out;
}

export interface UserRecord {
  id: string;
  email: string;
  isActive: boolean;
  lastLoginAt: Date | null;
  firstName: string | null;
  lastName: string | null;
  fullName: string | null;
  phone: string | null;
}

/** A user with profile fields; `forUpdate` locks the users row for the transaction (FOR NO KEY UPDATE: rows that reference it, such as the actor's audit entries, can still be written, so two admins editing each other cannot deadlock). */
export async function findUser(db: Q, userId: string, opts: { forUpdate?: boolean } = {}): Promise<UserRecord | undefined> {
  const q = db('users as u')
    .leftJoin('user_profiles as p', 'p.user_id', 'u.id')
    .where('u.id', userId)
    .first(
      'u.id',
      'u.email',
      'u.is_active',
      'u.last_login_at',
      'p.first_name',
      'p.last_name',
      'p.phone',
      db.raw(`${DISPLAY_NAME} AS full_name`),
    );
  if (opts.forUpdate) q.forNoKeyUpdate('u');
  const r = await q;
  if (!r) return undefined;
  return {
    id: r.id,
    email: r.email,
    isActive: r.is_active,
    lastLoginAt: r.last_login_at,
    firstName: r.first_name,
    lastName: r.last_name,
    fullName: r.full_name,
    phone: r.phone,
  };
}

/** Is the user assigned to an outlet the caller may manage (super administrators: any existing user)? */
export async function isInScope(db: Q, actor: Pick<Principal, 'userId' | 'permissions'>, userId: string): Promise<boolean> {
  const scope = manageableOutletsQuery(db, actor);
  if (!scope) return Boolean(await db('users').where({ id: userId }).first('id'));
  return Boolean(await db('user_outlets').where('user_id', userId).whereIn('outlet_id', scope).first('user_id'));
}

/** The most privileged (lowest) role level of a user; `null` without roles. */
export async function bestRoleLevel(db: Q, userId: string): Promise<number | null> {
  const r = await db('user_roles as ur')
    .join('roles as r', 'r.id', 'ur.role_id')
    .where('ur.user_id', userId)
    .min<{ m: number | null }>({ m: 'r.role_level' })
    .first();
  return r?.m ?? null;
}

/** Role codes of a user. */
export async function roleCodesOf(db: Q, userId: string): Promise<string[]> {
  return (
    await db('user_roles as ur')
      .join('roles as r', 'r.id', 'ur.role_id')
      .where('ur.user_id', userId)
      .orderBy('r.role_level')
      .select('r.code')
  ).map((r) => r.code);
}

/** Active users other than `exceptUserId` who hold bcc.users.super_admin through a role. */
export async function countOtherActiveSuperAdmins(db: Q, exceptUserId: string): Promise<number> {
  const q = db('users as u')
    .join('user_roles as ur', 'ur.user_id', 'u.id')
    .join('role_permissions as rp', 'rp.role_id', 'ur.role_id')
    .join('permissions as pm', 'pm.id', 'rp.permission_id')
    .where({ 'u.is_active': true, 'pm.code': PERMISSIONS.usersSuperAdmin })
    .andWhereNot('u.id', exceptUserId);
  const r = await q.countDistinct<{ n: number }[]>({ n: 'u.id' }).first();
  return Number(r?.n ?? 0);
}

/** Does the user hold bcc.users.super_admin (optionally not counting one of their roles)? */
export async function holdsSuperAdmin(db: Q, userId: string, opts: { withoutRoleId?: number } = {}): Promise<boolean> {
  const q = db('user_roles as ur')
    .join('role_permissions as rp', 'rp.role_id', 'ur.role_id')
    .join('permissions as pm', 'pm.id', 'rp.permission_id')
    .where({ 'ur.user_id': userId, 'pm.code': PERMISSIONS.usersSuperAdmin });
  if (opts.withoutRoleId !== undefined) q.andWhereNot('ur.role_id', opts.withoutRoleId);
  return Boolean(await q.first('ur.role_id'));
}

export async function rolesByIds(db: Q, ids: number[]): Promise<RoleRef[]> {
  if (!ids.length) return [];
  const rows = await db('roles').whereIn('id', ids).select('id', 'code', 'role_name', 'description', 'role_level');
  return rows.map((r) => ({ id: r.id, code: r.code, name: r.role_name, description: r.description, level: r.role_level }));
}

/** Every role with `role_level` strictly above `level` (less privileged), or every role when `level` is null. */
export async function rolesBelow(db: Q, level: number | null): Promise<RoleRef[]> {
  const q = db('roles')
    .orderBy([{ column: 'role_level' }, { column: 'code' }])
    .select('id', 'code', 'role_name', 'description', 'role_level');
  if (level !== null) q.where('role_level', '>', level);
  return (await q).map((r) => ({ id: r.id, code: r.code, name: r.role_name, description: r.description, level: r.role_level }));
}

/**
 * Outlets for user management (spec 002 §7 get_outlets_for_user_management): the outlets the caller may
 * manage plus the ones the user has now, by name, each with `canManage` and `assigned`.
 */
export async function outletsForUserManagement(db: Q, actor: Pick<Principal, 'userId' | 'permissions'>, userId: string) {
  const scope = manageableOutletsQuery(db, actor);
  const manageable = scope ? db.raw('o.id IN (?)', [scope]) : db.raw('true');
  const assigned = db('user_outlets as a').whereRaw('a.outlet_id = o.id').andWhere('a.user_id', userId).select(db.raw('1'));
  const q = db('outlets as o')
    .select('o.id', 'o.name', 'o.outlet_code', db.raw('(?) AS can_manage', [manageable]), db.raw('EXISTS (?) AS assigned', [assigned]))
    .orderBy([{ column: 'o.name' }, { column: 'o.id' }]);
  if (scope) q.where((w) => w.whereIn('o.id', scope).orWhereExists(assigned));
  const rows = await q;
  return rows.map((r) => ({
    outletId: r.id as number,
    outletName: r.name as string,
    outletCode: r.outlet_code as string,
    assigned: Boolean(r.assigned),
    canManage: Boolean(r.can_manage),
  }));
}

export async function existingOutletIds(db: Q, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  return new Set((await db('outlets').whereIn('id', ids).select('id')).map((r) => r.id));
}
