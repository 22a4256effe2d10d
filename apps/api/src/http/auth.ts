import { createSecretKey, type KeyObject } from 'node:crypto';
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

const hmacKeys = new Map<string, KeyObject>();
/**
 * The HMAC key object of `secret`, built once: given a string, jsonwebtoken first tries (and fails) to parse
 * it as a public key on every verify, which costs more than the signature check itself.
 */
function hmacKey(secret: string): KeyObject {
  let key = hmacKeys.get(secret);
  if (!key) { key = createSecretKey(Buffer.from(secret)); hmacKeys.set(secret, key); }
  return key;
}

/** Verifies a bearer token; throws UnauthenticatedError when tampered, expired or malformed. */
export function verifyAccessToken(secret: string, token: string): AccessTokenClaims {
  try {
    const p = jwt.verify(token, hmacKey(secret), { algorithms: ['HS256'] }) as jwt.JwtPayload;
    if (typeof p.sub !== 'string') throw new Error('no subject');
    return { sub: p.sub, email: String(p.email ?? ''), sid: p.sid };
  } catch {
    throw new UnauthenticatedError('Your session is invalid or has expired. Please sign in again.');
  }
}

export interface AuthenticateOptions {
  /**
   * Reuse a user's loaded principal (active flag and permission codes) for this many milliseconds.
   * Only for read-only hot paths (the catalog): a revoked permission or deactivation takes effect there
   * after at most this delay. 0 (the default) loads it on every request.
   */
  principalCacheMs?: number;
}

/**
 * Requires `Authorization: Bearer <jwt>`; loads the user and permission codes once per request into
 * `req.auth` (or from a short cache, see AuthenticateOptions). Inactive or deleted users are refused with 401.
 */
export function authenticate(db: Db, secret: string, opts: AuthenticateOptions = {}): RequestHandler {
  const ttl = opts.principalCacheMs ?? 0;
  const cache = new Map<string, { principal: Principal | undefined; until: number }>();
  const load = async (userId: string) => {
    if (ttl <= 0) return findPrincipal(db, userId);
    const now = Date.now();
    const hit = cache.get(userId);
    if (hit && hit.until > now) return hit.principal;
    const principal = await findPrincipal(db, userId);
    if (cache.size >= 10_000) cache.clear();
    cache.set(userId, { principal, until: now + ttl });
    return principal;
  };
  return async (req, _res, next) => {
    const header = req.headers.authorization ?? '';
    const m = /^Bearer\s+(.+)$/i.exec(header);
    if (!m) throw new UnauthenticatedError();
    const claims = verifyAccessToken(secret, m[1].trim());
    const principal = await load(claims.sub);
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
