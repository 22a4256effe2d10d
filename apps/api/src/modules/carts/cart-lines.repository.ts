import type { Db } from '../../db/knex';
import { CART_LIMITS } from '@portal/contracts';

/**
 * Cart line queries of the ordering week (issue 27): item facts for many codes in one statement, a line's
 * rule facts, the add-by-rule upsert and the batched upsert of quick order and guides.
 */

/** An item of the store's board by code, with whether the store carries it and the rule columns. */
export interface ItemFactsRow {
  itemId: number;
  code: string;
  name: string;
  active: boolean;
  /** In the store's inventory. */
  carried: boolean;
  stock: number | null;
  bottlesPerCase: number | null;
  minQty: number;
  maxQty: number | null;
  increment: number;
}

/** The items of the store's board with these codes (one statement, whatever the count); codes not found are absent. */
export async function findItemFacts(db: Db, storeId: number, codes: readonly string[]): Promise<ItemFactsRow[]> {
  if (!codes.length) return [];
  return db('items as i')
    .join('stores as s', 's.board_id', 'i.board_id')
    .leftJoin('inventory as inv', function () {
      this.on('inv.store_id', 's.id').andOn('inv.item_id', 'i.id');
    })
    .where('s.id', storeId)
    .whereRaw('i.code = ANY(?::text[])', [[...codes]])
    .select(
      'i.id as itemId',
      'i.code',
      'i.name',
      'i.active',
      db.raw('(inv.item_id IS NOT NULL) AS carried'),
      'inv.on_hand as stock',
      'i.bottles_per_case as bottlesPerCase',
      'i.min_order_quantity as minQty',
      'i.max_order_quantity as maxQty',
      'i.order_increment as increment',
    );
}

/** A line of the cart with its item's rule columns; undefined when the line is not in the cart. */
export interface LineFactsRow {
  itemCode: string;
  quantity: number;
  bottlesPerCase: number | null;
  minQty: number | null;
  maxQty: number | null;
  increment: number | null;
}

export async function findLineFacts(db: Db, cartId: number, lineId: number): Promise<LineFactsRow | undefined> {
  return db('cart_items as ci')
    .leftJoin('items as i', 'i.id', 'ci.item_id')
    .where({ 'ci.id': lineId, 'ci.cart_id': cartId })
    .first(
      'ci.item_code as itemCode',
      'ci.quantity',
      'i.bottles_per_case as bottlesPerCase',
      'i.min_order_quantity as minQty',
      'i.max_order_quantity as maxQty',
      'i.order_increment as increment',
    );
}

/** The quantities of the cart's lines with these codes (code → quantity). */
export async function lineQuantities(db: Db, cartId: number, codes: readonly string[]): Promise<Map<string, number>> {
  if (!codes.length) return new Map();
  const rows: { itemCode: string; quantity: number }[] = await db('cart_items')
    .where('cart_id', cartId)
    .whereRaw('item_code = ANY(?::text[])', [[...codes]])
    .select('item_code as itemCode', 'quantity');
  return new Map(rows.map((r) => [r.itemCode, r.quantity]));
}

/**
 * Writes many lines in one statement (quick order, guides): each `{ itemId, code, quantity }` (codes unique)
 * enters at its item's current price (new lines in the order given); an existing line becomes `mode: 'add'` its quantity + the new one,
 * `mode: 'atLeast'` the larger of the two (capped at 999). Returns code → the line's new quantity.
 */
export async function upsertLines(
  db: Db,
  cartId: number,
  lines: readonly { itemId: number; code: string; quantity: number }[],
  mode: 'add' | 'atLeast',
): Promise<Map<string, number>> {
  if (!lines.length) return new Map();
  const max = CART_LIMITS.maxQuantity;
  const next = mode === 'add' ? `LEAST(ci.quantity + EXCLUDED.quantity, ${max})` : 'GREATEST(ci.quantity, EXCLUDED.quantity)';
  const res = await db.raw<{ rows: { itemCode: string; quantity: number }[] }>(
    `INSERT INTO cart_items AS ci (cart_id, item_id, item_code, quantity, unit_price)
     SELECT ?::int, i.id, i.code, v.quantity, i.retail
       FROM unnest(?::int[], ?::int[]) WITH ORDINALITY AS v(item_id, quantity, ord)
       JOIN items i ON i.id = v.item_id
      ORDER BY v.ord
     ON CONFLICT (cart_id, item_code) DO UPDATE SET quantity = ${next}, updated_at = now()
     RETURNING ci.item_code AS "itemCode", ci.quantity`,
    [cartId, lines.map((l) => l.itemId), lines.map((l) => Math.min(l.quantity, max))],
  );
  return new Map(res.rows.map((r) => [r.itemCode, r.quantity]));
}
