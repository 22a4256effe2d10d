import {
  PROBLEM_CODES,
  ADMIN_USER_MESSAGES as M,
  GRANT_MESSAGES,
  PERMISSIONS,
  type AdminUserDetail,
  type AdminUsersList,
  type AdminUserRolesBody,
  type GrantChange,
} from '@portal/contracts';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError, BadRequestError } from '../../http/errors';
import type { GrantKey, GrantRow, Actor } from '../access/access.service';
import {
  atOutlet,
  bestLevel,
  deleteGrants,
  grantsOf,
  holdsGlobally,
  insertGrants,
  isGlobalAdmin,
  listRoles,
  reachesUser,
  reachIds,
  rolesByIds,
} from '../access/access.service';
import { USER_MANAGEMENT_CODES, assertMayGrant, editableGrants, resolveGrants, type NamedGrant } from '../access/grants.service';
import { recordAudit } from '../audit/audit.service';
import { revokeAllSessions } from '../auth/auth.service';
import * as repo from './admin-users.repository';

/**
 * User administration (spec 002 §2 Users and Edit User, §4–§8; ARCHITECTURE §5, §9, §11).
 *
 * Scope: a user is reachable when they hold a grant at a place where the caller holds a user-management code;
 * super administrators reach every user. An unreachable user answers 404 (`not_found`).
 * Editing (spec 002 §6): super administrators may edit anyone, themselves included; nobody else may edit
 * themselves (403 `self_edit_forbidden`) or a user whose best role is as privileged as their own or more
 * (403 `user_not_editable`). Grants follow the granting rules (access/grants.service): the caller changes only
 * grants at places they manage, strictly below their level there, never their own; the spec's two lists of Edit
 * User mean "these roles at these outlets of mine", and grants elsewhere are shown read-only and never changed.
 * The profile and the active flag reach every place the person works, so they change only when every grant
 * of the person is one the caller may change (super administrators: always).
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

type Conn = Db | Knex.Transaction;

/** The role-level ceiling when the caller has no role (spec 002 §9: default 999). */
const LEVEL_CEILING = 999;

const isSuper = (actor: Actor) => isGlobalAdmin(actor);

/** The caller's best (lowest) role level anywhere, 999 without roles. */
async function actorLevel(db: Conn, actor: Actor): Promise<number> {
  return (await bestLevel(db, actor.userId)) ?? LEVEL_CEILING;
}

/** Edit rule of spec 002 §6 for a reachable target whose best level is `targetLevel`. */
function editableBy(actor: Actor, level: number, targetId: string, targetLevel: number | null): boolean {
  if (isSuper(actor)) return true;
  if (targetId === actor.userId) return false;
  return targetLevel === null || targetLevel > level;
}

type ScopeKind = 'all' | 'board' | 'store' | 'outlet' | 'none';
const SCOPE_TEXT: Record<ScopeKind, string> = {
  all: 'All users with a role or an outlet (super administrator)',
  board: 'Users of the outlets and stores of your boards',
  store: 'Users of your stores and of the outlets linked to them',
  outlet: 'Users of your outlets',
  none: 'No users: you have no user management scope',
};

/** The widest kind of place where the caller manages users (for the list's labels). */
async function scopeKind(db: Conn, actor: Actor): Promise<ScopeKind> {
  if (holdsGlobally(actor, USER_MANAGEMENT_CODES)) return 'all';
  const held = await repo.scopeTypesHolding(db, actor.userId, USER_MANAGEMENT_CODES);
  return (['board', 'store', 'outlet'] as const).find((k) => held.includes(k)) ?? 'none';
}

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

