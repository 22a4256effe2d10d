import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../apps/api/src/db/knex';
import { signAccessToken } from '../apps/api/src/http/auth';

/**
 * An access token signed with the API's secret for a bench user, with the live session (auth_sessions
 * row) every access token must belong to (issue 8 §9): no sign-in round trip, no bcrypt in the setup.
 */
export async function benchToken(db: Db, secret: string, ttlSeconds: number, user: { id: string; email: string }): Promise<string> {
  const sid = randomUUID();
  await db('auth_sessions').insert({
    user_id: user.id,
    family_id: sid,
    token_hash: createHash('sha256').update(randomBytes(32)).digest('hex'),
    expires_at: new Date(Date.now() + ttlSeconds * 1000),
  });
  return signAccessToken(secret, ttlSeconds, { sub: user.id, email: user.email, sid }).token;
}
