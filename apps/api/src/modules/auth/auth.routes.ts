import type { CookieOptions, Request, Response } from 'express';
import { Passport } from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import { rateLimit } from '../../http/rate-limit';
import { z } from 'zod';
import {
  AUTH_MESSAGES,
  loginBodySchema,
  passwordRecoveryBodySchema,
  passwordResetBodySchema,
  tokenResponseSchema,
  type LoginBody,
} from '@portal/contracts';
import type { AppContext } from '../../context';
import type { Config } from '../../config';
import { UnauthenticatedError } from '../../http/errors';
import { loginLockouts } from '../../http/metrics';
import { route } from '../../http/route';
import * as authService from './auth.service';

/** The refresh token cookie: httpOnly, SameSite=Strict, Secure in production, only sent to /api/v1/auth. */
export const REFRESH_COOKIE = 'portal_refresh';
const REFRESH_COOKIE_PATH = '/api/v1/auth';
const refreshCookie = z.object({ [REFRESH_COOKIE]: z.string().optional() });

function cookieOptions(config: Config): CookieOptions {
  return { httpOnly: true, sameSite: 'strict', secure: config.production, path: REFRESH_COOKIE_PATH };
}
/**
 * The presence flag `portal_signed_in=1`: readable by the SPA, holds no secret, lives as long as
 * the refresh cookie. A page load without it knows it is signed out and does not call /auth/refresh (a
 * signed-out start is not an error). The refresh cookie alone decides whether a session exists.
 */
export const SIGNED_IN_FLAG_COOKIE = 'portal_signed_in';
function flagOptions(config: Config): CookieOptions {
  return { httpOnly: false, sameSite: 'strict', secure: config.production, path: '/' };
}
function setRefreshCookie(res: Response, config: Config, session: authService.IssuedSession) {
  res.cookie(REFRESH_COOKIE, session.refreshToken, { ...cookieOptions(config), maxAge: session.refreshMaxAgeSeconds * 1000 });
  res.cookie(SIGNED_IN_FLAG_COOKIE, '1', { ...flagOptions(config), maxAge: session.refreshMaxAgeSeconds * 1000 });
}
function clearRefreshCookie(res: Response, config: Config) {
  res.clearCookie(REFRESH_COOKIE, cookieOptions(config));
  res.clearCookie(SIGNED_IN_FLAG_COOKIE, flagOptions(config));
}
const presentedRefreshToken = (req: Request): string | undefined => {
  const v = (req.cookies as Record<string, unknown> | undefined)?.[REFRESH_COOKIE];
  return typeof v === 'string' && v ? v : undefined;
};

/** Where the request came from (sessions, audit) and the origin its mail links use. */
export function requestMeta(req: Request, config: Config) {
  return {
    ip: req.ip,
    userAgent: req.get('user-agent'),
    linkBase: authService.linkBaseFor(config, { protocol: req.protocol, host: req.get('host') }),
  };
}

/**
 * A per-IP limiter (http/rate-limit.ts) whose 429 says AUTH_MESSAGES.tooManyRequests (`signIn`: counted as a
 * sign-in lockout), counted in PostgreSQL under `prefix` so every API replica shares one budget per IP.
 */
function ipLimiter(
  ctx: AppContext,
  prefix: string,
  windowSeconds: number,
  limit: number,
  opts: { onlyFailures?: boolean; signIn?: boolean } = {},
) {
  return rateLimit({
    windowSeconds,
    limit,
    onlyFailures: opts.onlyFailures,
    message: AUTH_MESSAGES.tooManyRequests,
    onRefused: opts.signIn ? () => loginLockouts.inc({ rule: 'ip' }) : undefined,
    shared: { db: ctx.db, prefix },
  });
}

/** The passport-local strategy of an app (built once per context: its verify callback needs the context). */
const passports = new WeakMap<AppContext, InstanceType<typeof Passport>>();
function passportFor(ctx: AppContext): InstanceType<typeof Passport> {
  let passport = passports.get(ctx);
  if (!passport) {
    passport = new Passport();
    passport.use(
      new LocalStrategy(
        { usernameField: 'login', passwordField: 'password', session: false, passReqToCallback: true },
        (req, login, password, done) => {
          const by: authService.SignInIdentifier = (req.body as { via?: string }).via === 'phone' ? { phone: login } : { email: login };
          authService.verifyCredentials(ctx, by, password, requestMeta(req, ctx.config)).then((user) => done(null, user), done);
        },
      ),
    );
    passports.set(ctx, passport);
  }
  return passport;
}

/** Runs the passport-local strategy on an already parsed body; resolves the verified user. */
const passwordSignIn = (ctx: AppContext, req: Request, res: Response, body: LoginBody) =>
  new Promise<{ id: string; email: string }>((resolve, reject) => {
    // One username field for passport-local: the email or the E.164 phone, and which of the two it is.
    req.body = { login: body.email ?? body.phone, via: body.email === undefined ? 'phone' : 'email', password: body.password };
    passportFor(ctx).authenticate('local', { session: false }, (err: unknown, user: { id: string; email: string } | false) => {
      if (err) reject(err);
      else if (!user) reject(new UnauthenticatedError(AUTH_MESSAGES.invalidCredentials));
      else resolve(user);
    })(req, res, reject);
  });

