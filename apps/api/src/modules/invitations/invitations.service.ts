import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import {
  PROBLEM_CODES,
  AUTH_MESSAGES,
  INVITATION_MESSAGES,
  INVITATION_TTL_DAYS,
  PERMISSIONS,
  type AcceptInvitationResult,
  type AdminInvitation,
  type CreatedInvitation,
  type InvitationOptions,
  type InvitationStatus,
  type PublicInvitation,
} from '@portal/contracts';
import type { AppContext } from '../../context';
import type { Db } from '../../db/knex';
import { BadRequestError, ConflictError, ForbiddenError, GoneError, NotFoundError } from '../../http/errors';
import type { Principal } from '../access/access.service';
import { manageableOutletsQuery } from '../access/access.service';
import { recordAudit } from '../audit/audit.service';
import { hashPassword, isCommonPassword } from '../auth/auth.service';
import { registerMailRenderer, type RenderDeps } from '../../jobs/mail-render';
import * as repo from './invitations.repository';
import { invitationMail, welcomeMail } from './invitations.mail';

/**
 * Invitations (ARCHITECTURE §5, §9): who may grant which roles and outlets, the mailed one-time
 * link (32 random bytes, stored as SHA-256, 7 days), the public read and the acceptance, and the admin list,
 * resend and revoke. Ops create invitations as the system actor (`SYSTEM`, no inviter user).
 */

/** The system actor of ops commands (`npm run users:invite`): no inviter user, no privilege rules. */
export const SYSTEM = { system: true } as const;
export type Inviter = Principal | typeof SYSTEM;
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
    const [roles, outlets] = await Promise.all([repo.rolesByIds(trx, inv.roleIds), repo.outletsByIds(trx, inv.outletIds)]);
    return invitationMail(inv.email, {
      firstName: inv.firstName,
      inviterName,
      roleLabels: roles.sort((a, b) => a.level - b.level).map((r) => r.name),
      outletLabels: outlets.map((o) => o.name).sort(),
      link: acceptLink(linkBase, token),
      expiresAt: inv.expiresAt,
    });
  });
}
registerMailRenderer(INVITATION_MAIL_TEMPLATE, renderInvitationMail);

/** Where a request came from (audit) and the origin mail links use. */
export interface InvitationMeta {
  ip?: string | null;
  linkBase: string;
}

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');
const expiry = () => new Date(Date.now() + INVITATION_TTL_DAYS * 24 * 3600 * 1000);
export const acceptLink = (linkBase: string, token: string) => `${linkBase}/invitation/accept?inv=${token}`;

/**
 * The outlets a caller may invite users to, as a subquery of outlet ids (`null`: every outlet). The
 * manageable-outlets rule of access-scope.ts; an inviter (bcc.users.allow_invites) also reaches the outlets
 * they are assigned to, and holders of bcc.users.allow_invites.all_store_outlets the store-level scope (every
 * outlet of the stores linked to their outlets), as spec 000 §6 says.
 */
export function invitableOutletsQuery(db: Db | Knex.Transaction, actor: Principal): Knex.QueryBuilder | null {
  const permissions = new Set(actor.permissions);
  if (permissions.has(PERMISSIONS.usersAllowInvites)) permissions.add(PERMISSIONS.usersManageOutlet);
  if (permissions.has(PERMISSIONS.usersAllowInvitesAllStoreOutlets)) permissions.add(PERMISSIONS.usersManageStore);
  return manageableOutletsQuery(db, { userId: actor.userId, permissions });
}

/** The roles a caller may grant: all for super administrators; else those at or below their best level (ARCHITECTURE §9). */
async function grantableRoles(db: Db | Knex.Transaction, actor: Principal) {
  const roles = await repo.listRoles(db, PERMISSIONS.storesAdmin);
  if (actor.permissions.has(PERMISSIONS.usersSuperAdmin)) return roles;
  const best = await repo.bestRoleLevel(db, actor.userId);
  return best === undefined ? [] : roles.filter((r) => r.level >= best);
}

/** GET /invitations/options: the roles and active outlets the caller may grant (the dialog offers only these). */
export async function invitationOptions(db: Db, actor: Principal): Promise<InvitationOptions> {
  const [roles, outlets] = await Promise.all([grantableRoles(db, actor), repo.listActiveOutlets(db, invitableOutletsQuery(db, actor))]);
  return { roles, outlets };
}

export interface CreateInvitationInput {
  email: string;
  firstName: string;
  lastName: string;
  roleIds: number[];
  outletIds: number[];
}

/**
 * Creates an invitation and queues its mail, in one transaction. Roles and outlets must exist
 * (outlets active) → else 400 validation_failed; a person inviter may grant only roles at or below their level and outlets they
 * may manage → else 403 naming the role or outlet. An open invitation to the same email is replaced (its link
 * stops working). The system actor (ops CLI) skips the privilege rules and may invite without an outlet.
 * Returns the invitation; for the system actor also the link (the CLI prints it; never logged).
 */
