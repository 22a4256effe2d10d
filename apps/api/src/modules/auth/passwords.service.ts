import bcrypt from 'bcrypt';
import { LRUCache } from 'lru-cache';
import { dictionary } from '@zxcvbn-ts/language-common';
import { PROBLEM_CODES, AUTH_MESSAGES, PASSWORD_MAX_BYTES, utf8Length } from '@portal/contracts';
import type { AppContext } from '../../context';
import { BadRequestError, TooManyRequestsError } from '../../http/errors';
import { loginLockouts } from '../../http/metrics';
import * as repo from './auth.repository';
import { passwordChangedMail } from './auth.mail';
import { AUDIT_ACTIONS, FAILED_LOGIN_WINDOW_SECONDS, newOpaqueToken, retryAfter, sessionInvalid, type RequestMeta } from './auth-common';

/**
 * Passwords (ARCHITECTURE §4, README "Sign-in limits"): hashing (bcrypt at the configured cost, refusing common
 * passwords), the lockout policy checked before any compare, confirming the current password before a sensitive
 * act, and changing one's password.
 */

/** Dummy hashes by bcrypt cost (one cost in practice; tests vary it). */
const dummyHashes = new LRUCache<number, Promise<string>>({ max: 8 });
/** A bcrypt hash of a random secret at `cost`, compared against for unknown emails so timing matches. */
export function dummyHash(cost: number): Promise<string> {
  let h = dummyHashes.get(cost);
  if (!h) {
    h = bcrypt.hash(newOpaqueToken(), cost);
    dummyHashes.set(cost, h);
  }
  return h;
}

/** Starts computing the dummy hash (call at boot so the first unknown-email sign-in is not slower). */
export function warmUp(ctx: AppContext): void {
  void dummyHash(ctx.config.bcryptCost);
}

const COMMON_PASSWORDS = new Set(dictionary['passwords-common']);
/**
 * Is this password one of the well-known common passwords (zxcvbn-ts common list, offline)? Case is
 * ignored, and so are symbols added at either end to satisfy the rules ("Password1!" is "password1").
 */
export function isCommonPassword(password: string): boolean {
  const l = password.toLowerCase();
  return [l, l.replace(/[^a-z0-9]+$/, ''), l.replace(/^[^a-z0-9]+/, '')].some((v) => COMMON_PASSWORDS.has(v));
}

export function assertNotCommon(password: string, field: string) {
  if (isCommonPassword(password)) {
    throw new BadRequestError(
      AUTH_MESSAGES.commonPassword,
      [{ path: field, message: AUTH_MESSAGES.commonPassword }],
      PROBLEM_CODES.commonPassword,
    );
  }
}

/**
 * Hashes a password with bcrypt at the configured cost (≥ 12 outside tests). A password over 72 bytes in
 * UTF-8 is refused (400, the contracts' message) rather than silently truncated by bcrypt:
 * the schemas refuse it first; this guards every other caller.
 */
export async function hashPassword(ctx: AppContext, password: string): Promise<string> {
  if (utf8Length(password) > PASSWORD_MAX_BYTES) {
    throw new BadRequestError(AUTH_MESSAGES.passwordTooLong, [{ path: 'password', message: AUTH_MESSAGES.passwordTooLong }]);
  }
  return bcrypt.hash(password, ctx.config.bcryptCost);
}

/** Password failures that count toward the lockout: failed sign-ins, refused password changes and credential reveals. */
const PASSWORD_FAILURES = [AUDIT_ACTIONS.loginFailed, AUDIT_ACTIONS.passwordChangeRefused, AUDIT_ACTIONS.credentialRevealRefused] as const;
/** A sign-in from an IP that signed in to the account within this many days is not slowed by the ceiling. */
const KNOWN_IP_DAYS = 30;

/**
 * The lockout policy (README "Sign-in limits"), checked before any bcrypt compare, for an
 * email whether or not it has an account (nothing tells which exist):
 * 1. account + IP pair: AUTH_ACCOUNT_FAILED_LOGIN_LIMIT (10) password failures for the email from this
 *    IP within 15 minutes → 429 until the oldest leaves the window. A stranger locks only themselves.
 * 2. per-account ceiling: past AUTH_ACCOUNT_FAILED_LOGIN_CEILING (50) failures for the email from all
 *    IPs within 15 minutes, an IP that has not signed in to it within 30 days gets one attempt per
 *    AUTH_ACCOUNT_SLOW_INTERVAL_SECONDS (10) for the whole account: a distributed guess is slowed to a
 *    crawl, while the owner is at most delayed by that interval (and not at all from a known IP).
 * Throws TooManyRequestsError (429 with Retry-After).
 */
