import { PROBLEM_CODES, type adminUsersBulkBodySchema, type AdminUsersBulkResult, type BulkUserResult } from '@portal/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { AppError, NotFoundError } from '../../http/errors';
import type { Actor } from '../access/access.service';
import { resendInvitation, type InvitationMeta } from '../invitations/invitations.service';
import * as repo from './admin-users.repository';
import { existingUserIds } from './users-list.repository';
import { removeRole, updateGrants, updateProfile } from './user-writes.service';

/**
 * POST /admin/users/bulk (ARCHITECTURE §5 "Administration at scale"): one action on many rows, each done by
 * the very service a single change uses (user-writes.service, invitations.service), in its own transaction:
 * every rule applies per item (scope → not_found, edit level → user_not_editable, oneself → self_deactivate /
 * self_edit_forbidden / self_grant_forbidden, the last super administrator, granting rules) and every item
 * that changes writes its own audit entry. A refused item answers `{ ok: false, code, message }` with the
 * problem it would have answered alone; the others go on.
 */

type BulkBody = z.output<typeof adminUsersBulkBodySchema>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notFound = (userId: string, what = 'User'): BulkUserResult => ({
  userId,
  ok: false,
  code: PROBLEM_CODES.notFound,
  message: `${what} not found`,
});

/** One item: the single-user service, its refusal as a result. */
async function one(userId: string, run: () => Promise<unknown>): Promise<BulkUserResult> {
  try {
    await run();
    return { userId, ok: true };
  } catch (e) {
    if (e instanceof AppError) return { userId, ok: false, code: e.code, message: e.message };
    throw e;
  }
}

/** Runs `body.action` on each of `body.userIds` (duplicates once), in order; answers one result per id sent. */
export async function bulkUsers(ctx: AppContext, actor: Actor, body: BulkBody, meta: InvitationMeta): Promise<AdminUsersBulkResult> {
  const ids = [...new Set(body.userIds)];
  const db = ctx.db;
  const done = new Map<string, BulkUserResult>();
  if (body.action === 'resend-invitation') {
    for (const id of ids)
      done.set(id, UUID.test(id) ? await one(id, () => resendInvitation(ctx, actor, id, meta)) : notFound(id, 'Invitation'));
  } else {
    const users = await existingUserIds(db, ids);
    for (const id of ids) {
      if (!users.has(id)) {
        done.set(id, notFound(id));
        continue;
      }
      done.set(id, await one(id, () => runOne(ctx, actor, body, id, meta)));
    }
  }
  return { results: body.userIds.map((id) => done.get(id) ?? notFound(id)) };
}

async function runOne(ctx: AppContext, actor: Actor, body: BulkBody, userId: string, meta: InvitationMeta) {
  const db = ctx.db;
  if (body.action === 'activate' || body.action === 'deactivate') {
    const user = await repo.findUser(db, userId);
    if (!user) throw new NotFoundError('User not found');
    const profile = { firstName: user.firstName ?? '', lastName: user.lastName, phone: user.phone };
    return updateProfile(db, actor, userId, { ...profile, isActive: body.action === 'activate' }, meta);
  }
  const roleId = body.roleId as number;
  const scopeId = body.scopeType === 'global' ? null : (body.scopeId ?? null);
  if (body.action === 'grant')
    return updateGrants(db, actor, userId, { add: [{ roleId, scopeType: body.scopeType ?? 'outlet', scopeId }], remove: [] }, meta);
  return removeRole(db, actor, userId, roleId, meta, body.scopeType ? { scopeType: body.scopeType, scopeId: scopeId ?? undefined } : {});
}
