/*
 * The portal's en-US formats, written out instead of asking Intl: the first Intl call of a page load (any
 * NumberFormat, DateTimeFormat or toLocaleString) loads ICU's data, 13–43 ms on a desktop core and four times that on
 * a phone, inside the page's first long task (issue 26: signed-in screens as fast as the sign-in page). The output is
 * what Intl's en-US gives for these fixed patterns; format.test.ts compares the two.
 */

/** Jan … Dec, as en-US short month names. */
export const MONTHS_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** Sun … Sat (Sunday 0, as Date#getDay), as en-US short weekday names. */
export const WEEKDAY_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/**
 * "Thu Dec 3": a calendar date (YYYY-MM-DD) with its weekday; no time zone applies to a date. Here rather than with
 * the delivery schedule (lib/delivery-schedule.ts) so that Store Orders, which shows it on load, does not load the
 * ordering schedule's schemas.
 */
export function deliveryDayText(isoDate: string): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  return `${WEEKDAY_SHORT[d.getUTCDay()]} ${MONTHS_SHORT[d.getUTCMonth()]} ${d.getUTCDate()}`;
}

/** A whole number with en-US thousands separators: 1234567 → "1,234,567" (what toLocaleString('en-US') gives). */
export function formatCount(value: number): string {
  const n = Math.trunc(value);
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 ? `-${digits}` : digits;
}

/** Money as US dollars in the en-US locale (spec 000 §9): "23.87" → "$23.87", -5 → "-$5.00". Accepts decimal strings or numbers. */
export function formatMoney(value: string | number | null | undefined): string {
  const n = typeof value === 'string' ? Number(value) : (value ?? 0);
  const abs = Math.abs(Number.isFinite(n) ? n : 0);
  // Rounded half up on the decimal text, as Intl does (1.005 → $1.01; 1.005 * 100 is 100.4999… in binary).
  const shifted = Number(`${abs}e2`);
  const cents = Math.round(Number.isFinite(shifted) ? shifted : abs * 100);
  const text = `$${formatCount(Math.floor(cents / 100))}.${String(cents % 100).padStart(2, '0')}`;
  return n < 0 && cents > 0 ? `-${text}` : text;
}

/**
 * A date-only ISO string (YYYY-MM-DD) is that day in local time; anything else is parsed as an instant. Throws
 * RangeError for an invalid date (as Intl does).
 */
function toDate(value: string | Date): Date {
  const day = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  const d = value instanceof Date ? value : day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : new Date(value);
  if (Number.isNaN(d.getTime())) throw new RangeError('Invalid time value');
  return d;
}
const monthDay = (d: Date) => `${MONTHS_SHORT[d.getMonth()]} ${d.getDate()}`;
const monthDayYear = (d: Date) => `${monthDay(d)}, ${d.getFullYear()}`;
/** "3:05 PM", "12:00 AM": the local time, 12-hour. */
const timeOf = (d: Date): string =>
  `${d.getHours() % 12 || 12}:${String(d.getMinutes()).padStart(2, '0')} ${d.getHours() < 12 ? 'AM' : 'PM'}`;

/** "MMM d, yyyy" (spec 001 §9), e.g. Oct 5, 2022. Throws RangeError for an invalid date. */
export const formatDate = (value: string | Date) => monthDayYear(toDate(value));
/** "MMM d, yyyy h:mm a", e.g. Oct 5, 2022 3:05 PM. */
export const formatDateTime = (value: string | Date) => {
  const d = toDate(value);
  return `${monthDayYear(d)} ${timeOf(d)}`;
};
/** Order cards: "MMM d, h:mm a", e.g. Oct 5, 3:05 PM. */
export const formatShortDateTime = (value: string | Date) => {
  const d = toDate(value);
  return `${monthDay(d)}, ${timeOf(d)}`;
};
/** "Nov 25, 2026, 10:00 AM" (Intl's en-US dateStyle medium, timeStyle short): the users list's last sign-in. */
export const formatDateTimeMedium = (value: string | Date) => {
  const d = toDate(value);
  return `${monthDayYear(d)}, ${timeOf(d)}`;
};
