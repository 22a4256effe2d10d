import { PROBLEM_CODES, ADMIN_USER_MESSAGES as M, type AdminUserDetail } from '@portal/contracts';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import { ForbiddenError, NotFoundError } from '../../http/errors';
import type { GrantRow, Actor } from '../access/access.service';
import { bestLevel, grantsOf, isGlobalAdmin, reachesUser } from '../access/access.service';
import { USER_MANAGEMENT_CODES, editableGrants } from '../access/grants.service';
import * as repo from './admin-users.repository';

/**
 * The Edit User view and the edit rule shared by the reads (admin-users.service.ts) and the writes
 * (user-writes.service.ts) of user administration (spec 002 §6; ARCHITECTURE §11): who the caller reaches, whether
 * they may edit a target, and the detail a read or a write answers.
 */

export type Conn = Db | Knex.Transaction;

/** The role-level ceiling when the caller has no role (spec 002 §9: default 999). */
export const LEVEL_CEILING = 999;

export const isSuper = (actor: Actor) => isGlobalAdmin(actor);

/** The caller's best (lowest) role level anywhere, 999 without roles. */
export async function actorLevel(db: Conn, actor: Actor): Promise<number> {
  return (await bestLevel(db, actor.userId)) ?? LEVEL_CEILING;
}

/** Edit rule of spec 002 §6 for a reachable target whose best level is `targetLevel`. */
export function editableBy(actor: Actor, level: number, targetId: string, targetLevel: number | null): boolean {
  if (isSuper(actor)) return true;
  if (targetId === actor.userId) return false;
  return targetLevel === null || targetLevel > level;
}

/** The target user when the caller reaches them (themselves always), else 404. */
export async function reachable(db: Conn, actor: Actor, userId: string, opts: { forUpdate?: boolean } = {}) {
  const user = await repo.findUser(db, userId, opts);
  if (!user || (userId !== actor.userId && !(await reachesUser(db, actor, USER_MANAGEMENT_CODES, userId))))
    throw new NotFoundError('User not found');
  return user;
}

/** Loads the target for a change and applies the edit rule (404, then 403 self / not editable). */
export async function editable(db: Conn, actor: Actor, userId: string) {
  const user = await reachable(db, actor, userId, { forUpdate: true });
  if (!isSuper(actor) && userId === actor.userId) throw new ForbiddenError(M.selfEdit, PROBLEM_CODES.selfEditForbidden);
  const level = await actorLevel(db, actor);
  if (!editableBy(actor, level, userId, await bestLevel(db, userId)))
    throw new ForbiddenError(M.notEditable, PROBLEM_CODES.userNotEditable);
  return { user, level };
}

/** The target's grants, each marked whether the caller may change it (rule 1 in `edit` mode). */
export async function grantsWithEditable(db: Conn, actor: Actor, userId: string) {
  const grants = await grantsOf(db, [userId]);
  const may = await editableGrants(db, actor, grants, new Map(grants.map((g) => [g.roleId, g.level])));
  return grants.map((g) => ({ ...g, editable: userId !== actor.userId && may(g) }));
}

/** The user a write just saved (404 should it have been removed meanwhile). */
export async function savedUser(db: Db, userId: string): Promise<repo.UserRecord> {
  const user = await repo.findUser(db, userId);
  if (!user) throw new NotFoundError('User not found');
  return user;
}

/**
 * The Edit User view of a user the caller reached (a write's answer comes from here too: taking away the last
 * grant at the caller's places leaves the person out of their reach, yet the answer shows what was saved).
 */
export async function detailOf(db: Db, actor: Actor, user: repo.UserRecord): Promise<AdminUserDetail> {
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

export const toGrantRef = (g: GrantRow & { editable: boolean }) => ({
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
