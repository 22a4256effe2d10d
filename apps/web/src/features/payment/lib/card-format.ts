/** Card number input cap (spec 002 §5: 13–19 digits are valid, the input holds at most 16). */
export const CARD_INPUT_DIGITS = 16;

/** Keeps only digits, at most `max` of them. */
export function digitsOnly(value: string, max = Infinity): string {
  return value.replace(/\D/g, '').slice(0, max);
}

/** "4111111111111111" → "4111 1111 1111 1111": digits grouped by 4, capped at 16 digits. */
export function formatCardNumber(value: string): string {
  return digitsOnly(value, CARD_INPUT_DIGITS).replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Expiration as typed: digits only, a slash after the month ("1226" → "12/26"). */
export function formatExpiration(value: string): string {
  const d = digitsOnly(value, 4);
  return d.length > 2 ? `${d.slice(0, 2)}/${d.slice(2)}` : d;
}

/** Caret position in `formatted` that sits after the `digitsBefore`-th digit (keeps the caret in place while regrouping). */
export function caretAfterDigits(formatted: string, digitsBefore: number): number {
  if (digitsBefore <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i += 1) {
    if (/\d/.test(formatted[i])) seen += 1;
    if (seen === digitsBefore) return i + 1;
  }
  return formatted.length;
}
