import {
  PROBLEM_CODES,
  ADMIN_USER_MESSAGES as M,
  GRANT_MESSAGES,
  PERMISSIONS,
  type AdminUserDetail,
  type AdminUserRolesBody,
  type GrantChange,
} from '@portal/contracts';
import type { Db } from '../../db/knex';
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError, BadRequestError } from '../../http/errors';
import type { GrantKey, GrantRow, Actor } from '../access/access.service';
import { atOutlet, deleteGrants, grantsOf, insertGrants, reachIds, rolesByIds } from '../access/access.service';
import { USER_MANAGEMENT_CODES, assertMayGrant, resolveGrants } from '../access/grants.service';
import { recordAudit } from '../audit/audit.service';
import { assertPhoneFree, phoneTakenError, revokeAllSessions } from '../auth/auth.service';
import * as repo from './admin-users.repository';
import { detailOf, editable, grantsWithEditable, isSuper, savedUser, type Conn } from './user-detail';

/**
 * The writes of user administration (spec 002 §4–§8; ARCHITECTURE §9, §11): profile, outlets, roles and grants,
 * deletion. The edit rule and the granting rules are those described in admin-users.service.ts; every write
 * records one audit row in its transaction and answers the Edit User view of what was saved.
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
 * (409); a phone another active account signs in with is refused (409 `phone_taken`). A person who also holds grants at places the caller does not manage keeps their profile: 403
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
    if (body.phone !== user.phone) await assertPhoneFree(trx, userId, body.phone);
    await repo.upsertProfile(trx, userId, body).catch((e: unknown) => {
      throw phoneTakenError(e);
    });
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
