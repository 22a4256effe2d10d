import { randomUUID } from 'node:crypto';
import bcrypt from 'bcrypt';
import { PROBLEM_CODES, AUTH_MESSAGES, PHONE_MESSAGES, type TokenResponse } from '@portal/contracts';
import type { AppContext } from '../../context';
import type { Db } from '../../db/knex';
import { signAccessToken } from '../../lib/access-token';
import { ConflictError, UnauthenticatedError } from '../../http/errors';
import { uniqueViolation } from '../../db/unique-violation';
import { loginFailures } from '../../http/metrics';
import * as repo from './auth.repository';
import { AUDIT_ACTIONS, invalidCredentials, newOpaqueToken, sessionInvalid, sha256, type RequestMeta } from './auth-common';
import { assertNotLockedOut, dummyHash, hashPassword } from './passwords.service';

/**
 * Sign-in and sessions (ARCHITECTURE §4): checking credentials, opening, rotating and closing refresh-token
 * session families, where mail links point, and the audit and session helpers other identity modules use.
 * Passwords (hashing, lockout, change) are in passwords.service.ts, recovery in recovery.service.ts; both are
 * re-exported here, so other modules keep using this service.
 */
export { AUDIT_ACTIONS, type RequestMeta } from './auth-common';
export {
  warmUp,
  isCommonPassword,
  hashPassword,
  assertNotLockedOut,
  REVEAL_ACCOUNT_FAILURE_LIMIT,
  confirmCurrentPassword,
  changePassword,
} from './passwords.service';
export { requestPasswordRecovery, PASSWORD_RESET_TEMPLATE, renderPasswordResetMail, resetPassword } from './recovery.service';

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

/** Appends an audit row (exported for the other identity modules: profile, outlet requests). */
export function recordAudit(db: Db, entry: repo.AuditEntry): Promise<void> {
  return repo.insertAudit(db, entry);
}

/**
 * Refuses (409 `phone_taken`) a profile phone (E.164) another active account signs in with (issue 26 §7);
 * null passes. Call before saving a profile; `phoneTakenError` maps the race the unique index catches.
 */
export async function assertPhoneFree(db: Db, userId: string, phone: string | null): Promise<void> {
  if (phone && (await repo.phoneTakenByOther(db, phone, userId)))
    throw new ConflictError(PHONE_MESSAGES.phoneTaken, PROBLEM_CODES.phoneTaken);
}

/** The 409 `phone_taken` for a unique violation of `users_phone_active_key` (two saves at once); else `e` itself. */
export function phoneTakenError(e: unknown): unknown {
  return uniqueViolation(e)?.constraint === 'users_phone_active_key'
    ? new ConflictError(PHONE_MESSAGES.phoneTaken, PROBLEM_CODES.phoneTaken)
    : e;
}

/**
 * Revokes every live refresh session of a user (their next refresh answers 401; access tokens carrying
 * those sessions stop at once). For other modules, e.g. deactivation in admin users. Returns the count.
 */
export function revokeAllSessions(db: Db, userId: string, reason: string): Promise<number> {
  return repo.revokeUserSessions(db, userId, reason);
}

/** Who signs in: an email (citext) or a phone in E.164 (the contract normalised it). */
export type SignInIdentifier = { email: string; phone?: undefined } | { phone: string; email?: undefined };

/**
 * Checks an email or phone and a password (the passport-local verify step, ARCHITECTURE §4; issue 26 §7).
 * Unknown identifier and wrong password cost one bcrypt compare each and raise the same 401
 * `invalid_credentials`; an inactive account raises 401 `account_deactivated` only after the password matched.
 * The lockout policy (`assertNotLockedOut`) raises 429 before any compare, keyed by the account's email when
 * the phone names an account (one budget whichever identifier is tried), else by the identifier as given.
 * Failures are audited with the client IP.
 */
export async function verifyCredentials(
  ctx: AppContext,
  by: SignInIdentifier,
  password: string,
  meta: RequestMeta,
): Promise<{ id: string; email: string }> {
  const { db, config } = ctx;
  const byPhone = by.phone !== undefined ? await repo.findUserByPhone(db, by.phone) : undefined;
  const identifier = by.email ?? byPhone?.email ?? by.phone!;
  await assertNotLockedOut(ctx, identifier, meta.ip);
  const user = by.email !== undefined ? await repo.findUserByEmail(db, by.email) : byPhone;
  const matches = await bcrypt.compare(password, user?.passwordHash ?? (await dummyHash(config.bcryptCost)));
  if (!user || !matches) {
    const reason = user ? 'wrong_password' : by.email !== undefined ? 'unknown_email' : 'unknown_phone';
    await repo.insertAudit(db, {
      action: AUDIT_ACTIONS.loginFailed,
      userId: user?.id,
      actorEmail: identifier,
      ip: meta.ip,
      details: by.phone !== undefined ? { reason, via: 'phone' } : { reason },
    });
    loginFailures.inc({ reason });
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
