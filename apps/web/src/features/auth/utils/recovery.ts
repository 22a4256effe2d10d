/** What a recovery link carries: the one-time token (null when the link has none). */
export interface RecoveryLink {
  token: string | null;
}

/**
 * Reads a password-recovery link (spec 000 §2): `intent=recovery`, or `type=recovery` with tokens, in
 * the query or the hash. Our mail links look like /auth?intent=recovery#token=…; the token may also be
 * given as access_token. Returns null when the URL is not a recovery link.
 */
export function readRecoveryLink(search: string, hash: string): RecoveryLink | null {
  const q = new URLSearchParams(search.replace(/^\?/, ''));
  const h = new URLSearchParams(hash.replace(/^#/, ''));
  const get = (k: string) => q.get(k) ?? h.get(k);
  const token = get('token') ?? get('access_token');
  const isRecovery = get('intent') === 'recovery' || (get('type') === 'recovery' && (token !== null || get('refresh_token') !== null));
  return isRecovery ? { token: token || null } : null;
}

/** True when the hash (or query) names a recovery link: the root path then forwards to /auth. */
export function hasRecoveryType(search: string, hash: string): boolean {
  const q = new URLSearchParams(search.replace(/^\?/, ''));
  const h = new URLSearchParams(hash.replace(/^#/, ''));
  return [q, h].some((p) => p.get('type') === 'recovery' || p.get('intent') === 'recovery');
}
