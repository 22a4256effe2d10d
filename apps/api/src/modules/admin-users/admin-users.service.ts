import {
  PROBLEM_CODES,
  ADMIN_USER_MESSAGES as M,
  PERMISSIONS,
  type AdminUserDetail,
  type AdminUsersList,
  type AdminUserRolesBody,
} from '@portal/contracts';
import type { Db } from '../../db/knex';
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError, BadRequestError } from '../../http/errors';
import type { Principal } from '../access/access.service';
import { canManageOutlet, outletScopeKind, type OutletScopeKind } from '../access/access.service';
import { recordAudit } from '../audit/audit.service';
import { revokeAllSessions } from '../auth/auth.service';
import * as repo from './admin-users.repository';

/**
 * User administration (spec 002 §2 Users and Edit User, §4–§8; ARCHITECTURE §5, §9).
 *
 * Scope: a user is reachable when assigned to an outlet the caller may manage (access-scope.ts); super
 * administrators reach every user. An unreachable user answers 404 (`not_found`).
 * Editing (spec 002 §6): super administrators may edit anyone, themselves included; nobody else may edit
 * themselves (403 `self_edit_forbidden`) or a user whose best role is as privileged as their own or more
 * (403 `user_not_editable`). Roles granted or removed must be strictly less privileged than the caller's
 * best role (ARCHITECTURE §9; 403 `role_not_assignable`), except for super administrators.
 * Every write records one audit row in its transaction; a refused write changes nothing.
 */

/** The parsed PATCH …/profile body (adminUserProfileBodySchema's output). */
export interface ProfileInput {
  firstName: string;
  lastName: string | null;
  phone: string | null;
  isActive: boolean;
}

/** Request facts a write records in the audit log. */
export interface WriteMeta {
  ip?: string | null;
}

/** The role-level ceiling when the caller has no role (spec 002 §9: default 999). */
const LEVEL_CEILING = 999;

const isSuper = (actor: Principal) => actor.permissions.has(PERMISSIONS.usersSuperAdmin);

/** The caller's best (lowest) role level, 999 without roles. */
async function actorLevel(db: Db, actor: Principal): Promise<number> {
  return (await repo.bestRoleLevel(db, actor.userId)) ?? LEVEL_CEILING;
}

/** Edit rule of spec 002 §6 for a reachable target whose best level is `targetLevel`. */
function editableBy(actor: Principal, level: number, targetId: string, targetLevel: number | null): boolean {
  if (isSuper(actor)) return true;
  if (targetId === actor.userId) return false;
  return targetLevel === null || targetLevel > level;
}

const SCOPE_TEXT: Record<OutletScopeKind, string> = {
  all: 'All users with a role or an outlet (super administrator)',
  board: 'Users of the outlets of your board',
  store: 'Users of the outlets linked to your stores',
  outlet: 'Users of your outlets',
  none: 'No users: you have no user management scope',
};

const encodeCursor = (key: string, id: string) => Buffer.from(JSON.stringify([key, id])).toString('base64url');
function decodeCursor(cursor: string): { key: string; id: string } {
  try {
    const [key, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof key === 'string' && typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id)) return { key, id };
  } catch {
    /* fall through */
  }
  throw new BadRequestError('The cursor is not valid.', [{ path: 'cursor', message: 'The cursor is not valid.' }]);
}

/** GET /admin/users: the caller's scoped users, 50 a page by name, with canEdit and the spec's metadata. */
export async function listUsers(
  db: Db,
  actor: Principal,
  query: { search?: string; cursor?: string; limit: number },
): Promise<AdminUsersList> {
  const search = query.search || undefined;
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const [rows, userCount, level, currentUserRoles] = await Promise.all([
    repo.listUsersPage(db, actor, { search, after, limit: query.limit + 1 }),
    repo.countUsers(db, actor, search),
    actorLevel(db, actor),
    repo.roleCodesOf(db, actor.userId),
  ]);
  const page = rows.slice(0, query.limit);
  const ids = page.map((r) => r.id);
  const [roles, outlets] = await Promise.all([repo.rolesOf(db, ids), repo.outletsOf(db, ids)]);
  const items = page.map((r) => {
    const rs = roles.get(r.id) ?? [];
    const best = rs.length ? Math.min(...rs.map((x) => x.level)) : null;
    return {
      id: r.id,
      fullName: r.fullName,
      email: r.email,
      isActive: r.isActive,
      outlets: outlets.get(r.id) ?? [],
      roles: rs,
      canEdit: editableBy(actor, level, r.id, best),
    };
  });
  const last = page[page.length - 1];
  const kind = outletScopeKind(actor);
  return {
    items,
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.sortKey, last.id) : null,
    meta: { scopeDescription: SCOPE_TEXT[kind], filterType: kind, currentUserRoles, userCount },
  };
}

