import { Router, type CookieOptions, type Request, type Response } from 'express';
import { Passport } from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import { rateLimit } from 'express-rate-limit';
import { z } from 'zod';
import {
  AUTH_MESSAGES, loginBodySchema, passwordRecoveryBodySchema, passwordResetBodySchema, tokenResponseSchema, type LoginBody,
} from '@portal/contracts';
import type { AppContext } from '../../context';
import type { Config } from '../../config';
import { TooManyRequestsError, UnauthenticatedError } from '../../http/errors';
import { documentRoute, jsonBody, jsonResponse, problemResponse } from '../../http/openapi';
import * as authService from './auth.service';

/** The refresh token cookie: httpOnly, SameSite=Strict, Secure in production, only sent to /api/v1/auth. */
export const REFRESH_COOKIE = 'portal_refresh';
const REFRESH_COOKIE_PATH = '/api/v1/auth';
const refreshCookie = z.object({ [REFRESH_COOKIE]: z.string().optional() });

documentRoute({
  method: 'post', path: '/auth/login', summary: 'Sign in with email and password (passport-local, bcrypt)', tags: ['auth'], secured: false,
  description: 'Answers the token response; the refresh token is set only as an httpOnly SameSite=Strict cookie. Unknown email and wrong password give the same 401.',
  request: { body: jsonBody(loginBodySchema) },
  responses: { 200: jsonResponse('Signed in', tokenResponseSchema), 401: problemResponse('Invalid email or password, or account deactivated'), 429: problemResponse('Too many failed sign-ins (Retry-After)') },
});
documentRoute({
  method: 'post', path: '/auth/refresh', summary: 'Rotate the refresh token (cookie) and get a new access token', tags: ['auth'], secured: false,
  request: { cookies: refreshCookie },
  responses: { 200: jsonResponse('Rotated', tokenResponseSchema), 401: problemResponse('No, expired, revoked or reused refresh token') },
});
documentRoute({
  method: 'post', path: '/auth/logout', summary: 'Revoke the session of the refresh cookie and clear it', tags: ['auth'], secured: false,
  request: { cookies: refreshCookie },
  responses: { 204: { description: 'Signed out' } },
});
documentRoute({
  method: 'post', path: '/auth/password-recovery', summary: 'Mail a one-time password reset link (answers 202 for any well-formed email)', tags: ['auth'], secured: false,
  request: { body: jsonBody(passwordRecoveryBodySchema) },
  responses: { 202: { description: 'Accepted: a link is mailed when an active account has this email' }, 429: problemResponse('Too many requests (Retry-After)') },
});
documentRoute({
  method: 'post', path: '/auth/password-reset', summary: 'Set a new password with a mailed token; revokes every session', tags: ['auth'], secured: false,
  request: { body: jsonBody(passwordResetBodySchema) },
  responses: { 204: { description: 'Password set' }, 429: problemResponse('Too many requests (Retry-After)') },
});

function cookieOptions(config: Config): CookieOptions {
  return { httpOnly: true, sameSite: 'strict', secure: config.production, path: REFRESH_COOKIE_PATH };
}
function setRefreshCookie(res: Response, config: Config, session: authService.IssuedSession) {
  res.cookie(REFRESH_COOKIE, session.refreshToken, { ...cookieOptions(config), maxAge: session.refreshMaxAgeSeconds * 1000 });
}
function clearRefreshCookie(res: Response, config: Config) {
  res.clearCookie(REFRESH_COOKIE, cookieOptions(config));
}
const presentedRefreshToken = (req: Request): string | undefined => {
  const v = (req.cookies as Record<string, unknown> | undefined)?.[REFRESH_COOKIE];
  return typeof v === 'string' && v ? v : undefined;
};

/** Where the request came from (sessions, audit) and the origin its mail links use. */
export function requestMeta(req: Request, config: Config) {
  return { ip: req.ip, userAgent: req.get('user-agent'), linkBase: authService.linkBaseFor(config, { protocol: req.protocol, host: req.get('host') }) };
}

/** A per-IP express-rate-limit limiter that answers 429 problem+json with Retry-After. */
function ipLimiter(windowSeconds: number, limit: number, opts: { onlyFailures?: boolean } = {}) {
  return rateLimit({
    windowMs: windowSeconds * 1000,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skipSuccessfulRequests: Boolean(opts.onlyFailures),
    handler: (req, _res, next) => {
      const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      next(new TooManyRequestsError(reset ? (reset.getTime() - Date.now()) / 1000 : windowSeconds, AUTH_MESSAGES.tooManyRequests));
    },
  });
}

/**
 * /api/v1/auth: sign-in, refresh rotation, sign-out, password recovery and reset (ARCHITECTURE §4, §5).
 * Per-IP limits: failed sign-ins (generous, one office shares an IP), recovery requests, reset attempts.
 */
export function authRoutes(ctx: AppContext) {
  const { config } = ctx;
  const r = Router();
  authService.warmUp(ctx);

  const passport = new Passport();
  passport.use(new LocalStrategy({ usernameField: 'email', passwordField: 'password', session: false, passReqToCallback: true },
    (req, email, password, done) => {
      authService.verifyCredentials(ctx, email, password, requestMeta(req, config)).then((user) => done(null, user), done);
    }));
  /** Runs the passport-local strategy on an already parsed body; resolves the verified user. */
  const passwordSignIn = (req: Request, res: Response, body: LoginBody) => new Promise<{ id: string; email: string }>((resolve, reject) => {
    req.body = body;
    passport.authenticate('local', { session: false }, (err: unknown, user: { id: string; email: string } | false) => {
      if (err) reject(err);
      else if (!user) reject(new UnauthenticatedError(AUTH_MESSAGES.invalidCredentials));
      else resolve(user);
    })(req, res, reject);
  });

  const failedLoginLimit = ipLimiter(15 * 60, config.authIpFailedLoginLimit, { onlyFailures: true });
  const recoveryLimit = ipLimiter(60 * 60, config.authRecoveryIpLimit);
  const resetLimit = ipLimiter(15 * 60, config.authRecoveryIpLimit, { onlyFailures: true });

  r.post('/login', failedLoginLimit, async (req, res) => {
    const body = loginBodySchema.parse(req.body);
    const user = await passwordSignIn(req, res, body);
    const session = await authService.startSession(ctx, user, requestMeta(req, config));
    setRefreshCookie(res, config, session);
    res.json(session.tokens);
  });

  r.post('/refresh', async (req, res) => {
    try {
      const session = await authService.refreshSession(ctx, presentedRefreshToken(req), requestMeta(req, config));
      setRefreshCookie(res, config, session);
      res.json(session.tokens);
    } catch (err) {
      if (err instanceof UnauthenticatedError) clearRefreshCookie(res, config); // refused: the cookie is dead; a 500 keeps it
      throw err;
    }
  });

  r.post('/logout', async (req, res) => {
    await authService.signOut(ctx, presentedRefreshToken(req), requestMeta(req, config));
    clearRefreshCookie(res, config);
    res.status(204).end();
  });

  r.post('/password-recovery', recoveryLimit, async (req, res) => {
    const { email } = passwordRecoveryBodySchema.parse(req.body);
    await authService.requestPasswordRecovery(ctx, email, requestMeta(req, config));
    res.status(202).end();
  });

  r.post('/password-reset', resetLimit, async (req, res) => {
    const input = passwordResetBodySchema.parse(req.body);
    await authService.resetPassword(ctx, input, requestMeta(req, config));
    res.status(204).end();
  });

  return r;
}