export async function createInvitation(
  ctx: AppContext,
  inviter: Inviter,
  input: CreateInvitationInput,
  meta: InvitationMeta,
): Promise<CreatedInvitation & { link?: string }> {
  const { db } = ctx;
  const roles = await repo.rolesByIds(db, input.roleIds);
  const missingRole = input.roleIds.find((id) => !roles.some((r) => r.id === id));
  if (missingRole !== undefined)
    throw new BadRequestError(INVITATION_MESSAGES.unknownRole(missingRole), [
      { path: 'roleIds', message: INVITATION_MESSAGES.unknownRole(missingRole) },
    ]);
  if (!roles.length)
    throw new BadRequestError(INVITATION_MESSAGES.missingInfo, [{ path: 'roleIds', message: INVITATION_MESSAGES.missingInfo }]);
  const outlets = await repo.outletsByIds(db, input.outletIds);
  const missingOutlet = input.outletIds.find((id) => !outlets.some((o) => o.id === id && o.active));
  if (missingOutlet !== undefined)
    throw new BadRequestError(INVITATION_MESSAGES.unknownOutlet(missingOutlet), [
      { path: 'outletIds', message: INVITATION_MESSAGES.unknownOutlet(missingOutlet) },
    ]);

  if (!isSystem(inviter)) {
    if (!outlets.length)
      throw new BadRequestError(INVITATION_MESSAGES.outletRequired, [{ path: 'outletIds', message: INVITATION_MESSAGES.outletRequired }]);
    const grantable = new Set((await grantableRoles(db, inviter)).map((r) => r.id));
    const role = roles.find((r) => !grantable.has(r.id));
    if (role) throw new ForbiddenError(INVITATION_MESSAGES.roleNotGrantable(role.name), PROBLEM_CODES.roleNotGrantable);
    const within = invitableOutletsQuery(db, inviter);
    if (within) {
      const allowed = new Set((await within).map((r: { id: number }) => r.id));
      const outlet = outlets.find((o) => !allowed.has(o.id));
      if (outlet) throw new ForbiddenError(INVITATION_MESSAGES.outletNotGrantable(outlet.name), PROBLEM_CODES.outletNotGrantable);
    }
  }

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
            outletLabels: outlets.map((o) => o.name),
            link,
            expiresAt: row.expiresAt,
          })
        : { render: INVITATION_MAIL_TEMPLATE, to: input.email, data: { invitationId: row.id, linkBase: meta.linkBase, inviterName } },
    );
    return row;
  });
  return { id: created.id, email: input.email, expiresAt: created.expiresAt.toISOString(), link };
}

/** The refusal for an invitation that cannot be read or accepted (spec 002 §8 texts, ARCHITECTURE §5 codes). */
function unusable(status: InvitationStatus): ConflictError | GoneError | undefined {
  if (status === 'accepted') return new ConflictError(INVITATION_MESSAGES.used, PROBLEM_CODES.invitationUsed);
  if (status === 'revoked') return new ConflictError(INVITATION_MESSAGES.revoked, PROBLEM_CODES.invitationRevoked);
  if (status === 'expired') return new GoneError(INVITATION_MESSAGES.expired, PROBLEM_CODES.invitationExpired);
  return undefined;
}
const notFound = () => new NotFoundError(INVITATION_MESSAGES.notFound, PROBLEM_CODES.invitationNotFound);

/** Finds a usable invitation by its link token, or throws 404 / 409 used|revoked / 410 expired. */
async function usableInvitation(db: Db | Knex.Transaction, token: string, lock = false): Promise<repo.InvitationRow> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw notFound();
  const inv = await repo.findByTokenHash(db, sha256(token), lock);
  if (!inv) throw notFound();
  const refusal = unusable(repo.statusOf(inv));
  if (refusal) throw refusal;
  return inv;
}

/**
 * GET /invitations/{token} (public): the invitation with role and outlet labels and whether the account
 * exists. Read-only: a mail scanner following the link changes nothing.
 */
export async function readInvitation(db: Db, token: string): Promise<PublicInvitation> {
  const inv = await usableInvitation(db, token);
  const [roles, outlets, user] = await Promise.all([
    repo.rolesByIds(db, inv.roleIds),
    repo.outletsByIds(db, inv.outletIds),
    repo.findUserByEmail(db, inv.email),
  ]);
  return {
    email: inv.email,
    firstName: inv.firstName,
    lastName: inv.lastName,
    roleLabels: roles.sort((a, b) => a.level - b.level).map((r) => r.name),
    outletLabels: outlets.map((o) => o.name).sort(),
    userExists: Boolean(user),
    expiresAt: inv.expiresAt.toISOString(),
  };
}

