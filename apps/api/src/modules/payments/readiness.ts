import { PAYMENT_ERROR_MESSAGES, PAYMENT_SETUP_CODE, type PaymentReadiness, type PaymentSetupState } from '@portal/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import { UnprocessableError } from '../../http/errors';
import { decryptPayload, parseMonetraCredentials } from './credentials';
import * as repo from './payments.repository';

/**
 * Card payment readiness of a store (spec 002 §8 SETUP): known before a customer meets the
 * card form. In test mode the test gateway counts as set up; otherwise the Monetra endpoint must be
 * configured and the store must have Monetra credentials (app BCC, the configured environment) that
 * decrypt with PAYMENT_CREDENTIALS_KEY.
 */

const APP_CODE = 'BCC';

/** The readiness of one store (no scope check: callers check that the store is the caller's). */
export async function cardPaymentReadiness(db: Db, config: Config, storeId: number): Promise<PaymentReadiness> {
  const base = { storeId, testMode: config.paymentTestMode, environment: config.paymentEnvironment as 'test' | 'prod' };
  const state = await setupState(db, config, storeId);
  return { ...base, state, cardPaymentsAvailable: state === 'ready' || state === 'test_mode' };
}

async function setupState(db: Db, config: Config, storeId: number): Promise<PaymentSetupState> {
  if (config.paymentTestMode) return 'test_mode';
  if (!config.monetraUrl) return 'gateway_not_configured';
  const row = await repo.findCredential(db, storeId, APP_CODE, config.paymentEnvironment, 'Monetra');
  if (!row) return 'no_credentials';
  try {
    parseMonetraCredentials(decryptPayload(config.paymentCredentialsKey, row.encryptedPayload));
    return 'ready';
  } catch {
    return 'credentials_unreadable';
  }
}

/**
 * Refuses a card payment up front when the store cannot take cards: 422 `payment_setup` with the spec's
 * SETUP text (the Delivery wording when `delivery`, since Delivery is paid by card only).
 */
export async function assertCardPaymentsReady(db: Db, config: Config, storeId: number, opts: { delivery?: boolean } = {}): Promise<void> {
  const r = await cardPaymentReadiness(db, config, storeId);
  if (!r.cardPaymentsAvailable) {
    throw new UnprocessableError(opts.delivery ? PAYMENT_ERROR_MESSAGES.setupDelivery : PAYMENT_ERROR_MESSAGES.setup, PAYMENT_SETUP_CODE);
  }
}
