import {
  DEFAULT_STORE_SCHEDULE,
  PROBLEM_CODES,
  type DeliveryList,
  type OrderSchedule,
  type StoreOrderingPatch,
  type StoreOrderingSettings,
} from '@portal/contracts';
import type { Db } from '../../db/knex';
import { ConflictError } from '../../http/errors';
import { fromCents, toCents } from '../../lib/money';
import { addDays, localParts, nextSlot, scheduleSummary, zonedInstant, type CalendarRule } from './calendar';
import * as repo from './schedules.repository';

/**
 * The order schedule of a store (issue 28 §1–2, ARCHITECTURE §5 "The licensee's ordering week"): order days,
 * cut-off local time in the store's IANA time zone, delivery lead days, per-outlet overrides; delivery minimums;
 * the outlets' yearly emergency allowance and fee. Functions that depend on the time take `now` (tests fix it).
 */

/** Bottle size assumed where an item's is unknown (ARCHITECTURE §9 "Volume"). */
export const UNKNOWN_BOTTLE_ML = 750;

/** A store's settings: its own row over the defaults. */
export async function settingsOf(db: Db, storeId: number): Promise<StoreOrderingSettings> {
  const row = await repo.findStoreSchedule(db, storeId);
  if (!row)
    return {
      ...DEFAULT_STORE_SCHEDULE,
      orderDays: [...DEFAULT_STORE_SCHEDULE.orderDays],
      deliveryMinimumMl: null,
      deliveryMinimumAmount: null,
    };
  return {
    orderDays: [...row.order_days].sort((a, b) => a - b),
    cutoffLocalTime: row.cutoff_local_time.slice(0, 5),
    timeZone: row.time_zone,
    deliveryLeadDays: row.delivery_lead_days,
    deliveryMinimumMl: row.delivery_minimum_ml,
    deliveryMinimumAmount: row.delivery_minimum_amount,
    emergencyAllowance: row.emergency_allowance,
    emergencyFee: row.emergency_fee,
  };
}

/** The ordering fields of a PATCH /admin/stores/{id} body (those present), or null when it has none. */
export function orderingPatchOf(body: Partial<Record<keyof StoreOrderingPatch, unknown>>): StoreOrderingPatch | null {
  const keys: (keyof StoreOrderingPatch)[] = [
    'orderDays',
    'cutoffLocalTime',
    'timeZone',
    'deliveryLeadDays',
    'deliveryMinimumMl',
    'deliveryMinimumAmount',
    'emergencyAllowance',
    'emergencyFee',
  ];
  const out: Record<string, unknown> = {};
  for (const k of keys) if (body[k] !== undefined) out[k] = body[k];
  return Object.keys(out).length ? (out as StoreOrderingPatch) : null;
}

/**
 * Writes a store's ordering settings (inside the caller's transaction; the caller checks the store is in scope
 * and audits). A null emergency fee is 0.
 */
export async function updateSettings(trx: Db, storeId: number, p: StoreOrderingPatch): Promise<void> {
  const cols: repo.ScheduleColumns = {};
  if (p.orderDays !== undefined) cols.order_days = [...p.orderDays].sort((a, b) => a - b);
  if (p.cutoffLocalTime !== undefined) cols.cutoff_local_time = p.cutoffLocalTime;
  if (p.timeZone !== undefined) cols.time_zone = p.timeZone;
  if (p.deliveryLeadDays !== undefined) cols.delivery_lead_days = p.deliveryLeadDays;
  if (p.deliveryMinimumMl !== undefined) cols.delivery_minimum_ml = p.deliveryMinimumMl;
  if (p.deliveryMinimumAmount !== undefined) cols.delivery_minimum_amount = p.deliveryMinimumAmount;
  if (p.emergencyAllowance !== undefined) cols.emergency_allowance = p.emergencyAllowance;
  if (p.emergencyFee !== undefined) cols.emergency_fee = p.emergencyFee ?? '0.00';
  await repo.upsertStoreSchedule(trx, storeId, cols);
}

/** The store's settings with the outlet's overrides applied. */
async function effective(db: Db, outletId: number, storeId: number): Promise<StoreOrderingSettings> {
  const s = await settingsOf(db, storeId);
  const o = await repo.findOutletOverride(db, outletId, storeId);
  if (!o) return s;
  return {
    ...s,
    orderDays: o.order_days ? [...o.order_days].sort((a, b) => a - b) : s.orderDays,
    cutoffLocalTime: o.cutoff_local_time ? o.cutoff_local_time.slice(0, 5) : s.cutoffLocalTime,
    deliveryLeadDays: o.delivery_lead_days ?? s.deliveryLeadDays,
    emergencyAllowance: o.emergency_allowance ?? s.emergencyAllowance,
  };
}

/** The store-local calendar year of `now` as instants [from, to). */
function yearOf(now: Date, timeZone: string): { from: Date; to: Date } {
  const year = Number(localParts(now, timeZone).date.slice(0, 4));
  return { from: zonedInstant(`${year}-01-01`, '00:00', timeZone), to: zonedInstant(`${year + 1}-01-01`, '00:00', timeZone) };
}

/**
 * GET /outlets/{outletId}/stores/{storeId}/schedule (the route checks the outlet × store): the calendar, the
 * next cut-off and delivery date of an order placed now, the minimums and the emergency orders left this
 * (store-local) year.
 */
