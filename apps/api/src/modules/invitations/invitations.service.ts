import type { Knex } from 'knex';
import {
  PROBLEM_CODES,
  INVITATION_MESSAGES,
  PERMISSIONS,
  GRANT_MESSAGES,
  type AdminInvitation,
  type CreatedInvitation,
  type InvitationOptions,
  type InvitationStatus,
} from '@portal/contracts';
import type { AppContext } from '../../context';
import type { Db } from '../../db/knex';
import { BadRequestError, ConflictError, NotFoundError } from '../../http/errors';
import type { Actor } from '../access/access.service';
import { bestLevel, isGlobalAdmin, reach, type GrantKey } from '../access/access.service';
import { INVITE_CODES, USER_MANAGEMENT_CODES, assertMayGrant, resolveGrants } from '../access/grants.service';
import { recordAudit } from '../audit/audit.service';
import { registerMailRenderer, type RenderDeps } from '../../lib/mail/render';
import * as repo from './invitations.repository';
import * as placesRepo from './roles-places.repository';
import { invitationMail } from './invitations.mail';
import { acceptLink, expiry, newToken, sha256, type InvitationMeta } from './invitation-common';

/**
 * Invitations (ARCHITECTURE §5, §9): who may grant which roles and outlets, the mailed one-time
 * link (32 random bytes, stored as SHA-256, 7 days), the public read and the acceptance, and the admin list,
 * resend and revoke. Ops create invitations as the system actor (`SYSTEM`, no inviter user).
 */
export { acceptLink, type InvitationMeta } from './invitation-common';
export { readInvitation, acceptInvitation, type AcceptInput } from './acceptance.service';

/** The system actor of ops commands (`npm run users:invite`): no inviter user, no privilege rules. */
export const SYSTEM = { system: true } as const;
export type Inviter = Actor | typeof SYSTEM;
const isSystem = (a: Inviter): a is typeof SYSTEM => 'system' in a;

/**
 * The invitation mail is rendered when it is sent (no queued job holds a one-time secret):
 * the renderer makes the link's token, stores its hash on the still-pending invitation and renders the
 * mail; nothing is sent when the invitation was used, revoked or has expired meanwhile. The ops CLI
 * (system actor) prints the link, so it mails a rendered message with the token it made itself.
 */
export const INVITATION_MAIL_TEMPLATE = 'invitation';

async function renderInvitationMail(deps: RenderDeps, data: Record<string, unknown>) {
  const { invitationId, linkBase, inviterName } = data as { invitationId: string; linkBase: string; inviterName: string };
  return deps.db.transaction(async (trx) => {
    const inv = await repo.findById(trx, invitationId, true);
    if (!inv || repo.statusOf(inv) !== 'pending') return null;
    const token = newToken();
    await repo.setTokenHash(trx, inv.id, sha256(token));
    const [roles, places] = await Promise.all([placesRepo.rolesByIds(trx, inv.roleIds), placeLabels(trx, inv)]);
    return invitationMail(inv.email, {
      firstName: inv.firstName,
      inviterName,
      roleLabels: roles.sort((a, b) => a.level - b.level).map((r) => r.name),
      outletLabels: places,
      link: acceptLink(linkBase, token),
      expiresAt: inv.expiresAt,
    });
  });
}
registerMailRenderer(INVITATION_MAIL_TEMPLATE, renderInvitationMail);

/** Who may see and manage invitations: inviters and user administrators (ARCHITECTURE §11: where they hold it). */
export const INVITATION_ADMIN_CODES = [PERMISSIONS.usersAllowInvites, ...USER_MANAGEMENT_CODES] as const;

/** Names of an invitation's places (outlets, then stores, then boards), for mail and labels. */
async function placeLabels(db: Db | Knex.Transaction, inv: { outletIds: number[]; storeIds: number[]; boardIds: number[] }) {
  const [outlets, stores, boards] = await Promise.all([
    placesRepo.outletsByIds(db, inv.outletIds),
    placesRepo.storesByIds(db, inv.storeIds),
    placesRepo.boardsByIds(db, inv.boardIds),
  ]);
  return [...outlets.map((o) => o.name).sort(), ...stores.map((s) => s.name).sort(), ...boards.map((b) => b.name).sort()];
}

/**
 * The roles a caller may grant in an invitation: all for super administrators; else those at or below their best
 * level anywhere (ARCHITECTURE §9) — the level at the chosen places is checked when the invitation is made.
 */
