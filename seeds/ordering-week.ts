import { parse } from 'csv-parse';
import type { Knex } from 'knex';
import { openDataFile } from './data-files';

/**
 * Demo data of the licensee's ordering week (issue 27), idempotent (run on every demo seed):
 * 1. store_item_history for the demo stores: each store's real average weekly bottles per item in 2022, from
 *    store_items_2022.csv (bottles sold 2022-01-02 … 2022-10-31 ÷ 43.1 weeks): the basis of a suggested order for
 *    an outlet without history of its own;
 * 2. a case rule (increment 6) on one vodka item of each store the demo buyer shops at — never one of the first
 *    three `search=vodka` results nor the first two products by name, which earlier contract checks add to carts
 *    with quantities 1, 2, 3 or 7 — so the ordering-week check finds a ruled product among the first six;
 * 3. ten weeks of completed past orders of each demo buyer outlet at Central City Liquor (2190), one a week;
 * 4. two order guides per demo buyer outlet at 2190 ("Weekly bar order", "Weekend top-up").
 * Past orders and guides are written once (fixed order numbers, unique guide names); the history is upserted.
 */

/** The outlets the demo buyer orders for, and the store their demo history is at. */
const BUYER_OUTLETS = ['DEMO-DSM-01', 'DEMO-AMS-01'];
const HISTORY_STORE = 2190;
/** Weeks between the first and last order date of store_items_2022.csv (2022-01-02 … 2022-10-31). */
const HISTORY_WEEKS = 302 / 7;
const HISTORY_YEAR = 2022;
const PAST_WEEKS = 10;

export interface OrderingWeekSeedOptions {
  /** store_items_2022.csv(.gz); without it no store history is loaded. */
  storeItemsFile?: string;
  /** The time the past orders count back from (tests pass a fixed one). */
  now?: Date;
}

export async function seedOrderingWeek(db: Knex, opts: OrderingWeekSeedOptions = {}): Promise<void> {
  const outlets: { id: number; outlet_code: string }[] = await db('outlets')
    .whereIn('outlet_code', BUYER_OUTLETS)
    .select('id', 'outlet_code');
  if (!outlets.length) return;
  const stores: number[] = (
    await db('store_outlets')
      .whereIn(
        'outlet_id',
        outlets.map((o) => o.id),
      )
      .distinct('store_id')
  ).map((r) => r.store_id);
  if (opts.storeItemsFile) await loadStoreHistory(db, opts.storeItemsFile, stores);
  await ruleOneVodkaItem(db, stores);
  if (!stores.includes(HISTORY_STORE)) return;
  const top = await topSellers(db, HISTORY_STORE, 14);
  if (top.length < 4) return;
  const buyer = await db('users as u')
    .join('user_profiles as p', 'p.user_id', 'u.id')
    .where('u.email', 'buyer@example.com')
    .first('u.id', 'u.email', 'p.full_name');
  if (!buyer) return;
  for (const o of outlets) {
    await pastOrders(db, { ...o, buyer, items: top.slice(0, 12), now: opts.now ?? new Date() });
    await guides(db, { ...o, createdBy: buyer.id, items: top });
  }
}

/** Upserts the stores' weekly averages from the store items file (only the given stores; streamed). */
async function loadStoreHistory(db: Knex, file: string, stores: number[]): Promise<void> {
  const wanted = new Set(stores);
  const rows: { store_id: number; item_code: string; weekly_bottles: string; order_lines: number; year: number }[] = [];
  const parser = openDataFile(file).pipe(parse({ columns: true, trim: true }));
  for await (const rec of parser as AsyncIterable<Record<string, string>>) {
    const store = Number(rec['Store Number']);
    const bottles = Number(rec['Bottles Sold']);
    if (!wanted.has(store) || !(bottles > 0)) continue;
    const weekly = Math.round((bottles / HISTORY_WEEKS) * 100) / 100;
    if (weekly < 0.01) continue;
    rows.push({
      store_id: store,
      item_code: rec['Item Number'],
      weekly_bottles: weekly.toFixed(2),
      order_lines: Number(rec['Order Lines']) || 0,
      year: HISTORY_YEAR,
    });
  }
  for (let i = 0; i < rows.length; i += 1000) {
    await db('store_item_history')
      .insert(rows.slice(i, i + 1000))
      .onConflict(['store_id', 'item_code'])
      .merge(['weekly_bottles', 'order_lines', 'year']);
  }
}

/** The first `n` codes of a store's catalog for a search, ranked as the shop ranks them (stores.repository productPageSql). */
async function ranked(db: Knex, storeId: number, search: string | null, n: number): Promise<string[]> {
  const where = search ? `AND (i.code ILIKE :like OR i.name ILIKE :like)` : '';
  const order = search
    ? `CASE WHEN i.code = :term THEN 0 WHEN i.code ILIKE :prefix OR i.name ILIKE :prefix THEN 1 WHEN i.name ILIKE :like THEN 2 ELSE 3 END,
       similarity(i.name, :term) DESC, i.name, i.code`
    : 'i.name, i.code';
  const { rows } = await db.raw<{ rows: { code: string }[] }>(
    `SELECT i.code FROM inventory inv JOIN items i ON i.id = inv.item_id
      WHERE inv.store_id = :storeId AND i.active ${where} ORDER BY ${order} LIMIT :n`,
    { storeId, term: search ?? '', prefix: `${search ?? ''}%`, like: `%${search ?? ''}%`, n },
  );
  return rows.map((r) => r.code);
}

