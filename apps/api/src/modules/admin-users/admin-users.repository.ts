import type { Knex } from 'knex';
import type { ScopeType } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { BoardRow, StoreRow } from '../../db/tables/admin';
import type { Actor } from '../access/access.service';
import { reach } from '../access/access.service';
import { USER_MANAGEMENT_CODES } from '../access/grants.service';

/** Queries of user administration; the only place with its SQL. Scope comes from modules/access (ARCHITECTURE §11). */

type Q = Db | Knex.Transaction;

export interface RoleRef {
  id: number;
  code: string;
  name: string | null;
  description: string | null;
  level: number;
  scopeType: ScopeType;
}
export interface RoleSummary extends RoleRef {
  /** Places the role is held at (0 for a global grant). */
  scopeCount: number;
  /** The place when held at one, "All" when global, else null. */
  scopeName: string | null;
}
export interface OutletRef {
  id: number;
  name: string;
  code: string;
}

/** The display name: full name, else first + last (null when neither). */
const DISPLAY_NAME = `coalesce(nullif(btrim(p.full_name), ''), nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), ''))`;

/** The roles of each user, each once, with where it is held (by level, then code): the users list's role column. */
export async function roleSummariesOf(db: Q, userIds: string[]): Promise<Map<string, RoleSummary[]>> {
  const out = new Map<string, RoleSummary[]>(userIds.map((id) => [id, []]));
  if (!userIds.length) return out;
  const rows = await db('role_grants as g')
    .join('roles as r', 'r.id', 'g.role_id')
    .leftJoin('boards as b', 'b.id', 'g.board_id')
    .leftJoin('stores as s', 's.id', 'g.store_id')
    .leftJoin('outlets as o', 'o.id', 'g.outlet_id')
    .whereIn('g.user_id', userIds)
    .groupBy('g.user_id', 'r.id')
    .orderBy([{ column: 'r.role_level' }, { column: 'r.code' }])
    .select(
      'g.user_id',
      'r.id',
      'r.code',
      'r.role_name',
      'r.description',
      'r.role_level',
      'r.scope_type',
      db.raw('count(g.scope_id)::int AS scope_count'),
      db.raw(`CASE WHEN r.scope_type = 'global' THEN 'All' WHEN count(*) = 1 THEN min(coalesce(b.name, s.name, o.name)) END AS scope_name`),
    );
  for (const r of rows)
    out.get(r.user_id)?.push({
      id: r.id,
      code: r.code,
      name: r.role_name,
      description: r.description,
      level: r.role_level,
      scopeType: r.scope_type,
      scopeCount: r.scope_count,
      scopeName: r.scope_name,
    });
  return out;
}

/** The best (lowest) role level of each user, over all their grants. */
export async function bestLevelsOf(db: Q, userIds: string[]): Promise<Map<string, number>> {
  if (!userIds.length) return new Map();
  const rows = await db('role_grants as g')
    .join('roles as r', 'r.id', 'g.role_id')
    .whereIn('g.user_id', userIds)
    .groupBy('g.user_id')
    .select<{ user_id: string; level: number }[]>('g.user_id', db.raw('min(r.role_level)::int AS level'));
  return new Map(rows.map((r) => [r.user_id, r.level]));
}

/** The scope types of the user's grants that hold one of `codes`. */
export async function scopeTypesHolding(db: Q, userId: string, codes: readonly string[]): Promise<ScopeType[]> {
  const rows = await db('role_grants as g')
    .join('role_permissions as rp', 'rp.role_id', 'g.role_id')
    .join('permissions as p', 'p.id', 'rp.permission_id')
    .where('g.user_id', userId)
    .whereIn('p.code', codes)
    .distinct('g.scope_type');
  return rows.map((r) => r.scope_type);
}

/** Outlets each user belongs to (by name). */
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

