import { createHash, randomBytes } from 'node:crypto';
import { INVITATION_TTL_DAYS } from '@portal/contracts';

/** What the invitation services share: the request facts they take, and the link token and its expiry. */

/** Where a request came from (audit) and the origin mail links use. */
export interface InvitationMeta {
  ip?: string | null;
  linkBase: string;
}

/** SHA-256 hex of a link token (what the invitations table stores). */
export const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
/** A new link token: 32 random bytes, base64url. */
export const newToken = () => randomBytes(32).toString('base64url');
/** When an invitation made or renewed now expires (INVITATION_TTL_DAYS, 7 days). */
export const expiry = () => new Date(Date.now() + INVITATION_TTL_DAYS * 24 * 3600 * 1000);
/** The accept link of a token, under `linkBase`. */
export const acceptLink = (linkBase: string, token: string) => `${linkBase}/invitation/accept?inv=${token}`;