/** GET /admin/users: the caller's scoped users, 50 a page by name, with canEdit, roles with where they are held, and the spec's metadata. */
export async function listUsers(db: Db, actor: Actor, query: { search?: string; cursor?: string; limit: number }): Promise<AdminUsersList> {
  const search = query.search || undefined;
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const [rows, userCount, level, currentUserRoles, kind] = await Promise.all([
    repo.listUsersPage(db, actor, { search, after, limit: query.limit + 1 }),
    repo.countUsers(db, actor, search),
    actorLevel(db, actor),
    repo.roleCodesOf(db, actor.userId),
    scopeKind(db, actor),
  ]);
  const page = rows.slice(0, query.limit);
  const ids = page.map((r) => r.id);
  const [roles, outlets, levels] = await Promise.all([repo.roleSummariesOf(db, ids), repo.outletsOf(db, ids), repo.bestLevelsOf(db, ids)]);
  const items = page.map((r) => ({
    id: r.id,
    fullName: r.fullName,
    email: r.email,
    isActive: r.isActive,
    outlets: outlets.get(r.id) ?? [],
    roles: roles.get(r.id) ?? [],
    canEdit: editableBy(actor, level, r.id, levels.get(r.id) ?? null),
  }));
  const last = page[page.length - 1];
  return {
    items,
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.sortKey, last.id) : null,
    meta: { scopeDescription: SCOPE_TEXT[kind], filterType: kind, currentUserRoles, userCount },
  };
}

/** The target user when the caller reaches them (themselves always), else 404. */
async function reachable(db: Conn, actor: Actor, userId: string, opts: { forUpdate?: boolean } = {}) {
  const user = await repo.findUser(db, userId, opts);
  if (!user || (userId !== actor.userId && !(await reachesUser(db, actor, USER_MANAGEMENT_CODES, userId))))
    throw new NotFoundError('User not found');
  return user;
}

/** Loads the target for a change and applies the edit rule (404, then 403 self / not editable). */
async function editable(db: Conn, actor: Actor, userId: string) {
  const user = await reachable(db, actor, userId, { forUpdate: true });
  if (!isSuper(actor) && userId === actor.userId) throw new ForbiddenError(M.selfEdit, PROBLEM_CODES.selfEditForbidden);
  const level = await actorLevel(db, actor);
  if (!editableBy(actor, level, userId, await bestLevel(db, userId)))
    throw new ForbiddenError(M.notEditable, PROBLEM_CODES.userNotEditable);
  return { user, level };
}

/** The target's grants, each marked whether the caller may change it (rule 1 in `edit` mode). */
async function grantsWithEditable(db: Conn, actor: Actor, userId: string) {
  const grants = await grantsOf(db, [userId]);
  const may = await editableGrants(db, actor, grants, new Map(grants.map((g) => [g.roleId, g.level])));
  return grants.map((g) => ({ ...g, editable: userId !== actor.userId && may(g) }));
}

/** GET /admin/users/{userId}: profile, every grant (where, and whether the caller may change it), outlets, canEdit, canEditProfile, canDelete. */
export async function getUser(db: Db, actor: Actor, userId: string): Promise<AdminUserDetail> {
  return detailOf(db, actor, await reachable(db, actor, userId));
}

/** The user a write just saved (404 should it have been removed meanwhile). */
async function savedUser(db: Db, userId: string): Promise<repo.UserRecord> {
  const user = await repo.findUser(db, userId);
  if (!user) throw new NotFoundError('User not found');
  return user;
}

/**
 * The Edit User view of a user the caller reached (a write's answer comes from here too: taking away the last
 * grant at the caller's places leaves the person out of their reach, yet the answer shows what was saved).
 */
async function detailOf(db: Db, actor: Actor, user: repo.UserRecord): Promise<AdminUserDetail> {
  const userId = user.id;
  const [grants, outlets, level] = await Promise.all([
    grantsWithEditable(db, actor, userId),
    repo.outletsOf(db, [userId]),
    actorLevel(db, actor),
  ]);
  const best = grants.length ? Math.min(...grants.map((g) => g.level)) : null;
  const canEdit = editableBy(actor, level, userId, best);
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
    roles: grants.map(toGrantRef),
    outlets: outlets.get(userId) ?? [],
    canEdit,
    canEditProfile: canEdit && (isSuper(actor) || grants.every((g) => g.editable)),
    canDelete: isSuper(actor) && userId !== actor.userId,
  };
}