/** Role codes of a user (each once, most privileged first). */
export async function roleCodesOf(db: Q, userId: string): Promise<string[]> {
  const rows = await db('role_grants as g')
    .join('roles as r', 'r.id', 'g.role_id')
    .where('g.user_id', userId)
    .groupBy('r.code', 'r.role_level')
    .orderBy('r.role_level')
    .select('r.code');
  return rows.map((r) => r.code);
}

/** Active users other than `exceptUserId` who hold bcc.users.super_admin through a global grant. */
export async function countOtherActiveSuperAdmins(db: Q, exceptUserId: string, superAdminCode: string): Promise<number> {
  const r = await db('users as u')
    .join('role_grants as g', 'g.user_id', 'u.id')
    .join('role_permissions as rp', 'rp.role_id', 'g.role_id')
    .join('permissions as pm', 'pm.id', 'rp.permission_id')
    .where({ 'u.is_active': true, 'pm.code': superAdminCode, 'g.scope_type': 'global' })
    .andWhereNot('u.id', exceptUserId)
    .countDistinct<{ n: number }[]>({ n: 'u.id' })
    .first();
  return Number(r?.n ?? 0);
}

/** Does the user hold bcc.users.super_admin through a global grant (optionally not counting grants of one role)? */
export async function holdsSuperAdmin(
  db: Q,
  userId: string,
  superAdminCode: string,
  opts: { withoutRoleId?: number } = {},
): Promise<boolean> {
  const q = db('role_grants as g')
    .join('role_permissions as rp', 'rp.role_id', 'g.role_id')
    .join('permissions as pm', 'pm.id', 'rp.permission_id')
    .where({ 'g.user_id': userId, 'pm.code': superAdminCode, 'g.scope_type': 'global' });
  if (opts.withoutRoleId !== undefined) q.andWhereNot('g.role_id', opts.withoutRoleId);
  return Boolean(await q.first('g.role_id'));
}

/**
 * Outlets for user management (spec 002 §7 get_outlets_for_user_management): the outlets where the caller holds a
 * user-management code plus the ones the user belongs to, by name, each with `canManage` and `assigned`.
 */
