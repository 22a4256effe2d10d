import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import { UnauthenticatedError } from '../http/errors';

/** Access tokens (ARCHITECTURE §4): signed by the auth module, verified by the http/ authentication. */

export interface AccessTokenClaims {
  sub: string;
  email: string;
  sid?: string;
}

/** Signs a short-lived HS256 access token (ARCHITECTURE §4). Returns the token and its expiry (epoch seconds). */
export function signAccessToken(secret: string, ttlSeconds: number, claims: AccessTokenClaims) {
  const now = Math.floor(Date.now() / 1000);
  const token = jwt.sign({ email: claims.email, sid: claims.sid }, secret, {
    algorithm: 'HS256',
    subject: claims.sub,
    expiresIn: ttlSeconds,
  });
  return { token, expiresAt: now + ttlSeconds };
}

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
  try {
    const p = jwt.verify(token, hmacKey(secret), { algorithms: ['HS256'] }) as jwt.JwtPayload;
    if (typeof p.exp !== 'number') throw new Error('no expiry');
    if (typeof p.sub !== 'string' || !UUID.test(p.sub)) throw new Error('no user id subject');
    if (typeof p.sid !== 'string' || !UUID.test(p.sid)) throw new Error('no session id');
    return { sub: p.sub, email: String(p.email ?? ''), sid: p.sid };
  } catch {
    throw new UnauthenticatedError('Your session is invalid or has expired. Please sign in again.');
  }
}