const toGrantRef = (g: GrantRow & { editable: boolean }) => ({
  id: g.roleId,
  roleId: g.roleId,
  code: g.code,
  name: g.name,
  description: g.description,
  level: g.level,
  scopeType: g.scopeType,
  scopeId: g.scopeId,
  scopeName: g.scopeName,
  editable: g.editable,
});

/** Refuses to leave the portal without an active super administrator (ARCHITECTURE §9). */
async function keepOneSuperAdmin(db: Conn, userId: string, opts: { withoutRoleId?: number } = {}) {
  // One such check at a time (transaction-scoped lock): two admins demoting each other at once cannot both pass.
  await repo.lockSuperAdminCheck(db);
  const code = PERMISSIONS.usersSuperAdmin;
  if (!(await repo.holdsSuperAdmin(db, userId, code))) return;
  if (opts.withoutRoleId !== undefined && (await repo.holdsSuperAdmin(db, userId, code, opts))) return;
  if ((await repo.countOtherActiveSuperAdmins(db, userId, code)) === 0)
    throw new ConflictError(M.lastSuperAdmin, PROBLEM_CODES.lastSuperAdmin);
}

/**
 * PATCH /admin/users/{userId}/profile: names, phone and the active flag (email is not editable).
 * Deactivating revokes every session of the user at once (their next refresh answers 401) and their access
 * tokens stop working on the next request. Nobody deactivates themselves or the last active super administrator
 * (409). A person who also holds grants at places the caller does not manage keeps their profile: 403
 * `user_not_editable` (ARCHITECTURE §11 rule 2 — deactivating would reach those places too).
 */
