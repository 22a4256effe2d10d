import type { Knex } from 'knex';
import { GRANT_MESSAGES, PERMISSIONS, PROBLEM_CODES, ADMIN_USER_MESSAGES, INVITATION_MESSAGES, type ScopeType } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { BadRequestError, ForbiddenError } from '../../http/errors';
import * as repo from './access.repository';
import * as grantsRepo from './grants.repository';
import type { Actor, Scope } from './access.repository';
import type { GrantKey } from './grants.repository';
import { isGlobalAdmin, reachIds } from './access.service';

/**
 * Granting (ARCHITECTURE §11), everywhere a grant is made — invitations, Edit User, role toggles, outlet request
 * approval — follows three rules:
 * 1. one grants only at places one reaches (with the codes of the way one grants: user management, or
 *    invitations), and only roles below one's own best level *at that place*: strictly below in Edit User and
 *    approvals (`edit`), at or below when inviting (`invite`, ARCHITECTURE §9); super administrators: any role,
 *    anywhere;
 * 2. granting never changes a person's grants anywhere else (callers add and remove only the grants named);
 * 3. nobody grants to themselves, directly or through an invitation to their own address.
 * A role is granted at the scope type it carries (outlet roles at outlets, store roles at stores…).
 */

type Conn = Db | Knex.Transaction;

/** The codes that let a person manage users (Edit User, approvals, role changes) where they hold them. */
export const USER_MANAGEMENT_CODES = [
  PERMISSIONS.usersSuperAdmin,
  PERMISSIONS.usersManageBoard,
  PERMISSIONS.usersManageStore,
  PERMISSIONS.usersManageOutlet,
  PERMISSIONS.adminUserRolesManage,
] as const;
/** The codes that let a person invite where they hold them. */
export const INVITE_CODES = [PERMISSIONS.usersAllowInvites] as const;

/** Who grants: a person (with the rules), or the system (ops CLI, migrations: no rules). */
export type Granter = (Actor & { email: string }) | { system: true };
export const isSystemGranter = (g: Granter): g is { system: true } => 'system' in g;

/** A grant named by a request, with its role's facts once resolved. */
export interface NamedGrant extends GrantKey {
  role: { id: number; code: string; name: string | null; level: number; scopeType: ScopeType };
}

const placeOf = (g: GrantKey): Scope => (g.scopeType === 'global' ? { type: 'global' } : { type: g.scopeType, id: g.scopeId as number });
const label = (r: { name: string | null; code: string }) => r.name || r.code;

/**
 * Resolves `grants` (role ids and places) into named grants: every role must exist and be granted at its own
 * scope type (422), every place must exist (422). Duplicates are dropped.
 */