export async function assertNotLockedOut(
  ctx: Pick<AppContext, 'db' | 'config'>,
  email: string,
  ip: string | null | undefined,
): Promise<void> {
  const { db, config } = ctx;
  const f = await repo.countRecentFailures(db, PASSWORD_FAILURES, email, ip, FAILED_LOGIN_WINDOW_SECONDS);
  if (f.pair >= config.authAccountFailedLoginLimit) {
    loginLockouts.inc({ rule: 'account_ip' });
    throw new TooManyRequestsError(retryAfter(f.pairOldest, FAILED_LOGIN_WINDOW_SECONDS), AUTH_MESSAGES.tooManyRequests);
  }
  if (f.total >= config.authAccountFailedLoginCeiling && f.latest) {
    const wait = f.latest.getTime() + config.authAccountSlowIntervalSeconds * 1000 - Date.now();
    if (wait > 0 && !(await repo.hasSignedInFrom(db, AUDIT_ACTIONS.login, email, ip, KNOWN_IP_DAYS))) {
      loginLockouts.inc({ rule: 'account_ceiling' });
      throw new TooManyRequestsError(wait / 1000, AUTH_MESSAGES.tooManyRequests);
    }
  }
}

/** Wrong passwords one account may give to reveal credentials in the lockout window (15 min), from all IPs together. */
export const REVEAL_ACCOUNT_FAILURE_LIMIT = 5;

/**
 * Checks a signed-in user's current password before a sensitive act (revealing a payment credential,
 * issue 23 §7), under the same lockout as sign-in: refused (429) while the account + IP pair is locked or
 * the account is slowed (assertNotLockedOut), and after REVEAL_ACCOUNT_FAILURE_LIMIT wrong passwords for
 * this account in 15 minutes from any IP. A wrong password is audited as `auth.credential_reveal_refused`,
 * which counts toward the sign-in lockout. Answers whether the password matched.
 */
export async function confirmCurrentPassword(
  ctx: Pick<AppContext, 'db' | 'config'>,
  user: { id: string; email: string },
  password: string,
  ip: string | null | undefined,
): Promise<boolean> {
  await assertNotLockedOut(ctx, user.email, ip);
  const reveals = await repo.countRecentFailures(
    ctx.db,
    [AUDIT_ACTIONS.credentialRevealRefused],
    user.email,
    ip,
    FAILED_LOGIN_WINDOW_SECONDS,
  );
  if (reveals.total >= REVEAL_ACCOUNT_FAILURE_LIMIT) {
    const wait = reveals.latest
      ? (reveals.latest.getTime() + FAILED_LOGIN_WINDOW_SECONDS * 1000 - Date.now()) / 1000
      : FAILED_LOGIN_WINDOW_SECONDS;
    throw new TooManyRequestsError(wait, AUTH_MESSAGES.tooManyRequests);
  }
  const row = await repo.findUserById(ctx.db, user.id);
  if (row?.passwordHash && (await bcrypt.compare(password, row.passwordHash))) return true;
  await repo.insertAudit(ctx.db, {
    action: AUDIT_ACTIONS.credentialRevealRefused,
    userId: user.id,
    actorEmail: user.email,
    ip: ip ?? undefined,
  });
  return false;
}

/**
 * Changes the signed-in user's password (spec 000 §2 Edit Profile): the current password must match
 * (else 400 `current_password_incorrect`, "Your current password is incorrect."), the new one must not
 * be common. Other sessions (all families but `currentFamilyId`) are revoked; the notice is queued.
 */
export async function changePassword(
  ctx: AppContext,
  actor: { userId: string; currentFamilyId?: string },
  input: { currentPassword: string; newPassword: string },
  meta: RequestMeta & { linkBase: string },
): Promise<void> {
  const user = await repo.findUserById(ctx.db, actor.userId);
  if (!user) throw sessionInvalid();
  // Wrong current passwords count like failed sign-ins: the same lockout, the same 429.
  await assertNotLockedOut(ctx, user.email, meta.ip);
  if (!(await bcrypt.compare(input.currentPassword, user.passwordHash))) {
    await repo.insertAudit(ctx.db, { action: AUDIT_ACTIONS.passwordChangeRefused, userId: user.id, actorEmail: user.email, ip: meta.ip });
    throw new BadRequestError(
      AUTH_MESSAGES.currentPasswordIncorrect,
      [{ path: 'currentPassword', message: AUTH_MESSAGES.currentPasswordIncorrect }],
      PROBLEM_CODES.currentPasswordIncorrect,
    );
  }
  assertNotCommon(input.newPassword, 'newPassword');
  const hash = await hashPassword(ctx, input.newPassword);
  await ctx.db.transaction(async (trx) => {
    await repo.updatePasswordHash(trx, user.id, hash);
    const revoked = await repo.revokeUserSessions(trx, user.id, 'password_changed', actor.currentFamilyId);
    await repo.insertAudit(trx, {
      action: AUDIT_ACTIONS.passwordChanged,
      userId: user.id,
      actorEmail: user.email,
      ip: meta.ip,
      details: { via: 'change', sessionsRevoked: revoked },
    });
    await ctx.mailer.enqueue(trx, passwordChangedMail(user.email, `${meta.linkBase}/auth?mode=login`));
  });
}