/** The target user when the caller reaches them (themselves always), else 404. */
async function reachable(db: Db, actor: Principal, userId: string, opts: { forUpdate?: boolean } = {}) {
  const user = await repo.findUser(db, userId, opts);
  if (!user || (userId !== actor.userId && !(await repo.isInScope(db, actor, userId)))) throw new NotFoundError('User not found');
  return user;
}

/** Loads the target for a change and applies the edit rule (404, then 403 self / not editable). */
async function editable(db: Db, actor: Principal, userId: string) {
  const user = await reachable(db, actor, userId, { forUpdate: true });
  if (!isSuper(actor) && userId === actor.userId) throw new ForbiddenError(M.selfEdit, PROBLEM_CODES.selfEditForbidden);
  const level = await actorLevel(db, actor);
  if (!editableBy(actor, level, userId, await repo.bestRoleLevel(db, userId)))
    throw new ForbiddenError(M.notEditable, PROBLEM_CODES.userNotEditable);
  return { user, level };
}

/** GET /admin/users/{userId}: profile, roles, outlets, canEdit and canDelete. */
export async function getUser(db: Db, actor: Principal, userId: string): Promise<AdminUserDetail> {
  const user = await reachable(db, actor, userId);
  const [roles, outlets, level] = await Promise.all([repo.rolesOf(db, [userId]), repo.outletsOf(db, [userId]), actorLevel(db, actor)]);
  const rs = roles.get(userId) ?? [];
  const best = rs.length ? Math.min(...rs.map((r) => r.level)) : null;
  return {
    id: user.id,
    email: user.email,
    fullName: user.fullName,
    profile: {
      firstName: user.firstName,
      lastName: user.lastName,
      phone: user.phone,
      isActive: user.isActive,
      lastLogin: user.lastLoginAt ? user.lastLoginAt.toISOString() : null,
    },
    roles: rs,
    outlets: outlets.get(userId) ?? [],
    canEdit: editableBy(actor, level, userId, best),
    canDelete: isSuper(actor) && userId !== actor.userId,
  };
}

/** Refuses to leave the portal without an active super administrator (ARCHITECTURE §9). */
async function keepOneSuperAdmin(db: Db, userId: string, opts: { withoutRoleId?: number } = {}) {
  // One such check at a time (transaction-scoped lock): two admins demoting each other at once cannot both pass.
  await db.raw("SELECT pg_advisory_xact_lock(hashtext('portal.last_super_admin'))");
  const holds = await repo.holdsSuperAdmin(db, userId);
  if (!holds) return;
  if (opts.withoutRoleId !== undefined && (await repo.holdsSuperAdmin(db, userId, opts))) return;
  if ((await repo.countOtherActiveSuperAdmins(db, userId)) === 0) throw new ConflictError(M.lastSuperAdmin, PROBLEM_CODES.lastSuperAdmin);
}

/**
 * PATCH /admin/users/{userId}/profile: names, phone and the active flag (email is not editable).
 * Deactivating revokes every session of the user at once (their next refresh answers 401) and their access
 * tokens stop working on the next request. Nobody deactivates themselves or the last active super administrator (409).
 */