export async function resolveGrants(db: Conn, grants: GrantKey[]): Promise<NamedGrant[]> {
  const roles = new Map((await grantsRepo.rolesByIds(db, [...new Set(grants.map((g) => g.roleId))])).map((r) => [r.id, r]));
  const places = await grantsRepo.existingPlaces(db, grants);
  const seen = new Set<string>();
  const out: NamedGrant[] = [];
  for (const g of grants) {
    const role = roles.get(g.roleId);
    if (!role) throw invalid('roleId', INVITATION_MESSAGES.unknownRole(g.roleId));
    if (role.scopeType !== g.scopeType) throw invalid('scopeType', GRANT_MESSAGES.wrongScope(label(role), role.scopeType));
    if (g.scopeType !== 'global' && (g.scopeId === null || !places[g.scopeType].has(g.scopeId)))
      throw invalid('scopeId', GRANT_MESSAGES.unknownScope(g.scopeType, g.scopeId as number));
    const key = `${g.roleId}:${g.scopeType}:${g.scopeId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ roleId: g.roleId, scopeType: g.scopeType, scopeId: g.scopeType === 'global' ? null : g.scopeId, role });
  }
  return out;
}

const invalid = (path: string, message: string) => new BadRequestError(message, [{ path, message }]);

/**
 * Applies rules 1 and 3 to grants `granter` gives (or takes, `removing`) to the person `target` (their user id
 * and/or email): 403 `self_grant_forbidden` for oneself (taking away one's own grants is not granting: allowed to
 * super administrators only, as any self-edit), 403 `scope_not_grantable` for a place out of reach (naming it),
 * 403 `role_not_grantable` (invite) / `role_not_assignable` (edit) for a role above the allowed level there. The
 * system granter passes.
 */
export async function assertMayGrant(
  db: Conn,
  granter: Granter,
  grants: NamedGrant[],
  opts: {
    mode: 'invite' | 'edit';
    target: { userId?: string | null; email?: string | null };
    removing?: boolean;
    placeNames?: Map<string, string>;
  },
): Promise<void> {
  if (isSystemGranter(granter)) return;
  const self =
    (opts.target.userId && opts.target.userId === granter.userId) ||
    (opts.target.email && opts.target.email.toLowerCase() === granter.email.toLowerCase());
  if (self && !(opts.removing && isGlobalAdmin(granter)))
    throw new ForbiddenError(GRANT_MESSAGES.selfGrant, PROBLEM_CODES.selfGrantForbidden);
  if (isGlobalAdmin(granter)) return;
  const codes = opts.mode === 'invite' ? INVITE_CODES : USER_MANAGEMENT_CODES;
  const reached = new Map<string, Set<number> | null>();
  for (const g of grants) {
    // A global grant is a super administrator's to give: for anyone else it is a role above their level.
    if (g.scopeType === 'global')
      throw opts.mode === 'invite'
        ? new ForbiddenError(INVITATION_MESSAGES.roleNotGrantable(label(g.role)), PROBLEM_CODES.roleNotGrantable)
        : new ForbiddenError(ADMIN_USER_MESSAGES.roleNotAssignable, PROBLEM_CODES.roleNotAssignable);
    if (!reached.has(g.scopeType)) {
      const ids = await reachIds(db, granter, codes, g.scopeType);
      reached.set(g.scopeType, ids ? new Set(ids) : null);
    }
    const ids = reached.get(g.scopeType);
    if (ids && (g.scopeId === null || !ids.has(g.scopeId))) throw notReachable(g, opts.mode, opts.placeNames);
  }
  const levels = new Map<string, number | null>();
  for (const g of grants) {
    const key = `${g.scopeType}:${g.scopeId}`;
    if (!levels.has(key)) levels.set(key, await repo.bestLevel(db, granter.userId, placeOf(g)));
    const mine = levels.get(key) ?? 999;
    const allowed = opts.mode === 'invite' ? g.role.level >= mine : g.role.level > mine;
    if (!allowed)
      throw opts.mode === 'invite'
        ? new ForbiddenError(INVITATION_MESSAGES.roleNotGrantable(label(g.role)), PROBLEM_CODES.roleNotGrantable)
        : new ForbiddenError(ADMIN_USER_MESSAGES.roleNotAssignable, PROBLEM_CODES.roleNotAssignable);
  }
}

/** The refusal for a place out of reach: at an outlet, the spec's own texts (invitations, Edit User); elsewhere scope_not_grantable. */
function notReachable(g: GrantKey, mode: 'invite' | 'edit', names?: Map<string, string>) {
  const name = names?.get(`${g.scopeType}:${g.scopeId}`) ?? (g.scopeType === 'global' ? 'every place' : `${g.scopeType} ${g.scopeId}`);
  if (g.scopeType === 'outlet')
    return mode === 'invite'
      ? new ForbiddenError(INVITATION_MESSAGES.outletNotGrantable(name), PROBLEM_CODES.outletNotGrantable)
      : new ForbiddenError(ADMIN_USER_MESSAGES.outletNotManageable, PROBLEM_CODES.outletNotManageable);
  return new ForbiddenError(GRANT_MESSAGES.scopeNotGrantable(name), PROBLEM_CODES.scopeNotGrantable);
}

/**
 * Which of a person's grants the actor may change (Edit User, rule 1 in `edit` mode): at a place the actor
 * reaches with user management, strictly below the actor's best level there (super administrators: all).
 * Answers a predicate over grants, with the reach and levels loaded once.
 */
export async function editableGrants(db: Conn, actor: Actor, grants: GrantKey[], roleLevels: Map<number, number>) {
  if (isGlobalAdmin(actor)) return () => true;
  const kinds = [...new Set(grants.map((g) => g.scopeType))].filter((k): k is Exclude<ScopeType, 'global'> => k !== 'global');
  const reached = new Map<string, Set<number> | null>();
  for (const k of kinds) {
    const ids = await reachIds(db, actor, USER_MANAGEMENT_CODES, k);
    reached.set(k, ids ? new Set(ids) : null);
  }
  const levels = new Map<string, number>();
  for (const g of grants) {
    if (g.scopeType === 'global') continue;
    const r = reached.get(g.scopeType);
    const key = `${g.scopeType}:${g.scopeId}`;
    if ((r === null || (g.scopeId !== null && r?.has(g.scopeId))) && !levels.has(key))
      levels.set(key, (await repo.bestLevel(db, actor.userId, placeOf(g))) ?? 999);
  }
  return (g: GrantKey) => {
    if (g.scopeType === 'global') return false;
    const mine = levels.get(`${g.scopeType}:${g.scopeId}`);
    return mine !== undefined && (roleLevels.get(g.roleId) ?? -1) > mine;
  };
}
