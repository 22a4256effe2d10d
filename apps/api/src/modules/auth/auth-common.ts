import { createHash, randomBytes } from 'node:crypto';
import { PROBLEM_CODES, AUTH_MESSAGES } from '@portal/contracts';
import { UnauthenticatedError } from '../../http/errors';

/**
 * What the sign-in, session, password and recovery services of this module share: the request facts, the audit
 * actions of identity events, the lockout window, token hashing and the errors they raise.
 */

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

export const FAILED_LOGIN_WINDOW_SECONDS = 15 * 60;

export const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
export const newOpaqueToken = () => randomBytes(32).toString('base64url');

export const invalidCredentials = () => new UnauthenticatedError(AUTH_MESSAGES.invalidCredentials, PROBLEM_CODES.invalidCredentials);
export const sessionInvalid = () => new UnauthenticatedError(AUTH_MESSAGES.sessionExpired, PROBLEM_CODES.sessionInvalid);
export const retryAfter = (oldest: Date | null, windowSeconds: number) =>
  oldest ? (oldest.getTime() + windowSeconds * 1000 - Date.now()) / 1000 : windowSeconds;
