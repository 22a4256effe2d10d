const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Money as US dollars in the en-US locale (spec 000 §9): "23.87" → "$23.87". Accepts decimal strings or numbers. */
export function formatMoney(value: string | number | null | undefined): string {
  const n = typeof value === 'string' ? Number(value) : (value ?? 0);
  return usd.format(Number.isFinite(n) ? n : 0);
}

/** A date-only ISO string (YYYY-MM-DD) is that day in local time; anything else is parsed as an instant. */
function toDate(value: string | Date): Date {
  if (value instanceof Date) return value;
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : new Date(value);
}

// The browser's own en-US formats (Intl), in the user's time zone; no date library on every page (issue 26).
const monthDayYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', hour12: true });
/** "3:05 PM" with a plain space (newer ICU puts a narrow no-break space before AM/PM). */
const timeOf = (d: Date) => time.format(d).replace(/\s/g, ' ');

/** "MMM d, yyyy" (spec 001 §9), e.g. Oct 5, 2022. Throws RangeError for an invalid date. */
export const formatDate = (value: string | Date) => monthDayYear.format(toDate(value));
/** "MMM d, yyyy h:mm a", e.g. Oct 5, 2022 3:05 PM. */
export const formatDateTime = (value: string | Date) => {
  const d = toDate(value);
  return `${monthDayYear.format(d)} ${timeOf(d)}`;
};
/** Order cards: "MMM d, h:mm a", e.g. Oct 5, 3:05 PM. */
export const formatShortDateTime = (value: string | Date) => {
  const d = toDate(value);
  return `${monthDay.format(d)}, ${timeOf(d)}`;
};
