import { z } from 'zod';

/**
 * Card payment readiness and the payment screen's error texts (spec 002 §8 "Payment").
 * A store takes cards when the gateway is set up and the store has readable Monetra credentials for the
 * configured environment; in payment test mode the test gateway counts as set up.
 */

/** Problem code of a card payment refused because the store's payment setup is missing (spec 002 §8: code SETUP). */
export const PAYMENT_SETUP_CODE = 'payment_setup';

/**
 * Why a store does (not) take cards: ready (credentials present and readable), test_mode (the test gateway),
 * gateway_not_configured (no MONETRA_URL), no_credentials (none for this store and environment),
 * credentials_unreadable (cannot be decrypted with PAYMENT_CREDENTIALS_KEY, or malformed).
 */
export const PAYMENT_SETUP_STATES = ['ready', 'test_mode', 'gateway_not_configured', 'no_credentials', 'credentials_unreadable'] as const;
export type PaymentSetupState = (typeof PAYMENT_SETUP_STATES)[number];

/** GET /stores/{storeId}/payment-readiness: whether card payments work at the store, and why not. */
export const paymentReadinessSchema = z.object({
  storeId: z.number().int(),
  cardPaymentsAvailable: z.boolean(),
  state: z.enum(PAYMENT_SETUP_STATES),
  testMode: z.boolean(),
  /** The credentials environment the gateway uses (test or prod). */
  environment: z.enum(['test', 'prod']),
});
export type PaymentReadiness = z.infer<typeof paymentReadinessSchema>;

/**
 * Texts of the payment screen (spec 002 §8). Verbatim from the spec: sessionExpired, authRequired,
 * orderCreationFailing, createOrderFailed, warehouseRequired. The spec names but does not word the mapped
 * ones (403 / permission denied → temporarily unavailable, network, timeout, credentials configuration →
 * SETUP); these are ours.
 */
export const PAYMENT_ERROR_MESSAGES = {
  sessionExpired: 'Checkout session expired. Please restart the checkout process.',
  authRequired: 'Authentication required',
  orderCreationFailing: 'Payment processed but order creation failing. Please contact support.',
  createOrderFailed: 'Failed to create order. Please try again.',
  warehouseRequired: 'Warehouse ID is required for payment processing',
  temporarilyUnavailable: 'Payment processing is temporarily unavailable. Please try again in a few minutes.',
  network: 'Network error: the payment could not reach our server. Check your connection and try again.',
  timeout: 'The payment request timed out. Please check My Orders before trying again.',
  setup: 'Card payments are not set up for this store yet. Please choose Pay In-Store or contact the store.',
  setupDelivery:
    'Card payments are not set up for this store yet, and Delivery orders are paid by card. Please choose Pickup and pay in-store, or contact the store.',
  /** Store Orders and store Settings: the warning for managers and administrators. */
  setupWarning:
    "Card payments are not set up for this store: customers can only pay in-store, and Delivery orders cannot be placed. Add the store's Monetra credentials (Admin → Credentials).",
} as const;
