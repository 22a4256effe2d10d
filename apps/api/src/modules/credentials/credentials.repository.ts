import type { Knex } from 'knex';
import type { PaymentCredential } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { PaymentCredentialRow } from '../../db/tables/admin';

/** Queries of the Credentials tab (spec 002 §6, §7 payment_credentials); the only place with its SQL. */

type Q = Db | Knex.Transaction;

/** Never selects `encrypted_payload`: lists and answers carry no secret, not even its ciphertext. */
const select = (db: Q) =>
  db('payment_credentials as pc')
    .join('stores as s', 's.id', 'pc.store_id')
    .leftJoin('users as cu', 'cu.id', 'pc.created_by')
    .leftJoin('users as uu', 'uu.id', 'pc.updated_by')
    .select<PaymentCredential[]>(
      'pc.id',
      'pc.store_id as storeId',
      's.name as storeName',
      'pc.app_code as appCode',
      'pc.environment',
      'pc.credential_type as credentialType',
      'pc.dek_secret_name as dekSecretName',
      db.raw(`to_char(pc.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`),
      db.raw(`to_char(pc.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt"`),
      'cu.email as createdBy',
      'uu.email as updatedBy',
    );

/** Credentials of the stores in `within` (a subquery of store ids; null: all), newest first, without the secret. */
export async function findCredentials(db: Q, within: Knex.QueryBuilder | null): Promise<PaymentCredential[]> {
  const q = select(db).orderBy('pc.created_at', 'desc').orderBy('pc.id', 'desc');
  return within ? q.whereIn('pc.store_id', within) : q;
}

/** One credential without the secret, or undefined. */
export async function findCredential(db: Q, id: number): Promise<PaymentCredential | undefined> {
  const [row] = await select(db).where('pc.id', id).limit(1);
  return row;
}

/** A credential with its encrypted payload, within `within` (null: any store); undefined when absent or out of reach. */
export async function findWithPayload(
  db: Q,
  id: number,
  within: Knex.QueryBuilder | null,
): Promise<{ id: number; storeId: number; credentialType: string; encryptedPayload: string } | undefined> {
  const q = db('payment_credentials as pc').where('pc.id', id);
  if (within) q.whereIn('pc.store_id', within);
  const [row] = await q
    .select<{ id: number; storeId: number; credentialType: string; encryptedPayload: string }[]>(
      'pc.id',
      'pc.store_id as storeId',
      'pc.credential_type as credentialType',
      'pc.encrypted_payload as encryptedPayload',
    )
    .limit(1);
  return row;
}

/** The writable columns of a credential. */
export type CredentialFields = Partial<Omit<PaymentCredentialRow, 'id' | 'created_at' | 'updated_at'>>;

/** Inserts a credential; returns its id. Unique per store × app × environment × type (23505). */
export async function insertCredential(db: Q, row: CredentialFields): Promise<number> {
  const [r] = await db('payment_credentials').insert(row).returning('id');
  return r.id;
}

/** Updates the given columns of a credential and its updated_at. */
export async function updateCredential(db: Q, id: number, patch: CredentialFields): Promise<void> {
  await db('payment_credentials')
    .where({ id })
    .update({ ...patch, updated_at: db.fn.now() });
}
