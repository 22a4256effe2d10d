import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/knex';
import { NOT_A_TEST_CARD, isTestCard } from './test-cards';
import * as ledger from './test-gateway.repository';
import type {
  ChargeLookup,
  ChargeRequest,
  ChargeResult,
  LookupRequest,
  PaymentGateway,
  RefundRequest,
  RefundResult,
} from './payment-gateway';

/** Card numbers with a fixed outcome in test mode; see test-cards.ts for the rest (others are declined). */
export const TEST_CARDS = {
  approve: '4111111111111111',
  decline: '4000000000000002',
  processingError: '4000000000000119',
  /** Approved and recorded in the ledger, but the answer is "lost" (TIMEOUT): only a lookup can tell. */
  approvedAnswerLost: '4000000000000408',
} as const;

/**
 * The test gateway (config.paymentTestMode: only when PAYMENT_TEST_MODE=true, never in production):
 * deterministic by card number, no network. Answers like Monetra: AUTH / DENY / GENERROR with a verbiage. Every charge is written
 * to its ledger (`test_gateway_charges`, keyed by the order number as merchant reference) before it
 * answers, so `lookup` still knows it after a restart; charging a reference twice answers the first
 * outcome (a gateway's duplicate check). When the ledger cannot be written (database down) the charge is
 * not made and the answer is NETWORK (outcome unknown to the caller, settled later by lookup).
 */
export function createTestGateway(db: Db): PaymentGateway {
  return {
    name: 'test',
    async charge(req: ChargeRequest): Promise<ChargeResult> {
      const number = req.card.cardNumber.replace(/\s+/g, '');
      const reference = `TEST-${randomBytes(6).toString('hex')}`;
      if (!isTestCard(number, Object.values(TEST_CARDS))) return { status: 'declined', ...NOT_A_TEST_CARD, reference: null };
      let result: ChargeResult;
      if (number === TEST_CARDS.decline) result = { status: 'declined', code: 'DENY', verbiage: 'Your card was declined.', reference };
      else if (number === TEST_CARDS.processingError)
        result = { status: 'error', code: 'GENERROR', verbiage: 'Processing error', reference: null };
      else result = { status: 'approved', code: 'AUTH', verbiage: 'APPROVED', reference };
      let recorded: ChargeResult;
      try {
        recorded = await record(db, req, number.slice(-4), result);
      } catch {
        return { status: 'error', code: 'NETWORK', verbiage: 'The payment gateway cannot be reached', reference: null };
      }
      if (number === TEST_CARDS.approvedAnswerLost)
        return { status: 'error', code: 'TIMEOUT', verbiage: 'The payment gateway did not answer in time', reference: null };
      return recorded;
    },
    /** The ledger's charge with this merchant reference, or the refund with this refund reference. */
    async lookup(req: LookupRequest): Promise<ChargeLookup> {
      try {
        const row = await ledger.findCharge(db, req.orderNumber);
        if (row) return row;
        const refund = await ledger.findRefund(db, req.orderNumber);
        if (refund) return { status: 'approved', code: 'AUTH', verbiage: 'REFUNDED', reference: refund };
        return { status: 'not_found', code: 'NOTFOUND', verbiage: 'No transaction with this reference', reference: null };
      } catch {
        return { status: 'unavailable', code: 'NETWORK', verbiage: 'The payment gateway cannot be reached', reference: null };
      }
    },
    /**
     * Refunds the ledger's approved charge of the order number once: the first refund reference is kept,
     * the same reference again answers approved without refunding again, another one is declined (DUPL).
     */
    async refund(req: RefundRequest): Promise<RefundResult> {
      try {
        if (await ledger.refundCharge(db, req.orderNumber, req.refundReference))
          return { status: 'approved', code: 'AUTH', verbiage: 'REFUNDED', reference: req.refundReference };
        return (await ledger.hasApprovedCharge(db, req.orderNumber))
          ? { status: 'declined', code: 'DUPL', verbiage: 'The charge was already refunded', reference: null }
          : { status: 'declined', code: 'NOTFOUND', verbiage: 'No approved charge with this reference', reference: null };
      } catch {
        return { status: 'error', code: 'NETWORK', verbiage: 'The payment gateway cannot be reached', reference: null };
      }
    },
  };
}

/** Writes the charge to the ledger once per reference; answers what the ledger holds for it. */
async function record(db: Db, req: ChargeRequest, last4: string, r: ChargeResult): Promise<ChargeResult> {
  await ledger.insertChargeOnce(db, {
    reference: req.orderNumber,
    amount: req.amount,
    last4: /^\d{4}$/.test(last4) ? last4 : null,
    result: r,
  });
  const row = await ledger.findCharge(db, req.orderNumber);
  if (!row) throw new Error(`the test gateway's ledger has no charge ${req.orderNumber} after its insert`);
  return row;
}
