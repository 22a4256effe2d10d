import { PROBLEM_CODES, AUTH_MESSAGES } from '@portal/contracts';
import type { AppContext } from '../../context';
import { BadRequestError, TooManyRequestsError } from '../../http/errors';
import { registerMailRenderer, type RenderDeps } from '../../lib/mail/render';
import * as repo from './auth.repository';
import { passwordChangedMail, passwordResetMail } from './auth.mail';
import { AUDIT_ACTIONS, newOpaqueToken, retryAfter, sha256, type RequestMeta } from './auth-common';
import { assertNotCommon, hashPassword } from './passwords.service';

/**
 * Password recovery (ARCHITECTURE §4, §9): the request, the deferred reset mail (registered with the mail
 * renderer when this file loads) and setting a new password from the mailed token.
 */

const RECOVERY_WINDOW_SECONDS = 60 * 60;
const RESET_TOKEN_TTL_SECONDS = 60 * 60;

/**
 * Password recovery (ARCHITECTURE §4, §9): audits the request and queues a deferred
 * `password_reset` mail for any well-formed email, in one transaction, without looking the account up:
 * the request does the same work, in the same time, whether or not the account exists. The mail job
 * does the rest when it runs (`renderPasswordResetMail`). More than the configured number of requests
 * (5) for one email within an hour raises 429, whether or not the account exists (requests before the
 * account's last completed password change are not counted).
 */
export async function requestPasswordRecovery(ctx: AppContext, email: string, meta: RequestMeta & { linkBase: string }): Promise<void> {
  const { db, config } = ctx;
  // Requests made before the mailbox owner last completed a password change no longer count: only someone
  // holding the mailbox can do that, so it says nothing about whether an email has an account.
  const recent = await repo.countRecentAudit(
    db,
    AUDIT_ACTIONS.recoveryRequested,
    email,
    RECOVERY_WINDOW_SECONDS,
    AUDIT_ACTIONS.passwordChanged,
  );
  if (recent.count >= config.authRecoveryEmailLimit) {
    throw new TooManyRequestsError(retryAfter(recent.oldest, RECOVERY_WINDOW_SECONDS), AUTH_MESSAGES.tooManyRequests);
  }
  await db.transaction(async (trx) => {
    await repo.insertAudit(trx, { action: AUDIT_ACTIONS.recoveryRequested, actorEmail: email, ip: meta.ip });
    await ctx.mailer.enqueue(trx, {
      render: PASSWORD_RESET_TEMPLATE,
      to: email,
      data: { email, ip: meta.ip ?? null, linkBase: meta.linkBase },
    });
  });
}

/** The deferred template of the reset mail (jobs/mail-render.ts). */
export const PASSWORD_RESET_TEMPLATE = 'password_reset';

/**
 * Renders the reset mail when the job runs: only when an active account has the
 * email, stores a hashed one-time token (1 hour) and audits `auth.password_reset_issued`, then returns the
 * mail with `${linkBase}/auth?intent=recovery#token=…`; else null (nothing is sent). The token exists
 * only in this call and in the sent mail, never in the job row. A retried delivery issues a new token.
 */
export async function renderPasswordResetMail(deps: RenderDeps, data: Record<string, unknown>) {
  const email = String(data.email);
  const linkBase = String(data.linkBase);
  const ip = typeof data.ip === 'string' ? data.ip : null;
  return deps.db.transaction(async (trx) => {
    const user = await repo.findUserByEmail(trx, email);
    if (!user || !user.isActive) return null;
    const token = newOpaqueToken();
    const tokenId = await repo.insertResetToken(trx, {
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_SECONDS * 1000),
      ip,
    });
    await repo.insertAudit(trx, {
      action: AUDIT_ACTIONS.resetIssued,
      userId: user.id,
      actorEmail: user.email,
      ip,
      entityType: 'password_reset_token',
      entityId: tokenId,
    });
    return passwordResetMail(user.email, `${linkBase}/auth?intent=recovery#token=${token}`);
  });
}
registerMailRenderer(PASSWORD_RESET_TEMPLATE, renderPasswordResetMail);

/**
 * Sets a new password from a mailed token: the token must exist, be unused and unexpired, and its
 * account active (else 400 `reset_token_invalid`); the password must not be a common one (400
 * `common_password`). Marks the token used, revokes every session of the user, audits, and queues
 * the password-changed notice, all in one transaction.
 */
export async function resetPassword(
  ctx: AppContext,
  input: { token: string; password: string },
  meta: RequestMeta & { linkBase: string },
): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const token = await repo.findResetTokenForUpdate(trx, sha256(input.token));
    const user = token && (await repo.findUserById(trx, token.userId));
    if (!token || token.usedAt || token.expiresAt.getTime() <= Date.now() || !user || !user.isActive) {
      throw new BadRequestError(AUTH_MESSAGES.resetLinkInvalid, undefined, PROBLEM_CODES.resetTokenInvalid);
    }
    assertNotCommon(input.password, 'password');
    await repo.updatePasswordHash(trx, user.id, await hashPassword(ctx, input.password));
    await repo.consumeResetToken(trx, token);
    const revoked = await repo.revokeUserSessions(trx, user.id, 'password_reset');
    await repo.insertAudit(trx, {
      action: AUDIT_ACTIONS.passwordChanged,
      userId: user.id,
      actorEmail: user.email,
      ip: meta.ip,
      details: { via: 'reset', sessionsRevoked: revoked },
    });
    await ctx.mailer.enqueue(trx, passwordChangedMail(user.email, `${meta.linkBase}/auth?mode=login`));
  });
}