export async function updateProfile(
  db: Db,
  actor: Principal,
  userId: string,
  body: ProfileInput,
  meta: WriteMeta,
): Promise<AdminUserDetail> {
  await db.transaction(async (trx) => {
    const { user } = await editable(trx, actor, userId);
    const deactivating = user.isActive && !body.isActive;
    if (deactivating && userId === actor.userId) throw new ConflictError(M.selfDeactivate, PROBLEM_CODES.selfDeactivate);
    if (deactivating) await keepOneSuperAdmin(trx, userId);
    const fullName = [body.firstName, body.lastName].filter(Boolean).join(' ');
    await trx('user_profiles')
      .insert({ user_id: userId, first_name: body.firstName, last_name: body.lastName, phone: body.phone, full_name: fullName })
      .onConflict('user_id')
      .merge({ first_name: body.firstName, last_name: body.lastName, phone: body.phone, full_name: fullName, updated_at: trx.fn.now() });
    if (user.isActive !== body.isActive)
      await trx('users').where({ id: userId }).update({ is_active: body.isActive, updated_at: trx.fn.now() });
    const sessionsRevoked = deactivating ? await revokeAllSessions(trx, userId, 'user_deactivated') : 0;
    const changed: Record<string, { from: unknown; to: unknown }> = {};
    const pairs: [string, unknown, unknown][] = [
      ['firstName', user.firstName, body.firstName],
      ['lastName', user.lastName, body.lastName],
      ['phone', user.phone, body.phone],
      ['isActive', user.isActive, body.isActive],
    ];
    for (const [k, from, to] of pairs) if ((from ?? null) !== (to ?? null)) changed[k] = { from: from ?? null, to: to ?? null };
    const action = deactivating ? 'user.deactivated' : !user.isActive && body.isActive ? 'user.reactivated' : 'user.profile.updated';
    await recordAudit(
      trx,
      { userId: actor.userId, email: actor.email },
      {
        action,
        entityType: 'user',
        entityId: userId,
        ip: meta.ip,
        details: { email: user.email, changed, ...(deactivating ? { sessionsRevoked } : {}) },
      },
    );
  });
  return getUser(db, actor, userId);
}

/**
 * PUT /admin/users/{userId}/outlets { add, remove }: only the difference. Every outlet named must be one the
 * caller may manage (403 `outlet_not_manageable`, 'You do not have permission to modify this outlet assignment.').
 */
export async function updateOutlets(
  db: Db,
  actor: Principal,
  userId: string,
  body: { add: number[]; remove: number[] },
  meta: WriteMeta,
): Promise<AdminUserDetail> {
  await db.transaction(async (trx) => {
    const { user } = await editable(trx, actor, userId);
    const named = [...new Set([...body.add, ...body.remove])];
    for (const id of named) {
      if (!(await canManageOutlet(trx, actor, id))) throw new ForbiddenError(M.outletNotManageable, PROBLEM_CODES.outletNotManageable);
    }
    const exists = await repo.existingOutletIds(trx, named);
    const unknown = named.filter((id) => !exists.has(id));
    if (unknown.length) throw new NotFoundError(`Outlet not found: ${unknown.join(', ')}`);
    const added = body.add.length
      ? (
          await trx('user_outlets')
            .insert(body.add.map((outletId) => ({ user_id: userId, outlet_id: outletId })))
            .onConflict(['user_id', 'outlet_id'])
            .ignore()
            .returning('outlet_id')
        ).map((r) => r.outlet_id)
      : [];
    const removed = body.remove.length
      ? (await trx('user_outlets').where('user_id', userId).whereIn('outlet_id', body.remove).delete().returning('outlet_id')).map(
          (r) => r.outlet_id,
        )
      : [];
    if (removed.length) {
      await trx('user_profiles')
        .where('user_id', userId)
        .whereIn('last_selected_outlet_id', removed)
        .update({ last_selected_outlet_id: null, last_selected_store_id: null });
    }
    if (added.length || removed.length)
      await recordAudit(
        trx,
        { userId: actor.userId, email: actor.email },
        {
          action: 'user.outlets.updated',
          entityType: 'user',
          entityId: userId,
          ip: meta.ip,
          details: { email: user.email, added, removed },
        },
      );
  });
  return getUser(db, actor, userId);
}

/** GET /admin/users/{userId}/manageable-outlets (spec 002 §7 get_outlets_for_user_management). */
export async function manageableOutlets(db: Db, actor: Principal, userId: string) {
  await reachable(db, actor, userId);
  return { items: await repo.outletsForUserManagement(db, actor, userId) };
}

/**
 * GET /admin/users/{userId}/assignable-roles: roles strictly less privileged than the caller's best role
 * (role_level greater; ceiling 999 without roles); every role for super administrators. Includes roles the
 * user already has (the screen hides those).
 */
export async function assignableRoles(db: Db, actor: Principal, userId: string) {
  await reachable(db, actor, userId);
  return { items: await repo.rolesBelow(db, isSuper(actor) ? null : await actorLevel(db, actor)) };
}

/**
 * POST /admin/users/{userId}/roles { roleId } or { roleIds }: grants roles. Unknown ids are ignored; when none
 * is left → 422 'Invalid role selection: no valid role IDs found'. A role as privileged as the caller's → 403.
 */
