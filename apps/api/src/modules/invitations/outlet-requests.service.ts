import { PROBLEM_CODES, PERMISSIONS, GRANT_MESSAGES, type AdminOutletRequest } from '@portal/contracts';
import type { AppContext } from '../../context';
import type { Db } from '../../db/knex';
import { BadRequestError, ConflictError, NotFoundError } from '../../http/errors';
import type { Actor } from '../access/access.service';
import { can, holdersAt, insertGrants, reach } from '../access/access.service';
import { assertMayGrant, resolveGrants } from '../access/grants.service';
import { recordAudit } from '../audit/audit.service';
import * as repo from './outlet-requests.repository';
import { outletRequestDecisionMail } from './invitations.mail';

/**
 * Outlet access requests, the administrators' side: who is told about a request, the list,
 * and approve / reject. Only an administrator who holds a user-management code at the outlet (ARCHITECTURE
 * §11) sees or decides a request; others get 404. Deciding twice → 409 outlet_request_decided. Approving grants
 * the requester a role at the outlet by the granting rules (access/grants.service, `edit`): below the
 * approver's level there, never to oneself.
 */

/** The user-management permissions; holders decide the requests of the outlets they may manage. */
export const OUTLET_REQUEST_DECIDERS = [
  PERMISSIONS.usersSuperAdmin,
  PERMISSIONS.usersManageBoard,
  PERMISSIONS.usersManageStore,
  PERMISSIONS.usersManageOutlet,
] as const;

/**
 * Emails of the active administrators who may decide a request for `outletId` (holders of a user-management
 * permission at that outlet), for the outlet request mail. One query.
 */
export async function outletRequestApproverEmails(db: Db, outletId: number): Promise<string[]> {
  return (await holdersAt(db, OUTLET_REQUEST_DECIDERS, { type: 'outlet', id: outletId })).map((u) => u.email);
}

/** GET /admin/outlet-requests: a page of requests for outlets the caller may manage (pending first). */
export async function listOutletRequests(db: Db, actor: Actor, q: { status?: string; page: number; pageSize: number }) {
  const { items, total } = await repo.listOutletRequests(db, { ...q, manageable: reach(db, actor, OUTLET_REQUEST_DECIDERS, 'outlet') });
  const page: AdminOutletRequest[] = items;
  return { items: page, page: q.page, pageSize: q.pageSize, total };
}

/**
 * Approves (links the outlet to the requester) or rejects a pending request, in one transaction with the
 * audit row and the requester's mail. Out of the caller's scope → 404; already decided → 409.
 */
export async function decideOutletRequest(
  ctx: AppContext,
  actor: Actor,
  id: number,
  decision: { approve: boolean; reason?: string; roleId?: number },
  meta: { ip?: string | null; linkBase: string },
): Promise<AdminOutletRequest> {
  return ctx.db.transaction(async (trx) => {
    const req = await repo.findOutletRequest(trx, id, true);
    if (!req || !(await can(trx, actor, OUTLET_REQUEST_DECIDERS, { type: 'outlet', id: req.outletId })))
      throw new NotFoundError('Outlet request not found');
    if (req.status !== 'pending') throw new ConflictError(`This request was already ${req.status}.`, PROBLEM_CODES.outletRequestDecided);
    const status = decision.approve ? 'approved' : 'rejected';
    let roleId: number | undefined;
    if (decision.approve) {
      roleId = decision.roleId ?? (await repo.leastOutletRole(trx));
      if (roleId === undefined) throw new BadRequestError(GRANT_MESSAGES.wrongScope('This role', 'outlet'));
      const grants = await resolveGrants(trx, [{ roleId, scopeType: 'outlet', scopeId: req.outletId }]);
      await assertMayGrant(trx, actor, grants, { mode: 'edit', target: { userId: req.userId } });
      await insertGrants(trx, req.userId, grants, actor.userId);
    }
    await repo.decideOutletRequest(trx, id, { status, by: actor.userId, reason: decision.approve ? undefined : decision.reason });
    await recordAudit(
      trx,
      { userId: actor.userId, email: actor.email },
      {
        action: `outlet_request.${status}`,
        entityType: 'outlet_request',
        entityId: id,
        ip: meta.ip,
        details: {
          requesterId: req.userId,
          outletId: req.outletId,
          ...(roleId !== undefined ? { roleId } : {}),
          ...(decision.reason && !decision.approve ? { reason: decision.reason } : {}),
        },
      },
    );
    await ctx.mailer.enqueue(
      trx,
      outletRequestDecisionMail(req.userEmail, {
        outletName: req.outletName,
        approved: decision.approve,
        reason: decision.approve ? null : (decision.reason ?? null),
        signInUrl: `${meta.linkBase}/auth`,
      }),
    );
    const decided: AdminOutletRequest | undefined = await repo.findOutletRequest(trx, id);
    if (!decided) throw new NotFoundError('Outlet request not found');
    return decided;
  });
}
