import { createHash, randomBytes, randomUUID } from 'node:crypto';
import bcrypt from 'bcrypt';
import { LRUCache } from 'lru-cache';
import { dictionary } from '@zxcvbn-ts/language-common';
import { PROBLEM_CODES, AUTH_MESSAGES, PASSWORD_MAX_BYTES, utf8Length, type TokenResponse } from '@portal/contracts';
import type { AppContext } from '../../context';
import type { Db } from '../../db/knex';
import { signAccessToken } from '../../lib/access-token';
import { BadRequestError, TooManyRequestsError, UnauthenticatedError } from '../../http/errors';
import { loginFailures, loginLockouts } from '../../http/metrics';
import { registerMailRenderer, type RenderDeps } from '../../lib/mail/render';
import * as repo from './auth.repository';
import { passwordChangedMail, passwordResetMail } from './auth.mail';

/** Where a request came from, for sessions and the audit log. */
export interface RequestMeta {
  ip?: string;
  userAgent?: string;
}

/** The audit actions of identity events. */
export const AUDIT_ACTIONS = {
  login: 'auth.login',
  loginFailed: 'auth.login_failed',
  loginRefusedInactive: 'auth.login_refused_inactive',
  logout: 'auth.logout',
  refreshRefused: 'auth.refresh_refused',
  sessionRevokedReuse: 'auth.session_revoked_reuse',
  recoveryRequested: 'auth.password_recovery_requested',
  resetIssued: 'auth.password_reset_issued',
  passwordChanged: 'auth.password_changed',
  passwordChangeRefused: 'auth.password_change_refused',
  /** A wrong current password given to reveal a payment credential (issue 23 §7): a password failure like a failed sign-in. */
  credentialRevealRefused: 'auth.credential_reveal_refused',
} as const;

/** A new or rotated session: the token response body and the refresh token for the cookie. */
export interface IssuedSession {
  tokens: TokenResponse;
  refreshToken: string;
  /** How long the refresh cookie may live: the sooner of the idle timeout and the absolute lifetime. */
  refreshMaxAgeSeconds: number;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/**
 * The origin mail links point at: PUBLIC_URL when set; else the request's own origin when it is a
 * loopback host or an allowed CORS origin (never an arbitrary Host header, which would let anyone
 * send a victim a reset link to their own site); else http://localhost:PORT.
 */
export function linkBaseFor(config: AppContext['config'], request: { protocol: string; host?: string }): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  if (request.host) {
    try {
      const u = new URL(`${request.protocol}://${request.host}`);
      if (LOOPBACK_HOSTS.has(u.hostname) || config.corsOrigins.includes(u.origin)) return u.origin;
    } catch {
      /* not a usable origin */
    }
  }
  return `http://localhost:${config.port}`;
}

const FAILED_LOGIN_WINDOW_SECONDS = 15 * 60;
const RECOVERY_WINDOW_SECONDS = 60 * 60;
const RESET_TOKEN_TTL_SECONDS = 60 * 60;

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
const newOpaqueToken = () => randomBytes(32).toString('base64url');