export async function updateProfile(db: Db, actor: Actor, userId: string, body: ProfileInput, meta: WriteMeta): Promise<AdminUserDetail> {
  await db.transaction(async (trx) => {
    const { user } = await editable(trx, actor, userId);
    if (!isSuper(actor) && (await grantsWithEditable(trx, actor, userId)).some((g) => !g.editable))
      throw new ForbiddenError(M.profileElsewhere, PROBLEM_CODES.userNotEditable);
    const deactivating = user.isActive && !body.isActive;
    if (deactivating && userId === actor.userId) throw new ConflictError(M.selfDeactivate, PROBLEM_CODES.selfDeactivate);
    if (deactivating) await keepOneSuperAdmin(trx, userId);
    await repo.upsertProfile(trx, userId, body);
    if (user.isActive !== body.isActive) await repo.setActive(trx, userId, body.isActive);
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
  return detailOf(db, actor, await savedUser(db, userId));
}

const keyOf = (g: { roleId: number; scopeType: string; scopeId: number | null }) => `${g.roleId}:${g.scopeType}:${g.scopeId}`;
const grantView = (g: { roleId: number; scopeType: string; scopeId: number | null }) => ({
  roleId: g.roleId,
  scopeType: g.scopeType,
  scopeId: g.scopeId,
});

/**
 * Applies grant changes by the granting rules (edit mode): each added grant at a place the caller manages, below
 * their level there, never to themselves; each removed one likewise (a removed grant must be held). Removing the
 * last global super_admin grant of the last super administrator → 409. Answers what was added and removed.
 */
async function changeGrants(trx: Conn, actor: Actor, userId: string, add: GrantKey[], remove: GrantKey[]) {
  const named = await resolveGrants(trx, add);
  const held = new Map((await grantsOf(trx, [userId])).map((g) => [keyOf(g), g]));
  const toAdd = named.filter((g) => !held.has(keyOf(g)));
  const toRemove = remove.map((g) => held.get(keyOf(g))).filter((g): g is GrantRow => Boolean(g));
  if (toAdd.length) await assertMayGrant(trx, actor, toAdd, { mode: 'edit', target: { userId } });
  if (toRemove.length)
    await assertMayGrant(
      trx,
      actor,
      toRemove.map((g) => ({ ...g, role: { id: g.roleId, code: g.code, name: g.name, level: g.level, scopeType: g.scopeType } })),
      { mode: 'edit', target: { userId }, removing: true },
    );
  for (const g of toRemove) if (g.scopeType === 'global') await keepOneSuperAdmin(trx, userId, { withoutRoleId: g.roleId });
  const added = await insertGrants(trx, userId, toAdd, actor.userId);
  const removed = await deleteGrants(trx, userId, toRemove);
  await repo.clearSelectionAt(
    trx,
    userId,
    removed.filter(atOutlet).map((g) => g.scopeId),
  );
  return { added, removed, named };
}

/** The user's outlet-level roles at outlets the caller manages: what "these roles" means in Edit User. */
async function rolesAtMyOutlets(db: Conn, actor: Actor, userId: string): Promise<number[]> {
  const mine = await reachIds(db, actor, USER_MANAGEMENT_CODES, 'outlet');
  const grants = (await grantsOf(db, [userId])).filter((g) => atOutlet(g) && (!mine || mine.includes(g.scopeId)));
  return [...new Set(grants.map((g) => g.roleId))];
}

/**
 * PUT /admin/users/{userId}/outlets { add, remove }: only the difference, read as "these roles at these outlets of
 * mine" (ARCHITECTURE §11): an added outlet gets each outlet role the user holds at the caller's outlets (422 when
 * there is none yet: add a role first); a removed outlet loses every grant there. Every outlet named must be one
 * the caller manages (403 `outlet_not_manageable`, 'You do not have permission to modify this outlet assignment.').
 */
export async function updateOutlets(
  db: Db,
  actor: Actor,
  userId: string,
  body: { add: number[]; remove: number[] },
  meta: WriteMeta,
): Promise<AdminUserDetail> {
  await db.transaction(async (trx) => {
    const { user } = await editable(trx, actor, userId);
    const named = [...new Set([...body.add, ...body.remove])];
    const exists = await repo.existingOutletIds(trx, named);
    const unknown = named.filter((id) => !exists.has(id));
    if (unknown.length) throw new NotFoundError(`Outlet not found: ${unknown.join(', ')}`);
    const mine = await reachIds(trx, actor, USER_MANAGEMENT_CODES, 'outlet');
    if (mine && named.some((id) => !mine.includes(id))) throw new ForbiddenError(M.outletNotManageable, PROBLEM_CODES.outletNotManageable);
    const roles = body.add.length ? await rolesAtMyOutlets(trx, actor, userId) : [];
    if (body.add.length && !roles.length)
      throw new BadRequestError(GRANT_MESSAGES.noRoleForOutlet, [{ path: 'add', message: GRANT_MESSAGES.noRoleForOutlet }]);
    const add = body.add.flatMap((o) => roles.map((roleId) => ({ roleId, scopeType: 'outlet' as const, scopeId: o })));
    const remove = (await grantsOf(trx, [userId])).filter((g) => atOutlet(g) && body.remove.includes(g.scopeId));
    const { added, removed } = await changeGrants(trx, actor, userId, add, remove);
    const outletsOf = (gs: GrantKey[]) => [...new Set(gs.filter(atOutlet).map((g) => g.scopeId))];
    if (added.length || removed.length)
      await recordAudit(
        trx,
        { userId: actor.userId, email: actor.email },
        {
          action: 'user.outlets.updated',
          entityType: 'user',
          entityId: userId,
          ip: meta.ip,
          details: {
            email: user.email,
            added: outletsOf(added),
            removed: outletsOf(removed),
            grants: { added: added.map(grantView), removed: removed.map(grantView) },
          },
        },
      );
  });
  return detailOf(db, actor, await savedUser(db, userId));
}

/** GET /admin/users/{userId}/manageable-outlets (spec 002 §7 get_outlets_for_user_management). */
export async function manageableOutlets(db: Db, actor: Actor, userId: string) {
  await reachable(db, actor, userId);
  return { items: await repo.outletsForUserManagement(db, actor, userId) };
}

/**
 * GET /admin/users/{userId}/assignable-roles: roles strictly less privileged than the caller's best role (role_level
 * greater; ceiling 999 without roles), each with the scope type it is granted at; every role for super
 * administrators. Includes roles the user already has (the screen hides those). With the active stores and the
 * boards where the caller manages users (where store- and board-level roles can go).
 */
export async function assignableRoles(db: Db, actor: Actor, userId: string) {
  await reachable(db, actor, userId);
  const [items, stores, boards] = await Promise.all([
    listRoles(db, isSuper(actor) ? null : await actorLevel(db, actor)),
    repo.storesWhereManaging(db, actor),
    repo.boardsWhereManaging(db, actor),
  ]);
  return { items, stores, boards };
}

/**
 * POST /admin/users/{userId}/roles { roleId } or { roleIds }, with where (ARCHITECTURE §11): outlet roles at
 * `outletIds`, else at each of the user's outlets the caller manages; store roles at `storeIds`; board roles at
 * `boardIds`; super_admin globally. Unknown ids are ignored; when none is left → 422 'Invalid role selection: no
 * valid role IDs found'. A role as privileged as the caller's at the place → 403; no place → 422.
 */
export async function addRoles(db: Db, actor: Actor, userId: string, body: AdminUserRolesBody, meta: WriteMeta): Promise<AdminUserDetail> {
  const ids = [...new Set([...(body.roleId !== undefined ? [body.roleId] : []), ...(body.roleIds ?? [])])];
  await db.transaction(async (trx) => {
    const { user, level } = await editable(trx, actor, userId);
    const roles = await rolesByIds(trx, ids);
    if (!roles.length) throw new UnprocessableError(M.invalidRoleSelection, PROBLEM_CODES.invalidRoleSelection);
    // A role as privileged as the caller's best anywhere can be granted nowhere (the place's level is checked below).
    if (!isSuper(actor) && roles.some((r) => r.level <= level))
      throw new ForbiddenError(M.roleNotAssignable, PROBLEM_CODES.roleNotAssignable);
    let myOutlets: number[] | undefined;
    const add: GrantKey[] = [];
    for (const r of roles) {
      let places: (number | null)[];
      if (r.scopeType === 'global') places = [null];
      else if (r.scopeType === 'outlet') {
        if (body.outletIds?.length) places = body.outletIds;
        else {
          if (!myOutlets) {
            const mine = await reachIds(trx, actor, USER_MANAGEMENT_CODES, 'outlet');
            const theirs = (await repo.outletsOf(trx, [userId])).get(userId) ?? [];
            myOutlets = theirs.map((o) => o.id).filter((id) => !mine || mine.includes(id));
          }
          places = myOutlets;
        }
      } else places = (r.scopeType === 'store' ? body.storeIds : body.boardIds) ?? [];
      if (!places.length) {
        const message = GRANT_MESSAGES.scopeRequired(r.name || r.code, r.scopeType);
        throw new BadRequestError(message, [{ path: `${r.scopeType}Ids`, message }]);
      }
      for (const p of places) add.push({ roleId: r.id, scopeType: r.scopeType, scopeId: p });
    }
    const { added, named } = await changeGrants(trx, actor, userId, add, []);
    const addedKeys = new Set(added.map(keyOf));
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
          roles: [...new Set(named.filter((g) => addedKeys.has(keyOf(g))).map((g) => g.role.code))],
          alreadyHeld: [...new Set(named.filter((g) => !addedKeys.has(keyOf(g))).map((g) => g.role.code))],
          grants: added.map(grantView),
        },
      },
    );
  });
  return detailOf(db, actor, await savedUser(db, userId));
}

