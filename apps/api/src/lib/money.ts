/**
 * Exact money arithmetic for decimal strings (ARCHITECTURE §3: never a float sum): parse into integer
 * cents, add or multiply as integers, format back as "1234.50".
 */

/** "23.87" | "5" | "0.5" → 2387 | 500 | 50 cents; throws on anything that is not a plain decimal. */
export function toCents(amount: string | number): number {
  const s = String(amount).trim();
  const m = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) throw new Error(`not a money amount: ${s}`);
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -cents : cents;
}

/** 2387 → "23.87"; -5 → "-0.05". */
export function fromCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
