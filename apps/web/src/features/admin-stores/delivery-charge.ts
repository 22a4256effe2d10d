/**
 * The delivery charge field (spec 002 §5): typing keeps digits and one decimal point with at most 2
 * decimals; on blur the amount is formatted with 2 decimals; empty means 0.
 */
export function typeDeliveryCharge(raw: string): string {
  const cleaned = raw.replace(/[^\d.]/g, '');
  const dot = cleaned.indexOf('.');
  if (dot === -1) return cleaned;
  return `${cleaned.slice(0, dot)}.${cleaned
    .slice(dot + 1)
    .replace(/\./g, '')
    .slice(0, 2)}`;
}

/** On blur: "5" → "5.00", "5." → "5.00", ".5" → "0.50", "" → "0.00". */
export function blurDeliveryCharge(value: string): string {
  const v = typeDeliveryCharge(value);
  if (!v || v === '.') return '0.00';
  return Number(v).toFixed(2);
}