export async function addRoles(
  db: Db,
  actor: Principal,
  userId: string,
  body: AdminUserRolesBody,
  meta: WriteMeta,
): Promise<AdminUserDetail> {
  const ids = [...new Set([...(body.roleId !== undefined ? [body.roleId] : []), ...(body.roleIds ?? [])])];
  await db.transaction(async (trx) => {
    const { user, level } = await editable(trx, actor, userId);
    const roles = await repo.rolesByIds(trx, ids);
    if (!roles.length) throw new UnprocessableError(M.invalidRoleSelection, PROBLEM_CODES.invalidRoleSelection);
    if (!isSuper(actor) && roles.some((r) => r.level <= level))
      throw new ForbiddenError(M.roleNotAssignable, PROBLEM_CODES.roleNotAssignable);
    const added = (
      await trx('user_roles')
        .insert(roles.map((r) => ({ user_id: userId, role_id: r.id })))
        .onConflict(['user_id', 'role_id'])
        .ignore()
        .returning('role_id')
    ).map((r) => r.role_id as number);
    await recordAudit(
      trx,
      { userId: actor.userId, email: actor.email },
      {
        action: 'user.roles.added',
        entityType: 'user',
        entityId: userId,
        ip: meta.ip,
        details: {
          email: user.email,
          roles: roles.filter((r) => added.includes(r.id)).map((r) => r.code),
          alreadyHeld: roles.filter((r) => !added.includes(r.id)).map((r) => r.code),
        },
      },
    );
  });
  return getUser(db, actor, userId);
}

/** DELETE /admin/users/{userId}/roles/{roleId}: the role must be assigned (404) and assignable by the caller (403). */
export async function removeRole(db: Db, actor: Principal, userId: string, roleId: number, meta: WriteMeta): Promise<AdminUserDetail> {
  await db.transaction(async (trx) => {
    const { user, level } = await editable(trx, actor, userId);
    const [role] = await repo.rolesByIds(trx, [roleId]);
    const held = role && (await trx('user_roles').where({ user_id: userId, role_id: roleId }).first('role_id'));
    if (!role || !held) throw new NotFoundError('The user does not have this role');
    if (!isSuper(actor) && role.level <= level) throw new ForbiddenError(M.roleNotAssignable, PROBLEM_CODES.roleNotAssignable);
    await keepOneSuperAdmin(trx, userId, { withoutRoleId: roleId });
    await trx('user_roles').where({ user_id: userId, role_id: roleId }).delete();
    await recordAudit(
      trx,
      { userId: actor.userId, email: actor.email },
      { action: 'user.roles.removed', entityType: 'user', entityId: userId, ip: meta.ip, details: { email: user.email, role: role.code } },
    );
  });
  return getUser(db, actor, userId);
}

/**
 * DELETE /admin/users/{userId} (super administrators; ARCHITECTURE §9): removes the account, profile,
 * sessions, carts, role and outlet links and pending invitations. Orders stay: `user_id` becomes null and
 * the customer snapshot reads "Deleted user". The audit row keeps the actor and the deleted user's id.
 * 409 for oneself and for the last active super administrator.
 */
export async function deleteUser(db: Db, actor: Principal, userId: string, meta: WriteMeta): Promise<void> {
  await db.transaction(async (trx) => {
    const user = await repo.findUser(trx, userId, { forUpdate: true });
    if (!user) throw new NotFoundError('User not found');
    if (userId === actor.userId) throw new ConflictError(M.selfDelete, PROBLEM_CODES.selfDelete);
    if (user.isActive) await keepOneSuperAdmin(trx, userId);
    const orders = await trx('orders')
      .where({ user_id: userId })
      .update({ user_id: null, customer_name: 'Deleted user', customer_email: '', customer_phone: null });
    const invitations = await trx('invitations').where({ email: user.email }).whereNull('used_at').delete();
    const roles = await repo.roleCodesOf(trx, userId);
    await trx('users').where({ id: userId }).delete();
    await recordAudit(
      trx,
      { userId: actor.userId, email: actor.email },
      {
        action: 'user.deleted',
        entityType: 'user',
        entityId: userId,
        ip: meta.ip,
        details: { email: user.email, fullName: user.fullName, roles, ordersKept: orders, invitationsDeleted: invitations },
      },
    );
  });
}
