/**
 * Test mode accepts only the documented test cards (README "Configuration"): any other number
 * — a real-looking card above all — is declined as an invalid card, so test mode never marks an order paid
 * for a number someone might mistake for a real payment.
 */

/** Approving test cards besides 4111 1111 1111 1111: a 13-digit Visa and a Mastercard (length and brand checks). */
export const EXTRA_APPROVING_TEST_CARDS = ['4222222222222', '5555555555554444'] as const;

/** Result code and verbiage of a refused non-test number (a decline, like Monetra's for a bad account number). */
export const NOT_A_TEST_CARD = {
  code: 'TESTCARD',
  verbiage: 'Invalid card number: test mode accepts only the test cards (4111 1111 1111 1111 approves, 4000 0000 0000 0002 declines)',
} as const;

/** Is `number` (spaces allowed) one of the test gateway's cards (`known`: its fixed-outcome cards) or an extra approving one? */
export function isTestCard(number: string, known: readonly string[]): boolean {
  const n = number.replace(/\s+/g, '');
  return known.includes(n) || EXTRA_APPROVING_TEST_CARDS.some((c) => c === n);
}
