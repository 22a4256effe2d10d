import type { AdminUserDetail } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { Actor } from '../access/access.service';
import { listRoles } from '../access/access.service';
import type { NamedGrant } from '../access/grants.service';
import * as repo from './admin-users.repository';
import { actorLevel, isSuper, reachable, detailOf } from './user-detail';

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
export type { ProfileInput, WriteMeta } from './user-writes.service';
export { updateProfile, updateOutlets, addRoles, removeRole, updateGrants, deleteUser } from './user-writes.service';
export { listUsers, userIds, exportUsers } from './users-list.service';

/** GET /admin/users/{userId}: profile, every grant (where, and whether the caller may change it), outlets, canEdit, canEditProfile, canDelete. */
export async function getUser(db: Db, actor: Actor, userId: string): Promise<AdminUserDetail> {
  return detailOf(db, actor, await reachable(db, actor, userId));
}

/**
 * GET /admin/users/{userId}/manageable-outlets (spec 002 §7 get_outlets_for_user_management; issue 26 §4): by name,
 * optionally matching `search` (name or code), only the user's own (`assigned`), the first `limit`; with the total.
 */
export async function manageableOutlets(
  db: Db,
  actor: Actor,
  userId: string,
  q: { search?: string; assigned?: boolean; limit?: number } = {},
) {
  await reachable(db, actor, userId);
  return repo.outletsForUserManagement(db, actor, userId, { search: q.search || undefined, assignedOnly: q.assigned, limit: q.limit });
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

export type { NamedGrant };