export interface AcceptInput {
  firstName: string;
  lastName: string;
  phone: string | null;
  password?: string;
}

/**
 * POST /invitations/{token}/accept (public). A new account needs a password (the identity
 * policy; 400 validation_failed naming `password` without one, common_password for a well-known one); an existing
 * account keeps its own password and gets its profile updated; a deactivated one is refused (409 invitee_deactivated,
 * the invitation stays pending). In one transaction, with the invitation row locked: the
 * account created or updated, roles and outlets attached, the invitation marked used, the audit row and the
 * welcome mail. Two concurrent accepts → one succeeds, the other answers 409 invitation_used.
 */
export async function acceptInvitation(
  ctx: AppContext,
  token: string,
  input: AcceptInput,
  meta: InvitationMeta,
): Promise<AcceptInvitationResult> {
  const { db } = ctx;
  const first = await usableInvitation(db, token);
  const existing = await repo.findUserByEmail(db, first.email);
  // A deactivated account is not brought back by an invitation: reactivating is an administrator's decision.
  if (existing && !existing.isActive) throw new ConflictError(AUTH_MESSAGES.deactivated, PROBLEM_CODES.inviteeDeactivated);
  let passwordHash: string | undefined;
  if (!existing) {
    if (!input.password) {
      throw new BadRequestError(INVITATION_MESSAGES.passwordRequired, [
        { path: 'password', message: INVITATION_MESSAGES.passwordRequired },
      ]);
    }
    if (isCommonPassword(input.password)) {
      throw new BadRequestError(
        AUTH_MESSAGES.commonPassword,
        [{ path: 'password', message: AUTH_MESSAGES.commonPassword }],
        PROBLEM_CODES.commonPassword,
      );
    }
    passwordHash = await hashPassword(ctx, input.password);
  }
  const result = await db.transaction(async (trx) => {
    const inv = await usableInvitation(trx, token, true);
    let user = await repo.findUserByEmail(trx, inv.email);
    const isNewUser = !user;
    if (!user) {
      if (!passwordHash) throw new ConflictError(INVITATION_MESSAGES.used, PROBLEM_CODES.invitationUsed);
      user = { id: await repo.insertUser(trx, inv.email, passwordHash), isActive: true };
    }
    await repo.upsertProfile(trx, user.id, input);
    const granted = await repo.grantRolesAndOutlets(trx, user.id, inv.roleIds, inv.outletIds);
    await repo.markUsed(trx, inv.id, user.id);
    await recordAudit(
      trx,
      { userId: user.id, email: inv.email },
      {
        action: 'invitation.accepted',
        entityType: 'invitation',
        entityId: inv.id,
        ip: meta.ip,
        details: { isNewUser, ...granted },
      },
    );
    const outlets = await repo.outletsByIds(trx, granted.outletIds);
    await ctx.mailer.enqueue(
      trx,
      welcomeMail(inv.email, {
        firstName: input.firstName,
        lastName: input.lastName,
        isNewUser,
        signInUrl: `${meta.linkBase}/auth`,
        outletLabels: outlets.map((o) => o.name).sort(),
      }),
    );
    return { userId: user.id, isNewUser };
  });
  return result;
}

/** Is this invitation one the caller may see and manage? Out of scope → 404 (ARCHITECTURE §4). */
async function invitationForAdmin(db: Db | Knex.Transaction, actor: Principal, id: string, lock = false): Promise<repo.InvitationRow> {
  const inv = await repo.findById(db, id, lock);
  if (!inv) throw new NotFoundError('Invitation not found');
  const manageable = invitableOutletsQuery(db, actor);
  if (manageable && !(await repo.invitationInScope(db, id, actor.userId, manageable))) throw new NotFoundError('Invitation not found');
  return inv;
}

/** GET /admin/invitations: a page of invitations in the caller's scope (their own, or all outlets manageable). */
export async function listInvitations(
  db: Db,
  actor: Principal,
  q: { status?: InvitationStatus; search?: string; page: number; pageSize: number },
) {
  const manageable = invitableOutletsQuery(db, actor);
  const { items, total } = await repo.listInvitations(db, { ...q, scope: manageable ? { userId: actor.userId, manageable } : 'all' });
  const now = new Date();
  const out: AdminInvitation[] = items.map((i) => ({
    id: i.id,
    email: i.email,
    firstName: i.firstName,
    lastName: i.lastName,
    status: repo.statusOf(i, now),
    roleLabels: i.roleLabels,
    outletLabels: i.outletLabels,
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
export async function resendInvitation(ctx: AppContext, actor: Principal, id: string, meta: InvitationMeta): Promise<CreatedInvitation> {
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
export async function revokeInvitation(ctx: AppContext, actor: Principal, id: string, meta: InvitationMeta): Promise<void> {
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
