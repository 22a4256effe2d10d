import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { LRUCache } from 'lru-cache';
import { PROBLEM_CODES } from '@portal/contracts';
import type { Db } from '../db/knex';
import type { NotificationSubscriber } from '../db/notifications';
import * as apiKeys from '../modules/access/api-keys.repository';
import { ForbiddenError, TooManyRequestsError, UnauthenticatedError } from './errors';
import { PostgresRateLimitStore } from './rate-limit-store';

/**
 * API-key principals (ARCHITECTURE §10): warehouse systems call /integrations with
 * `Authorization: Bearer bcc_<prefix>_<secret>`. The key is looked up by its SHA-256; revoked or unknown
 * → 401; a user's JWT is no key → 401; a key without the route's scope → 403 `api_key_scope_missing`.
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

type KeyedRequest = Request & { apiKey?: ApiKeyPrincipal };

interface KeyRow {
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

async function findKey(db: Db, keyHash: string): Promise<KeyRow | undefined> {
  const hit = cacheLive ? principals.get(keyHash) : undefined;
  if (hit) return hit;
  const seen = changes;
  const row = await apiKeys.findActiveByHash(db, keyHash);
  if (!row) return undefined;
  const key: KeyRow = { ...row, lastUsedMs: row.last_used_at ? new Date(row.last_used_at).getTime() : null };
  if (cacheLive && changes === seen) principals.set(keyHash, key);
  return key;
}

/** Authenticates the API key into `req.auth` and checks `scopes` (all required). */
export function authenticateApiKey(db: Db, scopes: readonly string[] = []): RequestHandler {
  return async (req, _res, next) => {
    const m = /^Bearer\s+(bcc_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{20,})$/i.exec(req.headers.authorization ?? '');
    if (!m) throw new UnauthenticatedError('A valid API key is required.');
    const row = await findKey(db, hashApiKey(m[1]));
    if (!row) throw new UnauthenticatedError('The API key is invalid or has been revoked.');
    const principal: ApiKeyPrincipal = {
      kind: 'apiKey',
      apiKeyId: row.id,
      name: row.name,
      boardId: row.board_id,
      storeId: row.store_id,
      scopes: new Set(row.scopes),
      sandbox: row.sandbox,
    };
    const missing = scopes.filter((s) => !principal.scopes.has(s));
    if (missing.length) throw new ForbiddenError(`This API key lacks the scope ${missing.join(', ')}.`, PROBLEM_CODES.apiKeyScopeMissing);
    // Last use, at most once a minute per key (no write on every call).
    if (row.lastUsedMs === null || Date.now() - row.lastUsedMs > 60_000) {
      row.lastUsedMs = Date.now();
      await apiKeys.touchLastUsed(db, row.id);
    }
    (req as unknown as { auth: ApiKeyPrincipal }).auth = principal;
    (req as KeyedRequest).apiKey = principal;
    next();
  };
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

/**
 * The per-key rate limit (ARCHITECTURE §10), one per app for every API-key route: express-rate-limit keyed
 * by the key's id, counted in PostgreSQL (`PostgresRateLimitStore`), so a key's requests count against one
 * budget of `perMinute` whatever the route and whichever API process answers. Answers carry the IETF
 * draft-8 `RateLimit-Policy` and `RateLimit` headers; past the limit 429 `rate_limited` with Retry-After.
 */
export function apiKeyRateLimit(db: Db, perMinute: number): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: 'api-key',
    store: new PostgresRateLimitStore(db, 'api-key'),
    keyGenerator: (req) => (req as KeyedRequest).apiKey?.apiKeyId ?? 'anonymous',
    handler: (req, _res, next) => {
      const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      next(new TooManyRequestsError(reset ? (reset.getTime() - Date.now()) / 1000 : 60));
    },
  });
}
