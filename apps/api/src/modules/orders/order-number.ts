import { randomInt } from 'node:crypto';

/** Crockford's base32 alphabet (no I, L, O, U: nothing to misread when an order number is read out). */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Random characters per number: 8 × 5 bits = 40 bits, so numbers cannot be guessed or counted. */
const RANDOM_LENGTH = 8;

/**
 * A new order number (spec 001 §7 pattern ORD-timestamp-random): `ORD-<ms since epoch>-<8
 * Crockford base32 characters from crypto.randomInt>`, e.g. `ORD-1764000000000-7K2QM9XD`. Nothing in it
 * counts orders, so a store's volume cannot be read off it. Uniqueness is the database's (orders.order_number
 * UNIQUE); a clash would need the same millisecond and the same 40 random bits.
 */
export function newOrderNumber(now: number = Date.now()): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET[randomInt(ALPHABET.length)];
  return `ORD-${now}-${random}`;
}