/** Dummy hashes by bcrypt cost (one cost in practice; tests vary it). */
const dummyHashes = new LRUCache<number, Promise<string>>({ max: 8 });
/** A bcrypt hash of a random secret at `cost`, compared against for unknown emails so timing matches. */
function dummyHash(cost: number): Promise<string> {
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

function assertNotCommon(password: string, field: string) {
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

/** Appends an audit row (exported for the other identity modules: profile, outlet requests). */
export function recordAudit(db: Db, entry: repo.AuditEntry): Promise<void> {
  return repo.insertAudit(db, entry);
}

/**
 * Revokes every live refresh session of a user (their next refresh answers 401; access tokens carrying
 * those sessions stop at once). For other modules, e.g. deactivation in admin users. Returns the count.
 */
export function revokeAllSessions(db: Db, userId: string, reason: string): Promise<number> {
  return repo.revokeUserSessions(db, userId, reason);
}

const invalidCredentials = () => new UnauthenticatedError(AUTH_MESSAGES.invalidCredentials, PROBLEM_CODES.invalidCredentials);
const sessionInvalid = () => new UnauthenticatedError(AUTH_MESSAGES.sessionExpired, PROBLEM_CODES.sessionInvalid);
const retryAfter = (oldest: Date | null, windowSeconds: number) =>
  oldest ? (oldest.getTime() + windowSeconds * 1000 - Date.now()) / 1000 : windowSeconds;

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
 * Checks an email and password (the passport-local verify step, ARCHITECTURE §4). Unknown email and wrong
 * password cost one bcrypt compare each and raise the same 401 `invalid_credentials`; an inactive
 * account raises 401 `account_deactivated` only after the password matched. The lockout policy
 * (`assertNotLockedOut`) raises 429 before any compare. Failures are audited with the client IP.
 */
export async function verifyCredentials(
  ctx: AppContext,
  email: string,
  password: string,
  meta: RequestMeta,
): Promise<{ id: string; email: string }> {
  const { db, config } = ctx;
  await assertNotLockedOut(ctx, email, meta.ip);
  const user = await repo.findUserByEmail(db, email);
  const matches = await bcrypt.compare(password, user?.passwordHash ?? (await dummyHash(config.bcryptCost)));
  if (!user || !matches) {
    await repo.insertAudit(db, {
      action: AUDIT_ACTIONS.loginFailed,
      userId: user?.id,
      actorEmail: email,
      ip: meta.ip,
      details: { reason: user ? 'wrong_password' : 'unknown_email' },
    });
    loginFailures.inc({ reason: user ? 'wrong_password' : 'unknown_email' });
    throw invalidCredentials();
  }
  if (!user.isActive) {
    await repo.insertAudit(db, { action: AUDIT_ACTIONS.loginRefusedInactive, userId: user.id, actorEmail: user.email, ip: meta.ip });
    loginFailures.inc({ reason: 'deactivated' });
    throw new UnauthenticatedError(AUTH_MESSAGES.deactivated, PROBLEM_CODES.accountDeactivated);
  }
  if (bcrypt.getRounds(user.passwordHash) < config.bcryptCost) {
    // A hash made at a lower cost is upgraded while the plain password is at hand.
    await repo.updatePasswordHash(db, user.id, await hashPassword(ctx, password));
  }
  return { id: user.id, email: user.email };
}

function tokenResponse(ctx: AppContext, user: { id: string; email: string }, familyId: string): TokenResponse {
  const ttl = ctx.config.accessTokenTtlSeconds;
  const { token, expiresAt } = signAccessToken(ctx.config.jwtSecret, ttl, { sub: user.id, email: user.email, sid: familyId });
  return { access_token: token, token_type: 'bearer', expires_in: ttl, expires_at: expiresAt, user: { id: user.id, email: user.email } };
}

function cookieMaxAge(ctx: AppContext, absoluteExpiry: Date) {
  const left = Math.floor((absoluteExpiry.getTime() - Date.now()) / 1000);
  return Math.max(0, Math.min(ctx.config.refreshIdleTimeoutSeconds, left));
}

/**
 * Opens a new session family for a verified user: records last_login_at, stores the SHA-256 of a
 * 32-byte refresh token, audits the sign-in, and returns the token response (RFC 6749 names).
 */
export async function startSession(ctx: AppContext, user: { id: string; email: string }, meta: RequestMeta): Promise<IssuedSession> {
  const familyId = randomUUID();
  const refreshToken = newOpaqueToken();
  const expiresAt = new Date(Date.now() + ctx.config.refreshAbsoluteLifetimeSeconds * 1000);
  await ctx.db.transaction(async (trx) => {
    await repo.updateLastLogin(trx, user.id);
    await repo.insertSession(trx, {
      userId: user.id,
      familyId,
      tokenHash: sha256(refreshToken),
      expiresAt,
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    await repo.insertAudit(trx, {
      action: AUDIT_ACTIONS.login,
      userId: user.id,
      actorEmail: user.email,
      ip: meta.ip,
      entityType: 'auth_session',
      entityId: familyId,
    });
  });
  return { tokens: tokenResponse(ctx, user, familyId), refreshToken, refreshMaxAgeSeconds: cookieMaxAge(ctx, expiresAt) };
}

type RefreshOutcome = { kind: 'issued'; session: IssuedSession } | { kind: 'refused' };

/**
 * Rotates a refresh token (ARCHITECTURE §4). The presented token is marked rotated and a successor in
 * the same family is issued. A token already rotated within the reuse interval (≤ 10 s) gets a fresh
 * sibling without revoking anything (two tabs refreshing at once); after it, the whole family is
 * revoked and audited (theft detection). Unknown, revoked, idle-timed-out or past-lifetime tokens and
 * inactive users: 401 `session_invalid`.
 */
export async function refreshSession(ctx: AppContext, presented: string | undefined, meta: RequestMeta): Promise<IssuedSession> {
  if (!presented) throw sessionInvalid();
  const { config } = ctx;
  const outcome = await ctx.db.transaction(async (trx): Promise<RefreshOutcome> => {
    const row = await repo.findSessionByHashForUpdate(trx, sha256(presented));
    if (!row || row.revokedAt) return { kind: 'refused' };
    const now = Date.now();
    const refuse = async (reason: string, action: string = AUDIT_ACTIONS.refreshRefused): Promise<RefreshOutcome> => {
      await repo.revokeFamily(trx, row.familyId, reason);
      await repo.insertAudit(trx, {
        action,
        userId: row.userId,
        ip: meta.ip,
        entityType: 'auth_session',
        entityId: row.familyId,
        details: { reason },
      });
      return { kind: 'refused' };
    };
    if (now >= row.expiresAt.getTime()) return refuse('absolute_lifetime');
    const user = await repo.findUserById(trx, row.userId);
    if (!user || !user.isActive) return refuse('user_inactive');
    if (row.rotatedAt) {
      if (now - row.rotatedAt.getTime() > config.refreshReuseIntervalSeconds * 1000)
        return refuse('reuse_detected', AUDIT_ACTIONS.sessionRevokedReuse);
    } else if (now - row.lastUsedAt.getTime() > config.refreshIdleTimeoutSeconds * 1000) {
      return refuse('idle_timeout');
    }
    const refreshToken = newOpaqueToken();
    const nextId = await repo.insertSession(trx, {
      userId: row.userId,
      familyId: row.familyId,
      tokenHash: sha256(refreshToken),
      expiresAt: row.expiresAt,
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    if (!row.rotatedAt) await repo.markRotated(trx, row.id, nextId);
    return {
      kind: 'issued',
      session: { tokens: tokenResponse(ctx, user, row.familyId), refreshToken, refreshMaxAgeSeconds: cookieMaxAge(ctx, row.expiresAt) },
    };
  });
  if (outcome.kind === 'refused') throw sessionInvalid();
  return outcome.session;
}

/** Revokes the family of the presented refresh token (if any) and audits the sign-out; never fails. */
export async function signOut(ctx: AppContext, presented: string | undefined, meta: RequestMeta): Promise<void> {
  if (!presented) return;
  await ctx.db.transaction(async (trx) => {
    const row = await repo.findSessionByHashForUpdate(trx, sha256(presented));
    if (!row) return;
    await repo.revokeFamily(trx, row.familyId, 'logout');
    await repo.insertAudit(trx, {
      action: AUDIT_ACTIONS.logout,
      userId: row.userId,
      ip: meta.ip,
      entityType: 'auth_session',
      entityId: row.familyId,
    });
  });
}

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