const tags = ['auth'];
const tooMany = 'Too many requests (Retry-After)';

/**
 * /api/v1/auth: sign-in, refresh rotation, sign-out, password recovery and reset (ARCHITECTURE §4, §5).
 * Per-IP limits: failed sign-ins (generous, one office shares an IP), recovery requests, reset attempts.
 */
export const authRoutes = [
  route({
    method: 'post',
    path: '/auth/login',
    scope: 'public',
    tags,
    auth: 'public',
    body: loginBodySchema,
    summary: 'Sign in with email or phone and password (passport-local, bcrypt)',
    description:
      'Exactly one of email or phone (E.164, or a US national form). Answers the token response; the refresh token is set only as an httpOnly SameSite=Strict cookie. Unknown email or phone and wrong password give the same 401.',
    response: { description: 'Signed in', schema: tokenResponseSchema },
    errors: { 401: 'Invalid email, phone or password, or account deactivated', 429: 'Too many failed sign-ins (Retry-After)' },
    // Built once per app: the bcrypt warm-up (so the first sign-in is not slower) and the failed sign-in limit.
    before: (ctx) => {
      authService.warmUp(ctx);
      // Every attempt counts per IP too, successful ones included: bcrypt is the costliest thing the API does.
      return [
        ipLimiter(ctx, 'login-ip', 15 * 60, ctx.config.authIpLoginLimit, { signIn: true }),
        ipLimiter(ctx, 'login-failed-ip', 15 * 60, ctx.config.authIpFailedLoginLimit, { onlyFailures: true, signIn: true }),
      ];
    },
    handler: async (_actor, { body }, { ctx, req, res }) => {
      const user = await passwordSignIn(ctx, req, res, body);
      const session = await authService.startSession(ctx, user, requestMeta(req, ctx.config));
      setRefreshCookie(res, ctx.config, session);
      return session.tokens;
    },
  }),
  route({
    method: 'post',
    path: '/auth/refresh',
    scope: 'public',
    tags,
    auth: 'public',
    cookies: refreshCookie,
    summary: 'Rotate the refresh token (cookie) and get a new access token',
    response: { description: 'Rotated', schema: tokenResponseSchema },
    errors: { 401: 'No, expired, revoked or reused refresh token' },
    handler: async (_actor, _input, { ctx, req, res }) => {
      try {
        const session = await authService.refreshSession(ctx, presentedRefreshToken(req), requestMeta(req, ctx.config));
        setRefreshCookie(res, ctx.config, session);
        return session.tokens;
      } catch (err) {
        if (err instanceof UnauthenticatedError) clearRefreshCookie(res, ctx.config); // refused: the cookie is dead; a 500 keeps it
        throw err;
      }
    },
  }),
  route({
    method: 'post',
    path: '/auth/logout',
    scope: 'public',
    tags,
    auth: 'public',
    cookies: refreshCookie,
    summary: 'Revoke the session of the refresh cookie and clear it',
    response: { status: 204, description: 'Signed out' },
    handler: async (_actor, _input, { ctx, req, res }) => {
      await authService.signOut(ctx, presentedRefreshToken(req), requestMeta(req, ctx.config));
      clearRefreshCookie(res, ctx.config);
    },
  }),
  route({
    method: 'post',
    path: '/auth/password-recovery',
    scope: 'public',
    tags,
    auth: 'public',
    body: passwordRecoveryBodySchema,
    summary: 'Mail a one-time password reset link (answers 202 for any well-formed email)',
    response: { status: 202, description: 'Accepted: a link is mailed when an active account has this email' },
    errors: { 429: tooMany },
    before: (ctx) => [ipLimiter(ctx, 'recovery-ip', 60 * 60, ctx.config.authRecoveryIpLimit)],
    handler: async (_actor, { body }, { ctx, req }) => {
      await authService.requestPasswordRecovery(ctx, body.email, requestMeta(req, ctx.config));
    },
  }),
  route({
    method: 'post',
    path: '/auth/password-reset',
    scope: 'public',
    tags,
    auth: 'public',
    body: passwordResetBodySchema,
    summary: 'Set a new password with a mailed token; revokes every session',
    response: { status: 204, description: 'Password set' },
    errors: { 429: tooMany },
    before: (ctx) => [ipLimiter(ctx, 'reset-failed-ip', 15 * 60, ctx.config.authRecoveryIpLimit, { onlyFailures: true })],
    handler: async (_actor, { body }, { ctx, req }) => {
      await authService.resetPassword(ctx, body, requestMeta(req, ctx.config));
    },
  }),
];
