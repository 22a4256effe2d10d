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
  const res = await db.raw<{ rows: { id: number; created: boolean }[] }>(
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

/** Inserts a charge's payments row (its merchant reference is the order number); returns its id. */
export async function insertPayment(db: Db, p: PaymentInsert): Promise<number> {
  const [row] = await db('payments')
    .insert({
      order_id: p.orderId,
      kind: 'charge',
      merchant_reference: db('orders').where({ id: p.orderId }).select('order_number'),
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

/** The newest approved charge of an order (brand and last 4 for the receipt); undefined when none. */
export async function findApprovedPayment(
  db: Db,
  orderId: number,
): Promise<{ cardBrand: string | null; cardLast4: string | null; gatewayReference: string | null } | undefined> {
  return db('payments')
    .where({ order_id: orderId, status: 'approved', kind: 'charge' })
    .orderBy('id', 'desc')
    .first('card_brand as cardBrand', 'card_last4 as cardLast4', 'gateway_reference as gatewayReference');
}

/** Moves the order's newest pending charge row to its outcome; false when there was none. */
export async function settlePendingPayment(
  db: Db,
  orderId: number,
  o: { status: 'approved' | 'declined' | 'error'; resultCode: string; verbiage: string; gatewayReference: string | null },
): Promise<boolean> {
  const row = await db('payments').where({ order_id: orderId, status: 'pending', kind: 'charge' }).orderBy('id', 'desc').first('id');
  if (!row) return false;
  await db('payments')
    .where({ id: row.id })
    .update({ status: o.status, result_code: o.resultCode, verbiage: o.verbiage, gateway_reference: o.gatewayReference });
  return true;
}

/** The order's newest charge row; undefined when none. */
export async function findLatestPayment(
  db: Db,
  orderId: number,
): Promise<
  { gateway: string; status: string; verbiage: string | null; gatewayReference: string | null; cardLast4: string | null } | undefined
> {
  return db('payments')
    .where({ order_id: orderId, kind: 'charge' })
    .orderBy('id', 'desc')
    .first('gateway', 'status', 'verbiage', 'gateway_reference as gatewayReference', 'card_last4 as cardLast4');
}

/** A payments row as GET /orders/{id} lists it. */
export interface PaymentRecordRow {
  kind: 'charge' | 'refund';
  gateway: string;
  amount: string;
  status: 'pending' | 'approved' | 'declined' | 'error';
  merchantReference: string | null;
  gatewayReference: string | null;
  resultCode: string | null;
  verbiage: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
  attemptedAt: Date;
}

/** Every payments row of an order (charges and its refund), oldest first. */
export async function findPayments(db: Db, orderId: number): Promise<PaymentRecordRow[]> {
  return db('payments')
    .where({ order_id: orderId })
    .orderBy('id')
    .select(
      'kind',
      'gateway',
      'amount',
      'status',
      'merchant_reference as merchantReference',
      'gateway_reference as gatewayReference',
      'result_code as resultCode',
      'verbiage',
      'card_brand as cardBrand',
      'card_last4 as cardLast4',
      'attempted_at as attemptedAt',
    );
}

/**
 * Records a refund attempt as the order's one refund row (partial unique index): inserted as `pending`,
 * or an earlier refused attempt set back to `pending` with `attempted_at` now. Call under the order's row lock.
 */
export async function startRefund(
  db: Db,
  r: { orderId: number; gateway: string; amount: string; merchantReference: string },
): Promise<void> {
  await db.raw(
    `INSERT INTO payments (order_id, kind, gateway, amount, currency, status, merchant_reference, attempted_at)
     VALUES (?, 'refund', ?, ?, '840', 'pending', ?, now())
     ON CONFLICT (order_id) WHERE kind = 'refund' DO UPDATE
       SET status = 'pending', gateway = EXCLUDED.gateway, amount = EXCLUDED.amount, merchant_reference = EXCLUDED.merchant_reference,
           result_code = NULL, verbiage = NULL, gateway_reference = NULL, attempted_at = now()`,
    [r.orderId, r.gateway, r.amount, r.merchantReference],
  );
}

/**
 * Moves the order's refund row to its outcome (from pending, or from an earlier refusal when the gateway
 * turns out to have refunded after all); false when there is none or it is approved already.
 */
export async function settleRefund(
  db: Db,
  orderId: number,
  o: { status: 'approved' | 'declined' | 'error'; resultCode: string; verbiage: string; gatewayReference: string | null },
): Promise<boolean> {
  const n = await db('payments')
    .where({ order_id: orderId, kind: 'refund' })
    .whereNot('status', 'approved')
    .update({ status: o.status, result_code: o.resultCode, verbiage: o.verbiage, gateway_reference: o.gatewayReference });
  return n > 0;
}

/** The order's refund row (reference and when it was last attempted); undefined when none. */
export async function findRefund(
  db: Db,
  orderId: number,
): Promise<{ status: string; merchantReference: string | null; attemptedAt: Date } | undefined> {
  return db('payments')
    .where({ order_id: orderId, kind: 'refund' })
    .first('status', 'merchant_reference as merchantReference', 'attempted_at as attemptedAt');
}