async function grantableRoles(db: Db | Knex.Transaction, actor: Actor) {
  const roles = await placesRepo.listRoles(db, PERMISSIONS.storesAdmin);
  if (isGlobalAdmin(actor)) return roles;
  const best = await bestLevel(db, actor.userId);
  return best === null ? [] : roles.filter((r) => r.level >= best && r.scopeType !== 'global');
}

/**
 * GET /invitations/options: the roles the caller may grant, and the active outlets, active stores and boards where
 * they hold bcc.users.allow_invites (ARCHITECTURE §11; a store grant reaches the outlets linked to the store).
 */
export async function invitationOptions(db: Db, actor: Actor): Promise<InvitationOptions> {
  const [roles, outlets, stores, boards] = await Promise.all([
    grantableRoles(db, actor),
    placesRepo.listActiveOutlets(db, reach(db, actor, INVITE_CODES, 'outlet')),
    placesRepo.listActiveStores(db, reach(db, actor, INVITE_CODES, 'store')),
    placesRepo.listBoards(db, reach(db, actor, INVITE_CODES, 'board')),
  ]);
  return { roles, outlets, stores, boards };
}

export interface CreateInvitationInput {
  email: string;
  firstName: string;
  lastName: string;
  roleIds: number[];
  outletIds: number[];
  storeIds?: number[];
  boardIds?: number[];
}

const invalid = (path: string, message: string) => new BadRequestError(message, [{ path, message }]);

/**
 * The grants an invitation names: each role at every place of its scope type (outlet roles at `outletIds`, store
 * roles at `storeIds`, board roles at `boardIds`, super_admin globally). 422 for a role without a place of its
 * kind, or places no role is held at.
 */
function grantsOf(
  roles: { id: number; name: string; scopeType: string }[],
  places: { outletIds: number[]; storeIds: number[]; boardIds: number[] },
) {
  const at: Record<string, number[]> = { outlet: places.outletIds, store: places.storeIds, board: places.boardIds };
  const grants: GrantKey[] = [];
  for (const r of roles) {
    if (r.scopeType === 'global') {
      grants.push({ roleId: r.id, scopeType: 'global', scopeId: null });
      continue;
    }
    const ids = at[r.scopeType] ?? [];
    if (!ids.length) {
      const message = r.scopeType === 'outlet' ? INVITATION_MESSAGES.outletRequired : GRANT_MESSAGES.scopeRequired(r.name, r.scopeType);
      throw new BadRequestError(message, [{ path: `${r.scopeType}Ids`, message }]);
    }
    for (const id of ids) grants.push({ roleId: r.id, scopeType: r.scopeType as GrantKey['scopeType'], scopeId: id });
  }
  for (const [type, ids] of Object.entries(at))
    if (ids.length && !roles.some((r) => r.scopeType === type)) {
      const message = GRANT_MESSAGES.placesWithoutRole(type);
      throw new BadRequestError(message, [{ path: `${type}Ids`, message }]);
    }
  return grants;
}

/**
 * Checks an invitation as createInvitation would make it, writing nothing (the bulk dry run uses it): roles and
 * places exist (400 validation_failed), a person inviter may grant each role at each place (403 role_not_grantable,
 * outlet_not_grantable, scope_not_grantable, self_grant_forbidden; ARCHITECTURE §11). Returns the resolved roles,
 * places and place names.
 */