export async function outletsForUserManagement(
  db: Q,
  actor: Actor,
  userId: string,
  opts: { search?: string; assignedOnly?: boolean; limit?: number } = {},
) {
  const scope = reach(db, actor, USER_MANAGEMENT_CODES, 'outlet');
  const manageable = scope ? db.raw('o.id IN (?)', [scope]) : db.raw('true');
  const assigned = db('user_outlets as a').whereRaw('a.outlet_id = o.id').andWhere('a.user_id', userId).select(db.raw('1'));
  const q = db('outlets as o')
    .select<{ id: number; name: string; outlet_code: string; can_manage: boolean; assigned: boolean }[]>(
      'o.id',
      'o.name',
      'o.outlet_code',
      db.raw('(?) AS can_manage', [manageable]),
      db.raw('EXISTS (?) AS assigned', [assigned]),
    )
    .orderBy([{ column: 'o.name' }, { column: 'o.id' }]);
  if (scope) q.where((w) => w.whereIn('o.id', scope).orWhereExists(assigned));
  if (opts.assignedOnly) q.whereExists(assigned);
  if (opts.search) {
    const like = `%${opts.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q.where((w) => w.whereILike('o.name', like).orWhereILike('o.outlet_code', like));
  }
  const total =
    opts.limit === undefined ? undefined : Number((await q.clone().clearSelect().clearOrder().count<{ n: string }[]>('* as n'))[0].n);
  if (opts.limit !== undefined) q.limit(opts.limit);
  const rows = await q;
  return {
    total: total ?? rows.length,
    items: rows.map((r) => ({
      outletId: r.id,
      outletName: r.name,
      outletCode: r.outlet_code,
      assigned: Boolean(r.assigned),
      canManage: Boolean(r.can_manage),
    })),
  };
}

/** Active stores where the caller holds a user-management code (a global grant: all), by name. */
export async function storesWhereManaging(db: Q, actor: Actor) {
  const q = db('stores as s')
    .where('s.active', true)
    .orderBy([{ column: 's.name' }, { column: 's.id' }])
    .select<Pick<StoreRow, 'id' | 'name' | 'warehouse_code'>[]>('s.id', 's.name', 's.warehouse_code');
  const scope = reach(db, actor, USER_MANAGEMENT_CODES, 'store');
  if (scope) q.whereIn('s.id', scope);
  return (await q).map((r) => ({ id: r.id, name: r.name, warehouseCode: r.warehouse_code }));
}

/** Boards where the caller holds a user-management code (a global grant: all), by board number. */
export async function boardsWhereManaging(db: Q, actor: Actor) {
  const q = db('boards as b')
    .orderBy('b.board_number')
    .select<Pick<BoardRow, 'id' | 'name' | 'board_number'>[]>('b.id', 'b.name', 'b.board_number');
  const scope = reach(db, actor, USER_MANAGEMENT_CODES, 'board');
  if (scope) q.whereIn('b.id', scope);
  return (await q).map((r) => ({ id: r.id, name: r.name, boardNumber: r.board_number }));
}

/** Outlets by id (those that exist). */
export async function existingOutletIds(db: Q, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  return new Set((await db('outlets').whereIn('id', ids).select('id')).map((r) => r.id));
}

/** Clears a user's saved outlet (and store) when it is one of `outletIds` (after their membership there ended). */
export async function clearSelectionAt(db: Q, userId: string, outletIds: number[]): Promise<void> {
  if (!outletIds.length) return;
  await db('user_profiles')
    .where('user_id', userId)
    .whereIn('last_selected_outlet_id', outletIds)
    .whereNotExists(
      db('user_outlets as uo').whereRaw('uo.user_id = user_profiles.user_id AND uo.outlet_id = user_profiles.last_selected_outlet_id'),
    )
    .update({ last_selected_outlet_id: null, last_selected_store_id: null });
}

/** Orders of a deleted user stay as the store's records, with the customer snapshot replaced (ARCHITECTURE §9). */
export async function anonymiseOrders(db: Q, userId: string): Promise<number> {
  return db('orders')
    .where({ user_id: userId })
    .update({ user_id: null, customer_name: 'Deleted user', customer_email: '', customer_phone: null });
}

/** Open (unused) invitations to an email, deleted with the account. */
export async function deleteOpenInvitations(db: Q, email: string): Promise<number> {
  return db('invitations').where({ email }).whereNull('used_at').delete();
}

/** Deletes the account (profile, sessions, carts, grants and memberships go with it). */
export async function deleteUserRow(db: Q, userId: string): Promise<void> {
  await db('users').where({ id: userId }).delete();
}

/** Writes the profile fields (insert or update). */
export async function upsertProfile(db: Q, userId: string, p: { firstName: string; lastName: string | null; phone: string | null }) {
  const fullName = [p.firstName, p.lastName].filter(Boolean).join(' ');
  await db('user_profiles')
    .insert({ user_id: userId, first_name: p.firstName, last_name: p.lastName, phone: p.phone, full_name: fullName })
    .onConflict('user_id')
    .merge({ first_name: p.firstName, last_name: p.lastName, phone: p.phone, full_name: fullName, updated_at: db.fn.now() });
}

/** Sets the active flag. */
export async function setActive(db: Q, userId: string, isActive: boolean): Promise<void> {
  await db('users').where({ id: userId }).update({ is_active: isActive, updated_at: db.fn.now() });
}

/** Serialises the "last super administrator" check (a transaction-scoped advisory lock). */
export async function lockSuperAdminCheck(db: Q): Promise<void> {
  await db.raw("SELECT pg_advisory_xact_lock(hashtext('portal.last_super_admin'))");
}
