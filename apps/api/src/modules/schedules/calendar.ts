/**
 * Calendar arithmetic of the order schedule (issue 28 §1) in a store's IANA time zone, with Intl only (no
 * time-zone library): a store-local calendar date is 'YYYY-MM-DD', a wall-clock time 'HH:MM', an instant a Date.
 * Pure functions: callers pass `now`, so tests fix the clock.
 */

/** The parts of an instant on the wall clock of `timeZone`. */
export interface LocalParts {
  date: string;
  weekday: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatter = (timeZone: string) => {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
};

function partsOf(instant: Date, timeZone: string) {
  const p: Record<string, number> = {};
  for (const { type, value } of formatter(timeZone).formatToParts(instant)) if (type !== 'literal') p[type] = Number(value);
  return { y: p.year, m: p.month, d: p.day, h: p.hour === 24 ? 0 : p.hour, min: p.minute, s: p.second };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The wall-clock date, weekday (0 = Sunday) and time of `instant` in `timeZone`. */
export function localParts(instant: Date, timeZone: string): LocalParts {
  const p = partsOf(instant, timeZone);
  const date = `${p.y}-${pad(p.m)}-${pad(p.d)}`;
  return { date, weekday: weekdayOf(date), hour: p.h, minute: p.min };
}

/** The weekday of a calendar date (0 = Sunday … 6 = Saturday). */
export function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** `date` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}

/** Offset of `timeZone` from UTC at `instant`, in ms (Chicago in winter: −6 h). */
function offsetAt(instant: number, timeZone: string): number {
  const p = partsOf(new Date(instant), timeZone);
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant at which the wall clock of `timeZone` shows `date` `time` ('HH:MM'). A time skipped by a
 * daylight-saving jump resolves to the instant after the jump.
 */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const [h, min] = time.split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, h, min);
  let instant = wall - offsetAt(wall, timeZone);
  const second = wall - offsetAt(instant, timeZone);
  if (second !== instant) instant = second;
  return new Date(instant);
}

/** The schedule as the calendar needs it. */
export interface CalendarRule {
  orderDays: readonly number[];
  cutoffLocalTime: string;
  timeZone: string;
  deliveryLeadDays: number;
}

/**
 * The next order day's cut-off after `now` and the delivery date of an order placed now: the first order day
 * (from today, store-local) whose cut-off is still ahead; delivery = that day + lead days. An order placed after
 * today's cut-off therefore goes to the next order day's delivery.
 */
export function nextSlot(rule: CalendarRule, now: Date): { orderDate: string; nextCutoffAt: Date; nextDeliveryDate: string } {
  const today = localParts(now, rule.timeZone).date;
  for (let k = 0; k < 15; k++) {
    const day = addDays(today, k);
    if (!rule.orderDays.includes(weekdayOf(day))) continue;
    const cutoff = zonedInstant(day, rule.cutoffLocalTime, rule.timeZone);
    if (cutoff.getTime() > now.getTime()) {
      return { orderDate: day, nextCutoffAt: cutoff, nextDeliveryDate: addDays(day, rule.deliveryLeadDays) };
    }
  }
  throw new Error('a schedule without an order day'); // the DB CHECK keeps at least one day
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2 pm", "2:30 pm", "12 am" from 'HH:MM'. */
export function clockText(time: string): string {
  const [h, m] = time.split(':').map(Number);
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}${m ? `:${pad(m)}` : ''} ${h < 12 ? 'am' : 'pm'}`;
}

/** "Thu Dec 3" of a calendar date. */
export function dayText(date: string): string {
  const [, m, d] = date.split('-').map(Number);
  return `${WEEKDAYS[weekdayOf(date)]} ${MONTHS[m - 1]} ${d}`;
}

/** What the cart shows: "Order by Tue 2 pm for delivery Thu Dec 3". */
export function scheduleSummary(orderDate: string, cutoffLocalTime: string, deliveryDate: string): string {
  return `Order by ${WEEKDAYS[weekdayOf(orderDate)]} ${clockText(cutoffLocalTime)} for delivery ${dayText(deliveryDate)}`;
}