export async function checkInvitation(db: Db, inviter: Inviter, input: CreateInvitationInput) {
  const storeIds = input.storeIds ?? [];
  const boardIds = input.boardIds ?? [];
  const roles = await placesRepo.rolesByIds(db, input.roleIds);
  const missingRole = input.roleIds.find((id) => !roles.some((r) => r.id === id));
  if (missingRole !== undefined) throw invalid('roleIds', INVITATION_MESSAGES.unknownRole(missingRole));
  if (!roles.length) throw invalid('roleIds', INVITATION_MESSAGES.missingInfo);
  const outlets = await placesRepo.outletsByIds(db, input.outletIds);
  const missingOutlet = input.outletIds.find((id) => !outlets.some((o) => o.id === id && o.active));
  if (missingOutlet !== undefined) throw invalid('outletIds', INVITATION_MESSAGES.unknownOutlet(missingOutlet));
  const stores = await placesRepo.storesByIds(db, storeIds);
  const missingStore = storeIds.find((id) => !stores.some((s) => s.id === id && s.active));
  if (missingStore !== undefined) throw invalid('storeIds', GRANT_MESSAGES.unknownScope('store', missingStore));
  const boards = await placesRepo.boardsByIds(db, boardIds);
  const missingBoard = boardIds.find((id) => !boards.some((b) => b.id === id));
  if (missingBoard !== undefined) throw invalid('boardIds', GRANT_MESSAGES.unknownScope('board', missingBoard));

  // Outlets named with no outlet role (a super administrator's System Default outlet, a store manager's home
  // outlet): the person becomes a member there with the most privileged outlet role their role covers, as the
  // upgrade to scoped grants did (placesRepo.membershipRoleFor) — listed on the invitation like any role.
  if (outlets.length && !roles.some((r) => r.scopeType === 'outlet')) {
    const best = [...roles].sort((a, b) => a.level - b.level)[0];
    const member = await placesRepo.membershipRoleFor(db, best.id);
    if (member) roles.push(member);
  }
  const grants = await resolveGrants(db, grantsOf(roles, { outletIds: input.outletIds, storeIds, boardIds }));
  const placeNames = new Map<string, string>([
    ...outlets.map((o): [string, string] => [`outlet:${o.id}`, o.name]),
    ...stores.map((s): [string, string] => [`store:${s.id}`, s.name]),
    ...boards.map((b): [string, string] => [`board:${b.id}`, b.name]),
  ]);
  if (!isSystem(inviter)) await assertMayGrant(db, inviter, grants, { mode: 'invite', target: { email: input.email }, placeNames });

  return { roles, outlets, stores, boards, placeNames };
}
/** What checkInvitation resolves: the roles (with the membership role), places and their names. */
export type CheckedInvitation = Awaited<ReturnType<typeof checkInvitation>>;

/**
 * Creates an invitation and queues its mail, in one transaction. Roles and outlets must exist
 * (outlets active) → else 400 validation_failed; a person inviter may grant only roles at or below their level and outlets they
 * may manage → else 403 naming the role or outlet. An open invitation to the same email is replaced (its link
 * stops working). The system actor (ops CLI) skips the privilege rules and may invite without an outlet.
 * Returns the invitation; for the system actor also the link (the CLI prints it; never logged). `checked`: what
 * checkInvitation answered for this very input and inviter (bulk invitations check each distinct row once).
 */
export async function createInvitation(
  ctx: AppContext,
  inviter: Inviter,
  input: CreateInvitationInput,
  meta: InvitationMeta,
  checked?: CheckedInvitation,
): Promise<CreatedInvitation & { link?: string }> {
  const { db } = ctx;
  const { roles, outlets, stores, boards, placeNames } = checked ?? (await checkInvitation(db, inviter, input));
  const inviterId = isSystem(inviter) ? null : inviter.userId;
  const inviterName = isSystem(inviter) ? 'The portal administrators' : ((await repo.displayName(db, inviter.userId)) ?? inviter.email);
  // Only the CLI knows the token here (it prints it); otherwise the mail renderer makes it at send time.
  const token = isSystem(inviter) ? newToken() : undefined;
  const link = token ? acceptLink(meta.linkBase, token) : undefined;
  const created = await db.transaction(async (trx) => {
    const replaced = await repo.revokeOpenForEmail(trx, input.email, inviterId, 'replaced');
    const row = await repo.insertInvitation(trx, {
      ...input,
      roleIds: roles.map((r) => r.id),
      outletIds: outlets.map((o) => o.id),
      storeIds: stores.map((st) => st.id),
      boardIds: boards.map((b) => b.id),
      invitedBy: inviterId,
      tokenHash: token ? sha256(token) : null,
      expiresAt: expiry(),
    });
    await recordAudit(trx, isSystem(inviter) ? { email: 'system' } : { userId: inviter.userId, email: inviter.email }, {
      action: 'invitation.created',
      entityType: 'invitation',
      entityId: row.id,
      ip: meta.ip,
      details: {
        email: input.email,
        roleIds: roles.map((r) => r.id),
        outletIds: outlets.map((o) => o.id),
        storeIds: stores.map((st) => st.id),
        boardIds: boards.map((b) => b.id),
        replaced,
        via: isSystem(inviter) ? 'cli' : 'api',
      },
    });
    await ctx.mailer.enqueue(
      trx,
      link
        ? invitationMail(input.email, {
            firstName: input.firstName,
            inviterName,
            roleLabels: roles.map((r) => r.name),
            outletLabels: [...placeNames.values()],
            link,
            expiresAt: row.expiresAt,
          })
        : { render: INVITATION_MAIL_TEMPLATE, to: input.email, data: { invitationId: row.id, linkBase: meta.linkBase, inviterName } },
    );
    return row;
  });
  return { id: created.id, email: input.email, expiresAt: created.expiresAt.toISOString(), link };
}

