import type { Db } from '../../db/knex';

/** An active (not revoked) api_keys row as the key check reads it (http/api-key-auth.ts). */
export interface ActiveApiKeyRow {
  id: string;
  name: string;
  board_id: number | null;
  store_id: number | null;
  scopes: string[];
  sandbox: boolean;
  last_used_at: Date | null;
}

/** The not-revoked key whose SHA-256 hex is `keyHash`; undefined when none. */
export async function findActiveByHash(db: Db, keyHash: string): Promise<ActiveApiKeyRow | undefined> {
  return db('api_keys')
    .where({ key_hash: keyHash })
    .whereNull('revoked_at')
    .first<ActiveApiKeyRow | undefined>('id', 'name', 'board_id', 'store_id', 'scopes', 'sandbox', 'last_used_at');
}

/** Records the key `id`'s use now (last_used_at). */
export async function touchLastUsed(db: Db, id: string): Promise<void> {
  await db('api_keys').where({ id }).update({ last_used_at: db.fn.now() });
}
