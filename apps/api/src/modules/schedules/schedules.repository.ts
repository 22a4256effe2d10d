import type { Db } from '../../db/knex';
import type { OutletStoreScheduleRecord, StoreScheduleRecord } from '../../db/tables/commerce';

/**
 * Queries of the order schedule (issue 28 §1–2): store settings, outlet overrides, emergency use, the
 * store's deliveries of a day. The only place with this module's SQL.
 */

/** A store's own ordering settings; undefined when it has none (the defaults apply). */
export function findStoreSchedule(db: Db, storeId: number): Promise<StoreScheduleRecord | undefined> {
  return db('store_schedules').where({ store_id: storeId }).first();
}

/** The outlet's overrides at the store; undefined when none. */
export function findOutletOverride(db: Db, outletId: number, storeId: number): Promise<OutletStoreScheduleRecord | undefined> {
  return db('outlet_store_schedules').where({ outlet_id: outletId, store_id: storeId }).first();
}

/** Columns of store_schedules a PATCH may set. */
export type ScheduleColumns = Partial<Omit<StoreScheduleRecord, 'store_id' | 'updated_at'>>;

/** Creates or updates the store's settings row with `cols` (the rest keep their value or default). */
export async function upsertStoreSchedule(db: Db, storeId: number, cols: ScheduleColumns): Promise<void> {
  await db('store_schedules')
    .insert({ store_id: storeId, ...cols })
    .onConflict('store_id')
    .merge({ ...cols, updated_at: db.fn.now() });
}

/** Emergency orders of the outlet (any store) placed in [from, to) and not cancelled. */
export async function countEmergencyOrders(db: Db, outletId: number, from: Date, to: Date): Promise<number> {
  const [{ n }] = await db('orders')
    .where({ outlet_id: outletId, emergency: true })
    .whereNotIn('status', ['cancelled'])
    .where('order_date', '>=', from)
    .where('order_date', '<', to)
    .count<{ n: string }[]>('* as n');
  return Number(n);
}

/** Locks the outlet's row until the transaction ends (emergency orders of one outlet are counted one at a time). */
export async function lockOutlet(db: Db, outletId: number): Promise<void> {
  await db('outlets').where({ id: outletId }).forUpdate().first('id');
}

/** A delivery of the store's list (see deliverySchema). */
export interface DeliveryRow {
  orderId: number;
  orderNumber: string;
  status: string;
  outletId: number;
  outletName: string;
  address: string | null;
  city: string | null;
  customerName: string;
  customerPhone: string | null;
  itemCount: number;
  total: string;
  emergency: boolean;
}

/** The store's Delivery orders due on `date` that are not cancelled, by outlet name. */
export function findDeliveries(db: Db, storeId: number, date: string): Promise<DeliveryRow[]> {
  return db('orders as o')
    .join('outlets as ol', 'ol.id', 'o.outlet_id')
    .where('o.store_id', storeId)
    .where('o.fulfillment_flag', 'Delivery')
    .where('o.delivery_date', date)
    .whereNotIn('o.status', ['cancelled', 'cancel_pending'])
    .orderBy('ol.name')
    .orderBy('o.id')
    .select<DeliveryRow[]>(
      'o.id as orderId',
      'o.order_number as orderNumber',
      'o.status',
      'o.outlet_id as outletId',
      'ol.name as outletName',
      'ol.address',
      'ol.city',
      'o.customer_name as customerName',
      'o.customer_phone as customerPhone',
      db.raw('(SELECT count(*)::int FROM order_items oi WHERE oi.order_id = o.id) AS "itemCount"'),
      db.raw('o.total_amount::text AS total'),
      'o.emergency',
    );
}

/** Is the outlet linked to the store (it orders there)? */
export async function isLinked(db: Db, outletId: number, storeId: number): Promise<boolean> {
  return Boolean(await db('store_outlets').where({ outlet_id: outletId, store_id: storeId }).first('store_id'));
}

/** Writes the outlet's overrides at the store (a row of all nulls is removed). */
export async function saveOutletOverride(db: Db, row: OutletStoreScheduleRecord): Promise<void> {
  const { outlet_id, store_id, ...cols } = row;
  if (Object.values(cols).every((v) => v === null)) {
    await db('outlet_store_schedules').where({ outlet_id, store_id }).del();
    return;
  }
  await db('outlet_store_schedules').insert(row).onConflict(['outlet_id', 'store_id']).merge(cols);
}