/**
 * DELETE /admin/users/{userId}/roles/{roleId}[?scopeType=&scopeId=]: takes the role away at one place, or at every
 * place the caller may change it (grants elsewhere stay). 404 when the user does not hold it (there); 403 when the
 * caller may change none of those grants.
 */
export async function removeRole(
  db: Db,
  actor: Actor,
  userId: string,
  roleId: number,
  meta: WriteMeta,
  at: { scopeType?: GrantChange['scopeType']; scopeId?: number } = {},
): Promise<AdminUserDetail> {
  await db.transaction(async (trx) => {
    const { user } = await editable(trx, actor, userId);
    const grants = (await grantsWithEditable(trx, actor, userId)).filter(
      (g) =>
        g.roleId === roleId && (!at.scopeType || g.scopeType === at.scopeType) && (at.scopeId === undefined || g.scopeId === at.scopeId),
    );
    if (!grants.length) throw new NotFoundError('The user does not have this role');
    const mine = grants.filter((g) => g.editable || (isSuper(actor) && userId === actor.userId));
    const remove = mine.length ? mine : grants; // none the caller may change: the rules below refuse with the reason
    await changeGrants(trx, actor, userId, [], remove);
    await recordAudit(
      trx,
      { userId: actor.userId, email: actor.email },
      {
        action: 'user.roles.removed',
        entityType: 'user',
        entityId: userId,
        ip: meta.ip,
        details: { email: user.email, role: grants[0].code, grants: remove.map(grantView) },
      },
    );
  });
  return detailOf(db, actor, await savedUser(db, userId));
}

