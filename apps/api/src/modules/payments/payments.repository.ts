import type { Db } from '../../db/knex';

/** A payment_credentials row (spec 002 §3), payload still encrypted. */
export interface CredentialRow {
  id: number;
  appCode: 'BCC' | 'IMS';
  environment: 'test' | 'prod';
  storeId: number;
  credentialType: 'Monetra' | 'Stripe' | 'PayPal';
  dekSecretName: string;
  encryptedPayload: string;
}

/** The credential of a store for app × environment × type; undefined when none. */
export async function findCredential(
  db: Db,
  storeId: number,
  appCode: string,
  environment: string,
  credentialType: string,
): Promise<CredentialRow | undefined> {
  return db('payment_credentials')
    .where({ store_id: storeId, app_code: appCode, environment, credential_type: credentialType })
    .first(
      'id',
      'app_code as appCode',
      'environment',
      'store_id as storeId',
      'credential_type as credentialType',
      'dek_secret_name as dekSecretName',
      'encrypted_payload as encryptedPayload',
    );
}

/** Inserts or replaces (same store × app × environment × type) a credential; returns its id and whether it was new. */
export async function upsertCredential(
  db: Db,
  row: Omit<CredentialRow, 'id'> & { userId?: string | null },
): Promise<{ id: number; created: boolean }> {
  const res = await db.raw(
    `INSERT INTO payment_credentials (app_code, environment, store_id, credential_type, dek_secret_name, encrypted_payload, created_by, updated_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (store_id, app_code, environment, credential_type) DO UPDATE
       SET dek_secret_name = EXCLUDED.dek_secret_name, encrypted_payload = EXCLUDED.encrypted_payload,
           updated_by = EXCLUDED.updated_by, updated_at = now()
     RETURNING id, (xmax = 0) AS created`,
    [
      row.appCode,
      row.environment,
      row.storeId,
      row.credentialType,
      row.dekSecretName,
      row.encryptedPayload,
      row.userId ?? null,
      row.userId ?? null,
    ],
  );
  return { id: res.rows[0].id, created: res.rows[0].created };
}

/** A payments row to write: gateway outcome, brand and last 4 digits only (never the card number). */
export interface PaymentInsert {
  orderId: number;
  gateway: string;
  amount: string;
  status: 'pending' | 'approved' | 'declined' | 'error';
  resultCode: string | null;
  verbiage: string | null;
  gatewayReference: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
}

/** Inserts a payments row; returns its id. */
export async function insertPayment(db: Db, p: PaymentInsert): Promise<number> {
  const [row] = await db('payments')
    .insert({
      order_id: p.orderId,
      gateway: p.gateway,
      amount: p.amount,
      currency: '840',
      status: p.status,
      result_code: p.resultCode,
      verbiage: p.verbiage,
      gateway_reference: p.gatewayReference,
      card_brand: p.cardBrand,
      card_last4: p.cardLast4,
    })
    .returning('id');
  return row.id;
}

/** The newest approved payment of an order (brand and last 4 for the receipt); undefined when none. */
export async function findApprovedPayment(
  db: Db,
  orderId: number,
): Promise<{ cardBrand: string | null; cardLast4: string | null; gatewayReference: string | null } | undefined> {
  return db('payments')
    .where({ order_id: orderId, status: 'approved' })
    .orderBy('id', 'desc')
    .first('card_brand as cardBrand', 'card_last4 as cardLast4', 'gateway_reference as gatewayReference');
}

/** Moves the order's newest pending payment row to its outcome; false when there was none. */
export async function settlePendingPayment(
  db: Db,
  orderId: number,
  o: { status: 'approved' | 'declined' | 'error'; resultCode: string; verbiage: string; gatewayReference: string | null },
): Promise<boolean> {
  const row = await db('payments').where({ order_id: orderId, status: 'pending' }).orderBy('id', 'desc').first('id');
  if (!row) return false;
  await db('payments')
    .where({ id: row.id })
    .update({ status: o.status, result_code: o.resultCode, verbiage: o.verbiage, gateway_reference: o.gatewayReference });
  return true;
}

/** The order's newest payment row; undefined when none. */
export async function findLatestPayment(
  db: Db,
  orderId: number,
): Promise<
  { gateway: string; status: string; verbiage: string | null; gatewayReference: string | null; cardLast4: string | null } | undefined
> {
  return db('payments')
    .where({ order_id: orderId })
    .orderBy('id', 'desc')
    .first('gateway', 'status', 'verbiage', 'gateway_reference as gatewayReference', 'card_last4 as cardLast4');
}
