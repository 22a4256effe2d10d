import type { Card } from '@portal/contracts';

/**
 * One card charge (ARCHITECTURE §6). amount: dollars with 2 decimals ("25.98"); orderNumber: the
 * merchant reference; storeId: whose credentials pay. The card lives in memory only: gateways never
 * store or log it.
 */
export interface ChargeRequest {
  amount: string;
  orderNumber: string;
  storeId: number;
  card: Card;
}

/**
 * The gateway's answer. approved: money taken; declined: the bank said no (verbiage is the gateway's
 * message for the person); error: processing failed or the outcome is unknown (network, setup, 5xx).
 */
export interface ChargeResult {
  status: 'approved' | 'declined' | 'error';
  code: string;
  verbiage: string;
  reference: string | null;
}

/**
 * What the gateway knows of a charge by its merchant reference (the order number):
 * approved / declined / error: the charge exists with that outcome; not_found: the gateway has no charge
 * with that reference; unavailable: the gateway could not be asked (network, setup, unreadable answer).
 */
export interface ChargeLookup {
  status: 'approved' | 'declined' | 'error' | 'not_found' | 'unavailable';
  code: string;
  verbiage: string;
  reference: string | null;
}

/** Lookup of a transaction: its merchant reference (`orderNumber`: a charge's order number or a refund's reference) and whose credentials ask. */
export interface LookupRequest {
  orderNumber: string;
  storeId: number;
}

/**
 * A payment gateway: Monetra in production, the test gateway in test mode. Every charge carries the
 * order number as merchant reference, every refund `<order number>-refund`, and `lookup` finds either
 * again by its merchant reference. Never throws.
 */
export interface PaymentGateway {
  readonly name: 'test' | 'monetra';
  charge(req: ChargeRequest): Promise<ChargeResult>;
  /** What the gateway knows of the transaction with this merchant reference (a charge's order number, or a refund's reference). */
  lookup(req: LookupRequest): Promise<ChargeLookup>;
  /**
   * Voids or refunds the whole approved charge of an order, once per `refundReference`: sending the same
   * reference again never refunds twice (the gateway answers the first refund). Never throws.
   */
  refund(req: RefundRequest): Promise<RefundResult>;
}

/**
 * A refund of an order's charge: the charge's merchant reference (order number), the refund's own
 * idempotent merchant reference (`refundReferenceOf(orderNumber)`), the gateway's reference of the charge
 * (Monetra's ttid) when known, whose credentials, and the amount (dollars, 2 decimals).
 */
export interface RefundRequest {
  orderNumber: string;
  refundReference: string;
  chargeReference: string | null;
  storeId: number;
  amount: string;
}
/**
 * The refund's outcome, shaped like a charge's: approved (money returned; `reference` = the gateway's id
 * of the refund), declined (the gateway refused it), error (refused to process it, or no answer: see
 * `outcomeUnknown`, the refund may have been made).
 */
export type RefundResult = ChargeResult;

/** The idempotent merchant reference of an order's refund: `<order number>-refund`. */
export function refundReferenceOf(orderNumber: string): string {
  return `${orderNumber}-refund`;
}

/**
 * Result codes of charges whose outcome is unknown to us (no answer, timeout, a 5xx): the money may have
 * been taken, so the order stays pending until a lookup settles it. Any other `error` is a definite
 * "not charged" (the gateway answered with a processing error, or was never called: SETUP).
 */
export const UNKNOWN_OUTCOME_CODES = /^(TIMEOUT|NETWORK|EXCEPTION|HTTP_5\d\d|HTTP_200)$/;

/** Is this charge result one whose outcome we do not know? */
export function outcomeUnknown(r: ChargeResult): boolean {
  return r.status === 'error' && UNKNOWN_OUTCOME_CODES.test(r.code);
}

/** Card brand from the number's prefix (Visa, Mastercard, American Express, Discover), else 'Card'. */
export function cardBrand(number: string): string {
  const n = number.replace(/\D/g, '');
  if (/^4/.test(n)) return 'Visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(n)) return 'Mastercard';
  if (/^3[47]/.test(n)) return 'American Express';
  if (/^(6011|65|64[4-9])/.test(n)) return 'Discover';
  return 'Card';
}

/** The last 4 digits of a card number (all that is ever kept). */
export function cardLast4(number: string): string {
  return number.replace(/\D/g, '').slice(-4);
}
