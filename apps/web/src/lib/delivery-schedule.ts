import { useEffect } from 'react';
import { orderScheduleSchema, type OrderSchedule } from '@portal/contracts';
import { deliveryDayText, formatMoney } from './format';
import { useApi } from './api';

/**
 * GET /outlets/{outletId}/stores/{storeId}/schedule (ARCHITECTURE §5 "The licensee's ordering week"): the order
 * days, the cut-off (local time in the store's IANA time zone), the next cut-off as an instant, the delivery date
 * an order placed now gets, the store's delivery minimums and the outlet's emergency orders left this year.
 */
export type DeliverySchedule = OrderSchedule;

/** Longest wait before the schedule is asked again (it also refreshes right after each cut-off). */
const MAX_WAIT_MS = 30 * 60_000;

/**
 * The schedule of an outlet × store (null ids: nothing fetched). Refetched just after `nextCutoffAt`, so a page
 * left open past the cut-off shows the next delivery date without a reload.
 */
export function useDeliverySchedule(outletId: number | null | undefined, storeId: number | null | undefined) {
  const res = useApi(outletId && storeId ? `/outlets/${outletId}/stores/${storeId}/schedule` : null, orderScheduleSchema, {
    revalidateOnFocus: true,
    shouldRetryOnError: false,
  });
  const cutoff = res.data?.nextCutoffAt;
  const { mutate } = res;
  useEffect(() => {
    if (!cutoff) return;
    const wait = Date.parse(cutoff) - Date.now() + 1000;
    if (!Number.isFinite(wait)) return;
    const t = setTimeout(() => void mutate(), Math.max(1000, Math.min(wait, MAX_WAIT_MS)));
    return () => clearTimeout(t);
  }, [cutoff, mutate]);
  return res;
}

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Order days as 0–6 (Sunday 0): accepts 'mon'/'Monday', ISO numbers 1–7 (7 Sunday) or 0–6. Unknown values are dropped. */
export function weekdayNumbers(days: readonly (string | number)[]): number[] {
  const out = new Set<number>();
  for (const d of days) {
    if (typeof d === 'number') out.add(((d % 7) + 7) % 7);
    else {
      const i = WEEKDAYS.indexOf(d.trim().slice(0, 3).toLowerCase());
      if (i >= 0) out.add(i);
    }
  }
  return [...out].sort((a, b) => a - b);
}

/** "Monday, Tuesday" style list of order days (every day → "Every day"). */
export function orderDaysText(days: readonly (string | number)[]): string {
  const n = weekdayNumbers(days);
  if (n.length === 7) return 'Every day';
  if (n.length === 0) return 'No order days';
  return n.map((d) => WEEKDAY_NAMES[d]).join(', ');
}

/** The calendar date (YYYY-MM-DD) and weekday of an instant in `timeZone`. */
export function zonedDate(instant: string | Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(
    typeof instant === 'string' ? new Date(instant) : instant,
  );
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** "Tue 2 pm" / "Tue 2:30 pm": an instant as weekday and time in `timeZone`. */
export function zonedDayTime(instant: string | Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  }).formatToParts(typeof instant === 'string' ? new Date(instant) : instant);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  const minute = get('minute');
  const time = minute && minute !== '00' ? `${get('hour')}:${minute}` : get('hour');
  return `${get('weekday')} ${time} ${get('dayPeriod').toLowerCase()}`;
}

const utcDate = (iso: string) => new Date(`${iso}T00:00:00Z`);
const isoOf = (d: Date) => d.toISOString().slice(0, 10);

/** The time zone's short name at that instant, e.g. "CST" (the cut-off is the store's local time). */
export function zoneAbbreviation(instant: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }).formatToParts(new Date(instant));
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
}

/**
 * "Order by Tue 2 pm for delivery Thu Dec 3" (issue 28 §1): the next cut-off in the store's time zone and the
 * delivery date an order placed before it gets.
 */
export function cutoffText(s: Pick<DeliverySchedule, 'nextCutoffAt' | 'timeZone' | 'nextDeliveryDate'>): string {
  return `Order by ${zonedDayTime(s.nextCutoffAt, s.timeZone)} for delivery ${deliveryDayText(s.nextDeliveryDate)}`;
}

/** Days between two calendar dates (b − a). */
function daysBetween(a: string, b: string): number {
  return Math.round((utcDate(b).getTime() - utcDate(a).getTime()) / 86_400_000);
}

/**
 * The delivery dates an order can ask for, from the next one on (`count` of them): each order day from the next
 * cut-off's local date plus the store's lead days.
 */
export function validDeliveryDates(s: DeliverySchedule, count = 40): string[] {
  const days = new Set(weekdayNumbers(s.orderDays));
  const first = zonedDate(s.nextCutoffAt, s.timeZone);
  const lead = Number.isInteger(s.deliveryLeadDays) ? s.deliveryLeadDays : Math.max(0, daysBetween(first, s.nextDeliveryDate));
  const out: string[] = [s.nextDeliveryDate];
  if (days.size === 0) return out;
  for (let i = 0; out.length < count && i < count * 7; i++) {
    const order = utcDate(first);
    order.setUTCDate(order.getUTCDate() + i);
    if (!days.has(order.getUTCDay())) continue;
    order.setUTCDate(order.getUTCDate() + lead);
    const iso = isoOf(order);
    if (iso > out[out.length - 1]) out.push(iso);
  }
  return out;
}

/** Litres for people: 2300 ml → "2.3 L" (rounded up to 0.1 L, so adding that much is enough). */
export function litresText(ml: number): string {
  const l = Math.ceil(ml / 100) / 10;
  return `${l.toLocaleString('en-US', { maximumFractionDigits: 1 })} L`;
}

/** What a delivery still lacks: millilitres and dollars (0 when met or when there is no such minimum). */
export interface Shortfall {
  ml: number;
  amount: number;
}

/** "Add 2.3 L more for delivery", "Add $12.50 more for delivery" or both joined by "and"; null when nothing is short. */
export function shortfallText({ ml, amount }: Shortfall): string | null {
  const parts = [ml > 0 ? litresText(ml) : null, amount > 0 ? formatMoney(amount) : null].filter(Boolean);
  return parts.length ? `Add ${parts.join(' and ')} more for delivery` : null;
}

/** Bottle volume used when an item's size is unknown (ARCHITECTURE §9). */
export const DEFAULT_BOTTLE_ML = 750;

/**
 * The cart's shortfall against the store's delivery minimums (volume: Σ quantity × bottle ml, 750 ml when
 * unknown; amount: the subtotal). Minimums null/undefined count as none.
 */
export function cartShortfall(
  lines: readonly { quantity: number; volumeMl: number | null }[],
  subtotal: string | number,
  minimum: { ml?: number | null; amount?: string | number | null },
): Shortfall {
  const volume = lines.reduce((sum, l) => sum + l.quantity * (l.volumeMl ?? DEFAULT_BOTTLE_ML), 0);
  const ml = minimum.ml ? Math.max(0, minimum.ml - volume) : 0;
  const cents = minimum.amount ? Math.max(0, Math.round(Number(minimum.amount) * 100) - Math.round(Number(subtotal) * 100)) : 0;
  return { ml, amount: cents / 100 };
}
