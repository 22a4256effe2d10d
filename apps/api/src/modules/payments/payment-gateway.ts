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

/** A payment gateway: Monetra in production, the deterministic test gateway in test mode. Never throws. */
export interface PaymentGateway {
  readonly name: 'test' | 'monetra';
  charge(req: ChargeRequest): Promise<ChargeResult>;
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
