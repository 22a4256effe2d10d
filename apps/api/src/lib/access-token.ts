import jwt from 'jsonwebtoken';

/** Access tokens (ARCHITECTURE §4): signed here for the auth module; verified by http/auth.ts. */

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
