import { LRUCache } from 'lru-cache';
import type { NotificationSubscriber } from '../../db/notifications';
import type { Principal } from './access.repository';

/**
 * The short-lived caches of loaded principals (http/auth.ts `principalCacheMs`: the catalog's read-only routes,
 * CATALOG_PRINCIPAL_CACHE_MS; every other signed-in route, PRINCIPAL_CACHE_MS, only while changes are heard)
 * and what empties them across API processes (issue 29 §3): the triggers of
 * migration 2026120100110001 announce on `principals_changed` every change a principal depends on (a grant
 * added or removed, a user deactivated, re-emailed or deleted, a session revoked; payload the user's id, `*`
 * for everyone), and `principalChanges` drops the user's entries in every cache of this process when the
 * notification arrives. A permission revoked through one replica is thus refused by the others at once rather
 * than after the cache's time-to-live, which remains the bound while the listener is down.
 */
export type PrincipalCache = LRUCache<string, { principal: Principal | undefined }>;

/** Is the notification listener connected (principalChanges), so every change to a principal is heard? */
let heard = false;
/** Are changes to principals being heard by this process now (see `onlyWhileHeard` of loadPrincipal)? */
export const principalChangesHeard = (): boolean => heard;

/** Every principal cache of this process (weakly: an app dropped by a test takes its cache with it). */
const caches = new Set<WeakRef<PrincipalCache>>();
/** Counts changes heard: a principal read before a change is not cached after it (see loadPrincipal). */
let changes = 0;

/** A principal cache of up to 10,000 entries (user id and session id) kept `ttlMs` each, registered for changes. */
export function createPrincipalCache(ttlMs: number): PrincipalCache {
  const cache: PrincipalCache = new LRUCache({ max: 10_000, ttl: ttlMs });
  caches.add(new WeakRef(cache));
  return cache;
}

const keyOf = (userId: string, sessionId: string) => `${userId}:${sessionId}`;

/**
 * The principal of `userId` signed in with session `sessionId`: from `cache`, else `load()` (kept unless a
 * change was heard while it loaded, so a principal read before a revocation is never kept after it; kept no
 * longer than its session lives, `sessionExpiresAt`). `onlyWhileHeard`: the cache is neither read nor written
 * while the notification listener is not connected (a change could go unheard): every call loads.
 */
export async function loadPrincipal(
  cache: PrincipalCache,
  userId: string,
  sessionId: string,
  load: () => Promise<Principal | undefined>,
  opts: { onlyWhileHeard?: boolean } = {},
): Promise<Principal | undefined> {
  if (opts.onlyWhileHeard && !heard) return load();
  const key = keyOf(userId, sessionId);
  const hit = cache.get(key);
  if (hit) return hit.principal;
  const seen = changes;
  const principal = await load();
  if (changes !== seen || (opts.onlyWhileHeard && !heard)) return principal;
  const untilSessionEnds = principal?.sessionExpiresAt === undefined ? Infinity : principal.sessionExpiresAt - Date.now();
  const ttl = Math.min(cache.ttl, untilSessionEnds);
  if (ttl >= 1) cache.set(key, { principal }, { ttl: Math.floor(ttl) });
  return principal;
}

/** Drops a user's cached principals (all their sessions) from every cache of this process, or everyone's with `*`. */
export function forgetPrincipals(userId: string): void {
  changes++;
  const prefix = `${userId}:`;
  for (const ref of caches) {
    const cache = ref.deref();
    if (!cache) {
      caches.delete(ref);
      continue;
    }
    if (userId === '*') cache.clear();
    else for (const key of cache.keys()) if (key.startsWith(prefix)) cache.delete(key);
  }
}

/**
 * The principal caches' side of the notification listener (db/notifications.ts): each `principals_changed`
 * drops its user's entries (`*`: all); on (re)connecting and on losing the connection everything is dropped,
 * since changes may have gone unheard in between. Without a listener the catalog's cache still expires after its TTL;
 * the other routes' cache (`onlyWhileHeard`) is not used at all.
 */
export const principalChanges: NotificationSubscriber = {
  channels: ['principals_changed'],
  onNotification: (_channel, payload) => forgetPrincipals(payload || '*'),
  onListening: () => {
    forgetPrincipals('*');
    heard = true;
  },
  onLost: () => {
    heard = false;
    forgetPrincipals('*');
  },
};
