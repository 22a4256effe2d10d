import type { RequestHandler } from 'express';
import type { Principal } from '../modules/access/access.service';
import { PROBLEM_CODES } from '@portal/contracts';
import type { Db } from '../db/knex';
import { findApiKey, hashApiKey, touchApiKeyUse, type ApiKeyPrincipal } from '../modules/access/api-keys';
import { ForbiddenError, UnauthenticatedError } from './errors';
import { rateLimit } from './rate-limit';

export { apiKeyChanges, forgetApiKey, hashApiKey, type ApiKeyPrincipal } from '../modules/access/api-keys';

/**
 * API-key principals (ARCHITECTURE §10): warehouse systems call /integrations with
 * `Authorization: Bearer bcc_<prefix>_<secret>`. The key is looked up by its SHA-256; revoked or unknown
 * → 401; a user's JWT is no key → 401; a key without the route's scope → 403 `api_key_scope_missing`.
 */

/** Is this caller an API key (and not a signed-in user)? */
export const isApiKeyPrincipal = (caller: Principal | ApiKeyPrincipal): caller is ApiKeyPrincipal =>
  'kind' in caller && caller.kind === 'apiKey';

/** Authenticates the API key into `req.auth` and checks `scopes` (all required). */
export function authenticateApiKey(db: Db, scopes: readonly string[] = []): RequestHandler {
  return async (req, _res, next) => {
    const m = /^Bearer\s+(bcc_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{20,})$/i.exec(req.headers.authorization ?? '');
    if (!m) throw new UnauthenticatedError('A valid API key is required.');
    const row = await findApiKey(db, hashApiKey(m[1]));
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
      await touchApiKeyUse(db, row.id);
    }
    req.auth = principal;
    req.apiKey = principal;
    next();
  };
}

/**
 * The per-key rate limit (ARCHITECTURE §10), one per app for every API-key route: express-rate-limit keyed
 * by the key's id, counted in PostgreSQL (`PostgresRateLimitStore`), so a key's requests count against one
 * budget of `perMinute` whatever the route and whichever API process answers. Answers carry the IETF
 * draft-8 `RateLimit-Policy` and `RateLimit` headers; past the limit 429 `rate_limited` with Retry-After.
 */
export function apiKeyRateLimit(db: Db, perMinute: number): RequestHandler {
  return rateLimit({
    windowSeconds: 60,
    limit: perMinute,
    identifier: 'api-key',
    shared: { db, prefix: 'api-key' },
    key: (req) => req.apiKey?.apiKeyId ?? 'anonymous',
  });
}
