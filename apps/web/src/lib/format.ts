import { format, parseISO } from 'date-fns';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Money as US dollars in the en-US locale (spec 000 §9): "23.87" → "$23.87". Accepts decimal strings or numbers. */
export function formatMoney(value: string | number | null | undefined): string {
  const n = typeof value === 'string' ? Number(value) : (value ?? 0);
  return usd.format(Number.isFinite(n) ? n : 0);
}

function toDate(value: string | Date): Date {
  if (value instanceof Date) return value;
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? parseISO(value) : new Date(value);
}

/** "MMM d, yyyy" (spec 001 §9), e.g. Oct 5, 2022. */
export const formatDate = (value: string | Date) => format(toDate(value), 'MMM d, yyyy');
/** "MMM d, yyyy h:mm a". */
export const formatDateTime = (value: string | Date) => format(toDate(value), 'MMM d, yyyy h:mm a');
/** Order cards: "MMM d, h:mm a". */
export const formatShortDateTime = (value: string | Date) => format(toDate(value), 'MMM d, h:mm a');
