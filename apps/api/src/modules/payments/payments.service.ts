import type { Card } from '@portal/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import { DEFAULT_DEK_NAME, decryptPayload, encryptPayload, parseMonetraCredentials, type MonetraCredentials } from './credentials';
import { createMonetraGateway } from './monetra-gateway';
import { cardBrand, cardLast4, type ChargeResult, type PaymentGateway } from './payment-gateway';
import { createTestGateway } from './test-gateway';
import * as repo from './payments.repository';

export type { ChargeLookup, ChargeResult, PaymentGateway, RefundResult } from './payment-gateway';
export { outcomeUnknown, cardLast4 as cardLast4Of, refundReferenceOf } from './payment-gateway';

// The payments module's face for other modules (checkout, orders, credentials): card readiness and credential payloads.
export { assertCardPaymentsReady, cardPaymentReadiness } from './readiness';
export { decryptPayload, encryptPayload, parseMonetraCredentials } from './credentials';
export { mapMonetraResult } from './monetra-gateway';

/** The app code of this portal's credentials (spec 002 §3: BCC or IMS). */
export const APP_CODE = 'BCC';

/**
 * The gateway for this process (ARCHITECTURE §6): the test gateway when config.paymentTestMode, else
 * Monetra at config.monetraUrl with each store's credentials for config.paymentEnvironment.
 */
export function gatewayFor(config: Config, db: Db): PaymentGateway {
  if (config.paymentTestMode) return createTestGateway(db);
  return createMonetraGateway({
    url: config.monetraUrl,
    timeoutMs: config.monetraTimeoutMs,
    credentialsFor: (storeId) => loadMonetraCredentials(db, config, storeId),
  });
}

/** The store's decrypted Monetra credentials for the configured environment; undefined when none. Throws on a bad payload. */
export async function loadMonetraCredentials(db: Db, config: Config, storeId: number): Promise<MonetraCredentials | undefined> {
  const row = await repo.findCredential(db, storeId, APP_CODE, config.paymentEnvironment, 'Monetra');
  if (!row) return undefined;
  return parseMonetraCredentials(decryptPayload(config.paymentCredentialsKey, row.encryptedPayload));
}

/**
 * Stores (or replaces) a store's Monetra credentials, encrypted with config.paymentCredentialsKey under
 * the recorded DEK name (ops CLI `npm run credentials:add`). Returns the row id and whether it was new.
 */
export async function saveMonetraCredentials(
  db: Db,
  config: Config,
  input: {
    storeId: number;
    environment: 'test' | 'prod';
    username: string;
    password: string;
    appCode?: 'BCC' | 'IMS';
    dekName?: string;
    userId?: string | null;
  },
): Promise<{ id: number; created: boolean }> {
  const payload = encryptPayload(config.paymentCredentialsKey, JSON.stringify({ username: input.username, password: input.password }));
  return repo.upsertCredential(db, {
    appCode: input.appCode ?? APP_CODE,
    environment: input.environment,
    storeId: input.storeId,
    credentialType: 'Monetra',
    dekSecretName: input.dekName ?? DEFAULT_DEK_NAME,
    encryptedPayload: payload,
    userId: input.userId ?? null,
  });
}

/**
 * Before a charge: the order's payment attempt as a `pending` payments row with gateway,
 * amount, card brand and last 4 digits, so whoever settles it later (the reconciler, "Check again") knows
 * the card without ever having had it. Returns the row id.
 */
export async function recordAttempt(db: Db, orderId: number, gateway: string, amount: string, card: Card): Promise<number> {
  return repo.insertPayment(db, {
    orderId,
    gateway,
    amount,
    status: 'pending',
    resultCode: null,
    verbiage: null,
    gatewayReference: null,
    cardBrand: cardBrand(card.cardNumber),
    cardLast4: cardLast4(card.cardNumber),
  });
}

/**
 * Records the gateway's outcome on the order's pending payment row (inserted with no card facts if the
 * attempt row is missing). `status`: approved | declined | error.
 */
export async function recordOutcome(
  db: Db,
  orderId: number,
  gateway: string,
  amount: string,
  r: Pick<ChargeResult, 'status' | 'code' | 'verbiage' | 'reference'>,
): Promise<void> {
  const updated = await repo.settlePendingPayment(db, orderId, {
    status: r.status,
    resultCode: r.code,
    verbiage: r.verbiage,
    gatewayReference: r.reference,
  });
  if (!updated) {
    await repo.insertPayment(db, {
      orderId,
      gateway,
      amount,
      status: r.status,
      resultCode: r.code,
      verbiage: r.verbiage,
      gatewayReference: r.reference,
      cardBrand: null,
      cardLast4: null,
    });
  }
}

/** The newest payment row of an order (gateway, reference, last 4, status) for operators; undefined when none. */
export async function latestPaymentOf(db: Db, orderId: number) {
  return repo.findLatestPayment(db, orderId);
}

/** Brand and last 4 digits of the order's approved payment, or undefined. */
export async function approvedPaymentOf(db: Db, orderId: number) {
  return repo.findApprovedPayment(db, orderId);
}

/** Every charge and refund of an order, oldest first (GET /orders/{id} `payments`). */
export async function paymentsOf(db: Db, orderId: number) {
  return repo.findPayments(db, orderId);
}

/**
 * Before a refund is sent: the order's refund row as `pending` with its idempotent merchant reference
 * (an earlier refused attempt is reused: one refund row per order). Call under the order's row lock.
 */
export async function recordRefundAttempt(db: Db, orderId: number, gateway: string, amount: string, reference: string): Promise<void> {
  await repo.startRefund(db, { orderId, gateway, amount, merchantReference: reference });
}

/** Records the refund's outcome on the order's pending refund row; false when none was pending. */
export async function recordRefundOutcome(
  db: Db,
  orderId: number,
  r: Pick<ChargeResult, 'status' | 'code' | 'verbiage' | 'reference'> & { status: 'approved' | 'declined' | 'error' },
): Promise<boolean> {
  return repo.settleRefund(db, orderId, { status: r.status, resultCode: r.code, verbiage: r.verbiage, gatewayReference: r.reference });
}

/** The order's refund row (status, reference, last attempt); undefined when it was never refunded. */
export async function refundOf(db: Db, orderId: number) {
  return repo.findRefund(db, orderId);
}