export async function getSchedule(db: Db, outletId: number, storeId: number, now = new Date()): Promise<OrderSchedule> {
  const s = await effective(db, outletId, storeId);
  const slot = nextSlot(s, now);
  const { from, to } = yearOf(now, s.timeZone);
  const used = await repo.countEmergencyOrders(db, outletId, from, to);
  return {
    outletId,
    storeId,
    orderDays: s.orderDays,
    cutoffLocalTime: s.cutoffLocalTime,
    timeZone: s.timeZone,
    deliveryLeadDays: s.deliveryLeadDays,
    nextCutoffAt: slot.nextCutoffAt.toISOString(),
    nextDeliveryDate: slot.nextDeliveryDate,
    deliveryMinimumMl: s.deliveryMinimumMl,
    deliveryMinimumAmount: s.deliveryMinimumAmount,
    emergencyAllowance: s.emergencyAllowance,
    emergencyOrdersUsed: used,
    emergencyOrdersLeft: Math.max(0, s.emergencyAllowance - used),
    emergencyFee: s.emergencyFee,
    summary: scheduleSummary(slot.orderDate, s.cutoffLocalTime, slot.nextDeliveryDate),
  };
}

/**
 * The delivery date of a Delivery order placed `now`: the date asked for when it is on or after the earliest
 * the calendar allows, else that earliest (an order after the cut-off gets the next delivery date). An
 * emergency order skips the calendar: the earliest is today (store-local) + lead days.
 */
export async function deliveryDateFor(
  db: Db,
  p: { outletId: number; storeId: number; requested: string | null; emergency?: boolean },
  now = new Date(),
): Promise<string> {
  const s = await effective(db, p.outletId, p.storeId);
  const earliest = p.emergency ? addDays(localParts(now, s.timeZone).date, s.deliveryLeadDays) : nextSlot(s, now).nextDeliveryDate;
  return p.requested && p.requested > earliest ? p.requested : earliest;
}

/**
 * An emergency order (inside the order's or session's transaction): locks the outlet, counts its emergency
 * orders this year; none left → 409 `emergency_allowance_used`. Returns the fee to add.
 */
export async function takeEmergency(trx: Db, outletId: number, storeId: number, now = new Date()): Promise<string> {
  await repo.lockOutlet(trx, outletId);
  const s = await effective(trx, outletId, storeId);
  const { from, to } = yearOf(now, s.timeZone);
  const used = await repo.countEmergencyOrders(trx, outletId, from, to);
  if (used >= s.emergencyAllowance) {
    throw new ConflictError(
      `This outlet has used its ${s.emergencyAllowance} emergency orders for the year.`,
      PROBLEM_CODES.emergencyAllowanceUsed,
    ).with({ emergencyAllowance: s.emergencyAllowance, emergencyOrdersUsed: used });
  }
  return s.emergencyFee;
}

/** "2.3 L" (one decimal, rounded up so adding it is enough). */
const litres = (ml: number) => `${(Math.ceil(ml / 100) / 10).toFixed(1)} L`;

/**
 * A Delivery cart below the store's minimum (volume Σ quantity × bottle ml, 750 ml where unknown; amount the
 * subtotal) → 409 `below_delivery_minimum` with `shortfallMl`, `shortfallAmount` and a detail such as "Add
 * 2.3 L more for delivery". Pickup has no minimum (callers call this for Delivery only).
 */
export async function assertDeliveryMinimum(
  db: Db,
  storeId: number,
  cart: { lines: { quantity: number; volumeMl: number | null }[]; subtotal: string },
): Promise<void> {
  const s = await settingsOf(db, storeId);
  const volume = cart.lines.reduce((sum, l) => sum + l.quantity * (l.volumeMl || UNKNOWN_BOTTLE_ML), 0);
  const shortMl = s.deliveryMinimumMl === null ? 0 : Math.max(0, s.deliveryMinimumMl - volume);
  const shortCents = s.deliveryMinimumAmount === null ? 0 : Math.max(0, toCents(s.deliveryMinimumAmount) - toCents(cart.subtotal));
  if (shortMl === 0 && shortCents === 0) return;
  const parts = [...(shortMl ? [litres(shortMl)] : []), ...(shortCents ? [`$${fromCents(shortCents)}`] : [])];
  throw new ConflictError(`Add ${parts.join(' and ')} more for delivery.`, PROBLEM_CODES.belowDeliveryMinimum).with({
    shortfallMl: shortMl,
    shortfallAmount: fromCents(shortCents),
    deliveryMinimumMl: s.deliveryMinimumMl,
    deliveryMinimumAmount: s.deliveryMinimumAmount,
    cartMl: volume,
  });
}

/** GET /stores/{storeId}/deliveries: the store's deliveries of `date` (default tomorrow, store-local). */
export async function listDeliveries(db: Db, storeId: number, date: string | undefined, now = new Date()): Promise<DeliveryList> {
  const s = await settingsOf(db, storeId);
  const day = date ?? addDays(localParts(now, s.timeZone).date, 1);
  return { storeId, date: day, items: await repo.findDeliveries(db, storeId, day) };
}

export type { CalendarRule };

/**
 * A calendar month 'YYYY-MM' as instants [from, to) in `timeZone` (default the stores' default zone), for
 * monthly statements.
 */
export function monthBounds(month: string, timeZone: string = DEFAULT_STORE_SCHEDULE.timeZone): { from: Date; to: Date } {
  const [y, m] = month.split('-').map(Number);
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return { from: zonedInstant(`${month}-01`, '00:00', timeZone), to: zonedInstant(next, '00:00', timeZone) };
}

/** A date as the store's calendar shows it ('YYYY-MM-DD' in `timeZone`, default the stores' default zone). */
export function localDate(instant: Date, timeZone: string = DEFAULT_STORE_SCHEDULE.timeZone): string {
  return localParts(instant, timeZone).date;
}