/**
 * PUT /admin/users/{userId}/grants { add, remove } (ARCHITECTURE §5 "Grants"): explicit grants, by the granting
 * rules. Removing a grant the user does not hold changes nothing. One audit row.
 */
export async function updateGrants(
  db: Db,
  actor: Actor,
  userId: string,
  body: { add: GrantChange[]; remove: GrantChange[] },
  meta: WriteMeta,
): Promise<AdminUserDetail> {
  await db.transaction(async (trx) => {
    const { user } = await editable(trx, actor, userId);
    const { added, removed } = await changeGrants(trx, actor, userId, body.add, body.remove);
    if (added.length || removed.length)
      await recordAudit(
        trx,
        { userId: actor.userId, email: actor.email },
        {
          action: 'user.grants.updated',
          entityType: 'user',
          entityId: userId,
          ip: meta.ip,
          details: { email: user.email, added: added.map(grantView), removed: removed.map(grantView) },
        },
      );
  });
  return detailOf(db, actor, await savedUser(db, userId));
}

/**
 * DELETE /admin/users/{userId} (super administrators; ARCHITECTURE §9): removes the account, profile,
 * sessions, carts, grants and memberships and pending invitations. Orders stay: `user_id` becomes null and
 * the customer snapshot reads "Deleted user". The audit row keeps the actor and the deleted user's id.
 * 409 for oneself and for the last active super administrator.
 */
export async function deleteUser(db: Db, actor: Actor, userId: string, meta: WriteMeta): Promise<void> {
  await db.transaction(async (trx) => {
    const user = await repo.findUser(trx, userId, { forUpdate: true });
    if (!user) throw new NotFoundError('User not found');
    if (userId === actor.userId) throw new ConflictError(M.selfDelete, PROBLEM_CODES.selfDelete);
    if (user.isActive) await keepOneSuperAdmin(trx, userId);
    const orders = await repo.anonymiseOrders(trx, userId);
    const invitations = await repo.deleteOpenInvitations(trx, user.email);
    const roles = await repo.roleCodesOf(trx, userId);
    await repo.deleteUserRow(trx, userId);
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

export type { NamedGrant };
