import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/knex';
import { forgetApiKey, hashApiKey } from '../access/api-keys';
import { NotFoundError } from '../../http/errors';
import { assertScope, integrationReach } from '../access/integration-scope';
import type { Actor } from '../access/access.service';
import { recordAudit } from '../audit/audit.service';
import * as repo from './integrations.repository';
import type { ApiKeyRow } from '../../db/tables/integrations';

/**
 * API keys of warehouse integrations (ARCHITECTURE §10, issue 14 §2), managed by administrators at the stores and
 * boards they reach: listed (prefix and last use, never the key), created (the whole key in that answer only) and
 * revoked at once. Every change is audited.
 */

const keyView = (r: ApiKeyRow) => ({
  id: r.id,
  name: r.name,
  prefix: r.key_prefix,
  storeId: r.store_id,
  boardId: r.board_id,
  scopes: r.scopes,
  sandbox: Boolean(r.sandbox),
  createdAt: new Date(r.created_at).toISOString(),
  lastUsedAt: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
  revokedAt: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
});

/** GET /admin/api-keys: keys of the caller's stores and boards, newest first (prefix and last use; never the key). */
export async function listApiKeys(db: Db, a: Actor) {
  const rows = await repo.listApiKeys(db, integrationReach(db, a));
  return { items: rows.map(keyView) };
}

/**
 * POST /admin/api-keys: a key `bcc_<8-char prefix>_<32 random bytes base64url>`, stored as SHA-256;
 * the whole key is in this answer only. Audited.
 */
export async function createApiKey(
  db: Db,
  a: Actor,
  input: { name: string; storeId?: number | null; boardId?: number | null; scopes: string[]; sandbox?: boolean },
  ip: string | null,
) {
  await assertScope(db, a, input);
  const prefix = randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8);
  const key = `bcc_${prefix}_${randomBytes(32).toString('base64url')}`;
  return db.transaction(async (trx) => {
    const row = await repo.insertApiKey(trx, {
      name: input.name,
      key_prefix: prefix,
      key_hash: hashApiKey(key),
      store_id: input.storeId ?? null,
      board_id: input.storeId ? null : (input.boardId ?? null),
      scopes: input.scopes,
      sandbox: input.sandbox ?? false,
      created_by: a.userId,
    });
    await recordAudit(
      trx,
      { userId: a.userId },
      {
        action: 'api_key.created',
        entityType: 'api_key',
        entityId: row.id,
        ip,
        details: { name: input.name, prefix, scopes: input.scopes, storeId: row.store_id, boardId: row.board_id, sandbox: row.sandbox },
      },
    );
    return { ...keyView(row), key };
  });
}

/** DELETE /admin/api-keys/{id}: revoked at once (404 outside the caller's reach). Audited. */
export async function revokeApiKey(db: Db, a: Actor, id: string, ip: string | null): Promise<void> {
  const row = await repo.findApiKey(db, id, integrationReach(db, a));
  if (!row) throw new NotFoundError('API key not found');
  await db.transaction(async (trx) => {
    await repo.revokeApiKey(trx, id);
    await recordAudit(
      trx,
      { userId: a.userId },
      { action: 'api_key.revoked', entityType: 'api_key', entityId: id, ip, details: { prefix: row.key_prefix } },
    );
  });
  // This process refuses the key from now on; the others hear it from the api_keys trigger.
  forgetApiKey(row.key_hash);
}
