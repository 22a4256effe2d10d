import type { RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import type { Db } from '../db/knex';
import { findPrincipal, type Principal } from '../modules/access/access.repository';
import { ForbiddenError, UnauthenticatedError } from './errors';

declare module 'express-serve-static-core' {
  interface Request {
    /** The signed-in user, set by `authenticate`. */
    auth?: Principal;
  }
}

export interface AccessTokenClaims { sub: string; email: string; sid?: string }

/** Signs a short-lived HS256 access token (ARCHITECTURE §4). Returns the token and its expiry (epoch seconds). */
export function signAccessToken(secret: string, ttlSeconds: number, claims: AccessTokenClaims) {
  const now = Math.floor(Date.now() / 1000);
  const token = jwt.sign({ email: claims.email, sid: claims.sid }, secret, { algorithm: 'HS256', subject: claims.sub, expiresIn: ttlSeconds });
  return { token, expiresAt: now + ttlSeconds };
}

/** Verifies a bearer token; throws UnauthenticatedError when tampered, expired or malformed. */
export function verifyAccessToken(secret: string, token: string): AccessTokenClaims {
  try {
    const p = jwt.verify(token, secret, { algorithms: ['HS256'] }) as jwt.JwtPayload;
    if (typeof p.sub !== 'string') throw new Error('no subject');
    return { sub: p.sub, email: String(p.email ?? ''), sid: p.sid };
  } catch {
    throw new UnauthenticatedError('Your session is invalid or has expired. Please sign in again.');
  }
}

/**
 * Requires `Authorization: Bearer <jwt>`; loads the user and permission codes once per request into
 * `req.auth`. Inactive or deleted users are refused with 401.
 */
export function authenticate(db: Db, secret: string): RequestHandler {
  return async (req, _res, next) => {
    const header = req.headers.authorization ?? '';
    const m = /^Bearer\s+(.+)$/i.exec(header);
    if (!m) throw new UnauthenticatedError();
    const claims = verifyAccessToken(secret, m[1].trim());
    const principal = await findPrincipal(db, claims.sub);
    if (!principal || !principal.isActive) throw new UnauthenticatedError('Your session is invalid or has expired. Please sign in again.');
    req.auth = principal;
    next();
  };
}

/** Passes when the signed-in user holds any one of `codes` (ARCHITECTURE §4); else 403. */
export function requirePermission(...codes: string[]): RequestHandler {
  return (req, _res, next) => {
    const held = req.auth?.permissions;
    if (!held) throw new UnauthenticatedError();
    if (!codes.some((c) => held.has(c))) throw new ForbiddenError();
    next();
  };
}

/** The signed-in principal; for handlers behind `authenticate`. */
export function principalOf(req: { auth?: Principal }): Principal {
  if (!req.auth) throw new UnauthenticatedError();
  return req.auth;
}
