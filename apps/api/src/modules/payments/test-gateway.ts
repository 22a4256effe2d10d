import { randomBytes } from 'node:crypto';
import type { ChargeRequest, ChargeResult, PaymentGateway } from './payment-gateway';

/** Card numbers with a fixed outcome in test mode (issue 5 §3); any other valid number approves. */
export const TEST_CARDS = {
  approve: '4111111111111111',
  decline: '4000000000000002',
  processingError: '4000000000000119',
} as const;

/**
 * The test gateway (config.paymentTestMode, on by default outside production): deterministic by card
 * number, no network. Answers like Monetra: AUTH / DENY / GENERROR with a verbiage.
 */
export function createTestGateway(): PaymentGateway {
  return {
    name: 'test',
    async charge(req: ChargeRequest): Promise<ChargeResult> {
      const number = req.card.cardNumber.replace(/\s+/g, '');
      const reference = `TEST-${randomBytes(6).toString('hex')}`;
      if (number === TEST_CARDS.decline) return { status: 'declined', code: 'DENY', verbiage: 'Your card was declined.', reference };
      if (number === TEST_CARDS.processingError) return { status: 'error', code: 'GENERROR', verbiage: 'Processing error', reference: null };
      return { status: 'approved', code: 'AUTH', verbiage: 'APPROVED', reference };
    },
  };
}