/** Where the caller sees and manages invitations: theirs, and those whose every place they reach (ARCHITECTURE §11). */
function invitationScope(db: Db | Knex.Transaction, actor: Actor): repo.InvitationScope {
  const outlets = reach(db, actor, INVITATION_ADMIN_CODES, 'outlet');
  const stores = reach(db, actor, INVITATION_ADMIN_CODES, 'store');
  const boards = reach(db, actor, INVITATION_ADMIN_CODES, 'board');
  return outlets && stores && boards ? { userId: actor.userId, outlets, stores, boards } : 'all';
}

/** Is this invitation one the caller may see and manage? Out of scope → 404 (ARCHITECTURE §4). */
async function invitationForAdmin(db: Db | Knex.Transaction, actor: Actor, id: string, lock = false): Promise<repo.InvitationRow> {
  const inv = await repo.findById(db, id, lock);
  if (!inv || !(await repo.invitationInScope(db, id, invitationScope(db, actor)))) throw new NotFoundError('Invitation not found');
  return inv;
}

/** GET /admin/invitations: a page of invitations in the caller's scope (their own, or all outlets manageable). */
export async function listInvitations(
  db: Db,
  actor: Actor,
  q: { status?: InvitationStatus; search?: string; page: number; pageSize: number },
) {
  const { items, total } = await repo.listInvitations(db, { ...q, scope: invitationScope(db, actor) });
  const now = new Date();
  const out: AdminInvitation[] = items.map((i) => ({
    id: i.id,
    email: i.email,
    firstName: i.firstName,
    lastName: i.lastName,
    status: repo.statusOf(i, now),
    roleLabels: i.roleLabels,
    outletLabels: i.outletLabels,
    storeLabels: i.storeLabels,
    invitedByEmail: i.invitedByEmail,
    createdAt: i.createdAt.toISOString(),
    sentAt: i.sentAt.toISOString(),
    expiresAt: i.expiresAt.toISOString(),
    usedAt: i.usedAt?.toISOString() ?? null,
    revokedAt: i.revokedAt?.toISOString() ?? null,
  }));
  return { items: out, page: q.page, pageSize: q.pageSize, total };
}

/**
 * POST /admin/invitations/{id}/resend: a new token and 7 more days for a pending or expired invitation (the
 * old link stops working), mailed again. Used or revoked → 409 invitation_not_pending.
 */
export async function resendInvitation(ctx: AppContext, actor: Actor, id: string, meta: InvitationMeta): Promise<CreatedInvitation> {
  const inviterName = (await repo.displayName(ctx.db, actor.userId)) ?? actor.email;
  return ctx.db.transaction(async (trx) => {
    const inv = await invitationForAdmin(trx, actor, id, true);
    const status = repo.statusOf(inv);
    if (status === 'accepted' || status === 'revoked')
      throw new ConflictError(INVITATION_MESSAGES.notPending, PROBLEM_CODES.invitationNotPending);
    const expiresAt = expiry();
    // The old link dies now; the new one is made when the mail is rendered.
    await repo.renewToken(trx, inv.id, null, expiresAt);
    await recordAudit(
      trx,
      { userId: actor.userId, email: actor.email },
      { action: 'invitation.resent', entityType: 'invitation', entityId: inv.id, ip: meta.ip, details: { email: inv.email } },
    );
    await ctx.mailer.enqueue(trx, {
      render: INVITATION_MAIL_TEMPLATE,
      to: inv.email,
      data: { invitationId: inv.id, linkBase: meta.linkBase, inviterName },
    });
    return { id: inv.id, email: inv.email, expiresAt: expiresAt.toISOString() };
  });
}

/** DELETE /admin/invitations/{id}: revokes a pending or expired invitation (its link stops working). Used or revoked → 409. */
export async function revokeInvitation(ctx: AppContext, actor: Actor, id: string, meta: InvitationMeta): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const inv = await invitationForAdmin(trx, actor, id, true);
    const status = repo.statusOf(inv);
    if (status === 'accepted' || status === 'revoked')
      throw new ConflictError(INVITATION_MESSAGES.notPending, PROBLEM_CODES.invitationNotPending);
    await repo.revoke(trx, inv.id, actor.userId);
    await recordAudit(
      trx,
      { userId: actor.userId, email: actor.email },
      { action: 'invitation.revoked', entityType: 'invitation', entityId: inv.id, ip: meta.ip, details: { email: inv.email } },
    );
  });
}
