import type { Db } from '../../db/knex';

/** The active (unrevoked) `api_keys` row of SHA-256 hex `keyHash`, with the columns authentication needs; undefined when none. */
export function activeKeyByHash(db: Db, keyHash: string) {
  return db('api_keys')
    .where({ key_hash: keyHash })
    .whereNull('revoked_at')
    .first('id', 'name', 'board_id', 'store_id', 'scopes', 'sandbox', 'last_used_at');
}

/** Records the key `id`'s use now (last_used_at). */
export async function touchLastUsed(db: Db, id: string): Promise<void> {
  await db('api_keys').where({ id }).update({ last_used_at: db.fn.now() });
}