/** Increment 6 on the 4th–6th vodka result of each store, skipping every product earlier checks put in carts. */
async function ruleOneVodkaItem(db: Knex, stores: number[]): Promise<void> {
  const protectedCodes = new Set<string>();
  const candidates: string[][] = [];
  for (const s of stores) {
    const vodka = await ranked(db, s, 'vodka', 6);
    for (const c of [...vodka.slice(0, 3), ...(await ranked(db, s, null, 2))]) protectedCodes.add(c);
    candidates.push(vodka.slice(3));
  }
  for (const list of candidates) {
    const code = list.find((c) => !protectedCodes.has(c));
    if (!code) continue;
    await db('items')
      .where({ code, min_order_quantity: 1, order_increment: 1 })
      .whereNull('max_order_quantity')
      .update({ order_increment: 6 });
  }
}

interface Seller {
  id: number;
  code: string;
  name: string;
  retail: string;
  bottleSizeId: number | null;
  size: string | null;
  weekly: number;
  increment: number;
}

/** The store's best sellers it carries now (by 2022 weekly average, else by name). */
async function topSellers(db: Knex, storeId: number, n: number): Promise<Seller[]> {
  const { rows } = await db.raw<{ rows: Seller[] }>(
    `SELECT i.id, i.code, i.name, i.retail::text AS retail, i.bottle_size_id AS "bottleSizeId", b.name AS size,
            coalesce(h.weekly_bottles, 0)::float AS weekly, i.order_increment AS increment
       FROM inventory inv JOIN items i ON i.id = inv.item_id AND i.active
       LEFT JOIN bottle_sizes b ON b.id = i.bottle_size_id
       LEFT JOIN store_item_history h ON h.store_id = inv.store_id AND h.item_code = i.code
      WHERE inv.store_id = ? AND i.retail > 0
      ORDER BY (i.order_increment > 1) DESC, h.weekly_bottles DESC NULLS LAST, i.name
      LIMIT ?`,
    [storeId, n],
  );
  return rows;
}

const cents = (s: string) => Math.round(Number(s) * 100);
const money = (c: number) => (c / 100).toFixed(2);

/** One completed order a week for the last ten weeks (bar-sized quantities that vary a little week to week). */
async function pastOrders(
  db: Knex,
  o: { id: number; outlet_code: string; buyer: { id: string; email: string; full_name: string }; items: Seller[]; now: Date },
): Promise<void> {
  const base = [12, 6, 6, 4, 3, 3, 2, 2, 6, 12, 1, 2];
  for (let k = 1; k <= PAST_WEEKS; k++) {
    const at = new Date(o.now.getTime() - (k * 7 - 1) * 86_400_000);
    const lines = o.items.map((it, i) => {
      const q = it.increment > 1 ? it.increment * (1 + ((k + i) % 2)) : Math.max(1, base[i % base.length] + ((k + i) % 3) - 1);
      return { it, q };
    });
    const total = lines.reduce((s, l) => s + cents(l.it.retail) * l.q, 0);
    await db.transaction(async (trx) => {
      const [order] = await trx('orders')
        .insert({
          order_number: `ORD-WK-${o.outlet_code}-W${String(k).padStart(2, '0')}`,
          user_id: o.buyer.id,
          store_id: HISTORY_STORE,
          outlet_id: o.id,
          status: 'completed',
          payment_method: 'in_store',
          payment_status: 'not_required',
          fulfillment_flag: 'Pickup',
          subtotal: money(total),
          total_amount: money(total),
          delivery_charge: 0,
          customer_name: o.buyer.full_name,
          customer_email: o.buyer.email,
          order_date: at.toISOString(),
          ready_at: at.toISOString(),
          completed_at: at.toISOString(),
          notes: 'Demo weekly order (ordering week)',
        })
        .onConflict('order_number')
        .ignore()
        .returning('id');
      if (!order) return;
      await trx('order_items').insert(
        lines.map(({ it, q }) => ({
          order_id: order.id,
          item_code: it.code,
          item_name: it.name,
          bottle_size_id: it.bottleSizeId,
          bottlesize_text: it.size,
          quantity: q,
          unit_price: it.retail,
          total_price: money(cents(it.retail) * q),
        })),
      );
    });
  }
}

/** Two guides of the outlet at 2190; the second lists one code the store does not carry (shown as such). */
async function guides(db: Knex, o: { id: number; createdBy: string; items: Seller[] }): Promise<void> {
  const notCarried = await db('items')
    .whereNotIn('id', db('inventory').where({ store_id: HISTORY_STORE }).select('item_id'))
    .orderBy('code')
    .first('code');
  const sets: [string, { itemCode: string; parQuantity: number }[]][] = [
    [
      'Weekly bar order',
      o.items
        .slice(0, 10)
        .map((it, i) => ({ itemCode: it.code, parQuantity: it.increment > 1 ? 12 : [12, 8, 8, 6, 6, 4, 4, 3, 8, 12][i] })),
    ],
    [
      'Weekend top-up',
      [
        ...o.items.slice(10, 14).map((it) => ({ itemCode: it.code, parQuantity: 4 })),
        ...(notCarried ? [{ itemCode: notCarried.code, parQuantity: 2 }] : []),
      ],
    ],
  ];
  for (const [name, lines] of sets) {
    const [g] = await db('order_guides')
      .insert({ outlet_id: o.id, store_id: HISTORY_STORE, name, created_by: o.createdBy })
      .onConflict(['outlet_id', 'name'])
      .ignore()
      .returning('id');
    if (!g || !lines.length) continue;
    await db('order_guide_lines').insert(
      lines.map((l, position) => ({ guide_id: g.id, item_code: l.itemCode, par_quantity: l.parQuantity, position })),
    );
  }
}
