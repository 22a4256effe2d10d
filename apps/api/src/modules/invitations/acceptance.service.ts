import type { Knex } from 'knex';
import {
  PROBLEM_CODES,
  AUTH_MESSAGES,
  INVITATION_MESSAGES,
  GRANT_MESSAGES,
  type AcceptInvitationResult,
  type InvitationStatus,
  type PublicInvitation,
} from '@portal/contracts';
import type { AppContext } from '../../context';
import type { Db } from '../../db/knex';
import { BadRequestError, ConflictError, ForbiddenError, GoneError, NotFoundError } from '../../http/errors';
import { atOutlet, insertGrants, type GrantKey } from '../access/access.service';
import { recordAudit } from '../audit/audit.service';
import { assertPhoneFree, hashPassword, isCommonPassword, phoneTakenError } from '../auth/auth.service';
import * as repo from './invitations.repository';
import * as placesRepo from './roles-places.repository';
import { welcomeMail } from './invitations.mail';
import { sha256, type InvitationMeta } from './invitation-common';

/**
 * The public side of invitations (ARCHITECTURE §5, spec 002 §8): reading an invitation from its mailed link and
 * accepting it (the account created or updated, the invitation's grants given, the welcome mail queued).
 */

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
  const [roles, outlets, stores, boards, user] = await Promise.all([
    placesRepo.rolesByIds(db, inv.roleIds),
    placesRepo.outletsByIds(db, inv.outletIds),
    placesRepo.storesByIds(db, inv.storeIds),
    placesRepo.boardsByIds(db, inv.boardIds),
    repo.findUserByEmail(db, inv.email),
  ]);
  return {
    email: inv.email,
    firstName: inv.firstName,
    lastName: inv.lastName,
    roleLabels: roles.sort((a, b) => a.level - b.level).map((r) => r.name),
    outletLabels: outlets.map((o) => o.name).sort(),
    storeLabels: stores.map((st) => st.name).sort(),
    boardLabels: boards.map((b) => b.name).sort(),
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
 * the invitation stays pending); a phone another active account signs in with is refused (409 phone_taken, nothing
 * written, the invitation stays pending). In one transaction, with the invitation row locked: the
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
    // Rule 3 again at acceptance: an invitation's grants never go to the person who sent it.
    if (inv.invitedBy && inv.invitedBy === user.id) throw new ForbiddenError(GRANT_MESSAGES.selfGrant, PROBLEM_CODES.selfGrantForbidden);
    // The phone is the account's sign-in phone too: another active account's is refused (409 phone_taken, issue 26 §7).
    await assertPhoneFree(trx, user.id, input.phone);
    await repo.upsertProfile(trx, user.id, input).catch((e: unknown) => {
      throw phoneTakenError(e);
    });
    const granted = await grantInvitation(trx, user.id, inv);
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
    const outlets = await placesRepo.outletsByIds(trx, [...new Set(granted.grants.filter(atOutlet).map((g) => g.scopeId))]);
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

/**
 * The grants an accepted invitation gives (granted by its inviter): each role at the places of its kind that still
 * exist. Grants the person already holds are kept. Answers what was granted.
 */
async function grantInvitation(trx: Db | Knex.Transaction, userId: string, inv: repo.InvitationRow) {
  const roles = await placesRepo.rolesByIds(trx, inv.roleIds);
  const at: Record<string, number[]> = { outlet: inv.outletIds, store: inv.storeIds, board: inv.boardIds };
  const keys: GrantKey[] = roles.flatMap((r): GrantKey[] =>
    r.scopeType === 'global'
      ? [{ roleId: r.id, scopeType: 'global', scopeId: null }]
      : (at[r.scopeType] ?? []).map((id) => ({ roleId: r.id, scopeType: r.scopeType, scopeId: id })),
  );
  const places = await existingPlaceIds(trx, inv);
  const live = keys.filter((k) => k.scopeType === 'global' || (k.scopeId !== null && places[k.scopeType].has(k.scopeId)));
  await insertGrants(trx, userId, live, inv.invitedBy);
  return { roleIds: roles.map((r) => r.id), grants: live };
}

async function existingPlaceIds(db: Db | Knex.Transaction, inv: { outletIds: number[]; storeIds: number[]; boardIds: number[] }) {
  const [o, st, b] = await Promise.all([
    placesRepo.outletsByIds(db, inv.outletIds),
    placesRepo.storesByIds(db, inv.storeIds),
    placesRepo.boardsByIds(db, inv.boardIds),
  ]);
  const ids: Record<'outlet' | 'store' | 'board', Set<number>> = {
    outlet: new Set(o.map((x) => x.id)),
    store: new Set(st.map((x) => x.id)),
    board: new Set(b.map((x) => x.id)),
  };
  return ids;
}
