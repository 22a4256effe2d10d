import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/knex';
import type { NotificationSubscriber } from '../../db/notifications';
import * as repo from './api-keys.repository';

/**
 * API-key principals (ARCHITECTURE §10): the second kind of caller beside a signed-in user (`Principal`).
 * A warehouse system presents `bcc_<prefix>_<secret>`; the key is found by its SHA-256 (http/api-key-auth.ts
 * authenticates it). Kept here, below http/ and the modules that use it, with the cache of key rows.
 */

/** The caller of an `auth: 'apiKey'` route: the key and its board or store (it reaches that store, or every store of that board). */
export interface ApiKeyPrincipal {
  kind: 'apiKey';
  apiKeyId: string;
  name: string;
  boardId: number | null;
  storeId: number | null;
  scopes: Set<string>;
  /** May make synthetic test events outside test and development (POST /integrations/test-events). */
  sandbox?: boolean;
}

/** SHA-256 hex of a presented key (what api_keys.key_hash stores). */
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** A key row as the authentication reads it. */
export interface KeyRow {
  id: string;
  name: string;
  board_id: number | null;
  store_id: number | null;
  scopes: string[];
  sandbox: boolean;
  /** Epoch ms of the last recorded use (null: never). */
  lastUsedMs: number | null;
}

/**
 * Key principals by key hash, for as long as the notification listener hears `api_keys_changed` (`apiKeyChanges`):
 * each change of a key row (revoked, deleted, rescoped) is announced by a trigger on `api_keys_changed`
 * and drops the entry at once; without a listener nothing is cached (every call reads `api_keys`). Entries
 * also expire after a minute.
 */
const principals = new LRUCache<string, KeyRow>({ max: 10_000, ttl: 60_000 });
let cacheLive = false;
/** Counts changes heard: a row read before a change is not cached after it. */
let changes = 0;

/** Drops one cached key (its hash), or all with `*` (the payload of `api_keys_changed`). */
export function forgetApiKey(keyHash: string): void {
  changes++;
  if (keyHash === '*') principals.clear();
  else principals.delete(keyHash);
}

/** The active (unrevoked) key of hash `keyHash`, from the cache while it is live; undefined when none. */
export async function findApiKey(db: Db, keyHash: string): Promise<KeyRow | undefined> {
  const hit = cacheLive ? principals.get(keyHash) : undefined;
  if (hit) return hit;
  const seen = changes;
  const row = await repo.activeKeyByHash(db, keyHash);
  if (!row) return undefined;
  const key: KeyRow = { ...row, lastUsedMs: row.last_used_at ? new Date(row.last_used_at).getTime() : null };
  if (cacheLive && changes === seen) principals.set(keyHash, key);
  return key;
}

/**
 * The key cache's side of the notification listener (db/notifications.ts): principals are cached only while
 * it is listening on `api_keys_changed`, each notification drops its key (the payload is the key's hash, `*`
 * for all), and losing the connection clears and disables the cache until it is back. A revoked key is
 * thus refused by every process as soon as its change commits.
 */
export const apiKeyChanges: NotificationSubscriber = {
  channels: ['api_keys_changed'],
  onNotification: (_channel, payload) => forgetApiKey(payload || '*'),
  onListening: () => {
    forgetApiKey('*');
    cacheLive = true;
  },
  onLost: () => {
    cacheLive = false;
    forgetApiKey('*');
  },
};

/** Records that the key `id` was used now (api_keys.last_used_at; the caller limits it to once a minute). */
export async function touchApiKeyUse(db: Db, id: string): Promise<void> {
  await repo.touchLastUsed(db, id);
}
