import { createSecretKey, type KeyObject } from 'node:crypto';
import type { RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/knex';
import { findPrincipal, type Principal } from '../modules/access/access.service';
import type { AccessTokenClaims } from '../lib/access-token';
import type { ApiKeyPrincipal } from '../modules/access/api-keys';
import { createPrincipalCache, loadPrincipal } from '../modules/access/principal-cache';
import { isApiKeyPrincipal } from './api-key-auth';
import { ForbiddenError, UnauthenticatedError } from './errors';

declare module 'express-serve-static-core' {
  interface Request {
    /** The caller: the signed-in user (set by `authenticate`) or an API key (set by `authenticateApiKey`, `kind: 'apiKey'`). */
    auth?: Principal | ApiKeyPrincipal;
    /** The API key of an API-key route (set by `authenticateApiKey`), the rate limiter's key. */
    apiKey?: ApiKeyPrincipal;
  }
}

export { signAccessToken, type AccessTokenClaims } from '../lib/access-token';
/** The principal caches' notification subscriber (main.ts starts it with the listener). */
export { principalChanges } from '../modules/access/principal-cache';

/** HMAC key objects by secret (one in practice; a handful at most across tests). */
const hmacKeys = new LRUCache<string, KeyObject>({ max: 16 });
/**
 * The HMAC key object of `secret`, built once: given a string, jsonwebtoken first tries (and fails) to parse
 * it as a public key on every verify, which costs more than the signature check itself.
 */
function hmacKey(secret: string): KeyObject {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret));
    hmacKeys.set(secret, key);
  }
  return key;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Verifies a bearer token; throws UnauthenticatedError when tampered, expired or malformed. Every token
 * this API signs has an `exp`, a user-id `sub` and a session-family `sid` (all UUIDs): a token lacking
 * any of them is refused, so none can outlive its session.
 */
export function verifyAccessToken(secret: string, token: string): Required<AccessTokenClaims> {
  return verifyWithExpiry(secret, token).claims;
}

/** verifyAccessToken's claims with the token's `exp` (epoch seconds). */
function verifyWithExpiry(secret: string, token: string): { claims: Required<AccessTokenClaims>; exp: number } {
  try {
    const p = jwt.verify(token, hmacKey(secret), { algorithms: ['HS256'] });
    if (typeof p === 'string') throw new Error('not a claims object');
    if (typeof p.exp !== 'number') throw new Error('no expiry');
    if (typeof p.sub !== 'string' || !UUID.test(p.sub)) throw new Error('no user id subject');
    if (typeof p.sid !== 'string' || !UUID.test(p.sid)) throw new Error('no session id');
    return { claims: { sub: p.sub, email: String(p.email ?? ''), sid: p.sid }, exp: p.exp };
  } catch {
    throw new UnauthenticatedError('Your session is invalid or has expired. Please sign in again.');
  }
}

export interface AuthenticateOptions {
  /**
   * Reuse a user's loaded principal (active flag, permission codes, session liveness) for this many
   * milliseconds (never past the session's end). A revoked permission, deactivation or sign-out takes effect
   * in another process as soon as its notification arrives (modules/access/principal-cache.ts), in this one
   * before the changing request answers (http/route.ts drops the cache), and, without a listener, after at most
   * this delay (the catalog's read-only routes) or at once with `onlyWhileHeard`. 0 (the default) loads it on
   * every request.
   */
  principalCacheMs?: number;
  /** Use the cache only while the notification listener is connected (every other route than the catalog's). */
  onlyWhileHeard?: boolean;
}

/**
 * Requires `Authorization: Bearer <jwt>`; loads the user, permission codes and whether the token's
 * session (`sid`, a family of auth_sessions) is still live, once per request into `req.auth` (or from a
 * short cache, see AuthenticateOptions). Inactive or deleted users and signed-out, revoked or expired
 * sessions are refused with 401: logout, password reset and deactivation end the access token at once.
 */
export function authenticate(db: Db, secret: string, opts: AuthenticateOptions = {}): RequestHandler {
  const ttl = opts.principalCacheMs ?? 0;
  // Up to 10,000 users' principals, each for `ttl` ms, dropped at once when a change to one is announced by
  // any process (modules/access/principal-cache.ts); a miss or an expired entry loads again.
  const cache = ttl > 0 ? createPrincipalCache(ttl) : undefined;
  const heard = { onlyWhileHeard: opts.onlyWhileHeard };
  const load = (userId: string, sessionId: string) =>
    cache
      ? loadPrincipal(cache, userId, sessionId, () => findPrincipal(db, userId, sessionId), heard)
      : findPrincipal(db, userId, sessionId);
  // Tokens already verified with this secret (up to 10,000): the same text verifies the same way, so a repeat
  // skips the HMAC and the JSON parsing; its expiry is checked again on every use.
  const verified = new LRUCache<string, { claims: Required<AccessTokenClaims>; expMs: number }>({ max: 10_000 });
  const verify = (token: string) => {
    const hit = verified.get(token);
    if (hit && hit.expMs > Date.now()) return hit.claims;
    const { claims, exp } = verifyWithExpiry(secret, token);
    verified.set(token, { claims, expMs: exp * 1000 });
    return claims;
  };
  return async (req, _res, next) => {
    const header = req.headers.authorization ?? '';
    const m = /^Bearer\s+(.+)$/i.exec(header);
    if (!m) throw new UnauthenticatedError();
    const claims = verify(m[1].trim());
    const principal = await load(claims.sub, claims.sid);
    if (!principal || !principal.isActive || !principal.sessionLive)
      throw new UnauthenticatedError('Your session is invalid or has expired. Please sign in again.');
    req.auth = principal;
    next();
  };
}

/** Passes when the signed-in user holds any one of `codes` (ARCHITECTURE §4); else 403. */
export function requirePermission(...codes: string[]): RequestHandler {
  return (req, _res, next) => {
    const caller = req.auth;
    const held = caller && !isApiKeyPrincipal(caller) ? caller.permissions : undefined;
    if (!held) throw new UnauthenticatedError();
    if (!codes.some((c) => held.has(c))) throw new ForbiddenError();
    next();
  };
}
