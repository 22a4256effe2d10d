import type { Db } from '../../db/knex';
import { CART_LIMITS, type FulfillmentType, type SplitCasePolicy } from '@portal/contracts';

/** A cart row with the outlet and store facts the cart view shows (spec 001 §3 bcc_carts). */
export interface CartRow {
  id: number;
  userId: string;
  outletId: number;
  storeId: number;
  status: string;
  fulfillmentFlag: FulfillmentType;
  deliveryCharge: string;
  deliveryDate: string | null;
  outletName: string;
  outletCode: string;
  storeName: string;
  storeCity: string | null;
  storeState: string | null;
  storeDeliveryEnabled: boolean;
  storeDeliveryCharge: string;
  /** The store's split-case policy and fee per bottle of an incomplete case (issue 27). */
  storeSplitCasePolicy: SplitCasePolicy;
  storeSplitCaseFee: string;
}

/** A cart line joined with its item, bottle size and the store's inventory (spec 001 §7 "Read cart items"). */
export interface CartLineRow {
  id: number;
  itemCode: string;
  quantity: number;
  /** The price stored when the line was created. */
  unitPrice: string;
  /** The item's price now (what checkout charges); null when the item is gone. */
  retail: string | null;
  name: string | null;
  category: string | null;
  bottleSizeId: number | null;
  bottleSize: string | null;
  volumeMl: number | null;
  /** Active item still in the cart's store's inventory. */
  available: boolean;
  /** The store's on-hand (null: unreported or not carried), bottles per case and the item's rule columns (issue 27). */
  stock: number | null;
  bottlesPerCase: number | null;
  minQty: number | null;
  maxQty: number | null;
  increment: number | null;
}

const CART_COLUMNS = [
  'c.id',
  'c.user_id as userId',
  'c.outlet_id as outletId',
  'c.store_id as storeId',
  'c.status',
  'c.fulfillment_flag as fulfillmentFlag',
  'c.delivery_charge as deliveryCharge',
  'c.delivery_date as deliveryDate',
  'o.name as outletName',
  'o.outlet_code as outletCode',
  's.name as storeName',
  's.city as storeCity',
  's.state as storeState',
  's.delivery_enabled as storeDeliveryEnabled',
  's.delivery_charge as storeDeliveryCharge',
  's.split_case_policy as storeSplitCasePolicy',
  's.split_case_fee as storeSplitCaseFee',
];

/** The active cart `cartId` of `userId` with outlet and store facts; undefined when absent or not theirs. */
export async function findActiveById(db: Db, userId: string, cartId: number): Promise<CartRow | undefined> {
  return db('carts as c')
    .join('outlets as o', 'o.id', 'c.outlet_id')
    .join('stores as s', 's.id', 'c.store_id')
    .where({ 'c.id': cartId, 'c.user_id': userId, 'c.status': 'active' })
    .first(CART_COLUMNS);
}

/** The cart `cartId` whatever its owner or status, with outlet and store facts; undefined when gone. */
export async function findById(db: Db, cartId: number): Promise<CartRow | undefined> {
  return db('carts as c')
    .join('outlets as o', 'o.id', 'c.outlet_id')
    .join('stores as s', 's.id', 'c.store_id')
    .where('c.id', cartId)
    .first(CART_COLUMNS);
}

/**
 * Inserts the active cart of user × outlet × store unless one exists (the partial unique index
 * carts_one_active_per_user_outlet_store decides, so concurrent calls end with one cart); returns its id.
 */
export async function insertOrFindActive(db: Db, userId: string, outletId: number, storeId: number): Promise<number> {
  const inserted = await db.raw<{ rows: { id: number }[] }>(
    `INSERT INTO carts (user_id, outlet_id, store_id, status) VALUES (?, ?, ?, 'active')
     ON CONFLICT (user_id, outlet_id, store_id) WHERE status = 'active' DO NOTHING RETURNING id`,
    [userId, outletId, storeId],
  );
  if (inserted.rows.length) return inserted.rows[0].id;
  const row = await db('carts')
    .where({ user_id: userId, outlet_id: outletId, store_id: storeId, status: 'active' })
    .orderBy('created_at', 'desc')
    .first('id');
  if (!row) throw new Error(`no active cart for user ${userId}, outlet ${outletId}, store ${storeId} after its insert`);
  return row.id;
}

/** The cart's lines with item name, category, bottle size, current price and availability, oldest first (spec 001 §7). */
export async function findLines(db: Db, cartId: number, storeId: number): Promise<CartLineRow[]> {
  return db('cart_items as ci')
    .leftJoin('items as i', 'i.id', 'ci.item_id')
    .leftJoin('bottle_sizes as b', 'b.id', 'i.bottle_size_id')
    .leftJoin('inventory as inv', function () {
      this.on('inv.item_id', 'ci.item_id').andOnVal('inv.store_id', storeId);
    })
    .where('ci.cart_id', cartId)
    .orderBy([
      { column: 'ci.created_at', order: 'asc' },
      { column: 'ci.id', order: 'asc' },
    ])
    .select(
      'ci.id',
      'ci.item_code as itemCode',
      'ci.quantity',
      'ci.unit_price as unitPrice',
      'i.retail',
      'i.name',
      'i.category',
      'i.bottle_size_id as bottleSizeId',
      'b.name as bottleSize',
      'b.volume_ml as volumeMl',
      db.raw('(i.id IS NOT NULL AND i.active AND inv.item_id IS NOT NULL) AS available'),
      'inv.on_hand as stock',
      'i.bottles_per_case as bottlesPerCase',
      'i.min_order_quantity as minQty',
      'i.max_order_quantity as maxQty',
      'i.order_increment as increment',
    );
}

/**
 * Adds `quantity` of `itemCode` to the cart in one atomic statement: the item must be an active item of
 * the cart's store's inventory; a new line enters at the item's current price, an existing line grows.
 * `mode: 'strict'` refuses (no row) when the sum would pass 999; `mode: 'cap'` stops at 999.
 * Returns the line's id and new quantity, or undefined when nothing was written.
 */
export async function upsertLine(
  db: Db,
  cartId: number,
  itemCode: string,
  quantity: number,
  mode: 'strict' | 'cap',
): Promise<{ id: number; quantity: number } | undefined> {
  const max = CART_LIMITS.maxQuantity;
  const res = await db.raw<{ rows: { id: number; quantity: number }[] }>(
    `INSERT INTO cart_items AS ci (cart_id, item_id, item_code, quantity, unit_price)
     SELECT c.id, i.id, i.code, LEAST(?::int, ${max}), i.retail
       FROM carts c
       JOIN stores s ON s.id = c.store_id
       JOIN items i ON i.board_id = s.board_id AND i.code = ? AND i.active
       JOIN inventory inv ON inv.store_id = c.store_id AND inv.item_id = i.id
      WHERE c.id = ?
     ON CONFLICT (cart_id, item_code) DO UPDATE
       SET quantity = LEAST(ci.quantity + EXCLUDED.quantity, ${max}), updated_at = now()
       ${mode === 'strict' ? `WHERE ci.quantity + EXCLUDED.quantity <= ${max}` : ''}
     RETURNING ci.id, ci.quantity`,
    [quantity, itemCode, cartId],
  );
  return res.rows[0];
}

/** Does the cart's store carry `itemCode` (an active item in its inventory)? */
export async function storeCarriesCode(db: Db, cartId: number, itemCode: string): Promise<boolean> {
  const row = await db('carts as c')
    .join('stores as s', 's.id', 'c.store_id')
    .join('items as i', function () {
      this.on('i.board_id', 's.board_id').andOnVal('i.code', itemCode).andOnVal('i.active', true);
    })
    .join('inventory as inv', function () {
      this.on('inv.store_id', 'c.store_id').andOn('inv.item_id', 'i.id');
    })
    .where('c.id', cartId)
    .first('i.id');
  return Boolean(row);
}

/** Sets a line's quantity (1–999); returns false when the line is not in the cart. */
export async function updateLineQuantity(db: Db, cartId: number, lineId: number, quantity: number): Promise<boolean> {
  const n = await db('cart_items').where({ id: lineId, cart_id: cartId }).update({ quantity, updated_at: db.fn.now() });
  return n > 0;
}

/** Deletes a line; returns false when the line is not in the cart. */
export async function deleteLine(db: Db, cartId: number, lineId: number): Promise<boolean> {
  const n = await db('cart_items').where({ id: lineId, cart_id: cartId }).del();
  return n > 0;
}

/** Deletes every line of the cart; returns how many. */
export async function deleteLines(db: Db, cartId: number): Promise<number> {
  return db('cart_items').where({ cart_id: cartId }).del();
}

/** Deletes the cart row; returns false when it was already gone. */
/** Locks the cart row until the transaction ends (orders of one cart are placed one at a time). */
export async function lockById(db: Db, cartId: number): Promise<void> {
  await db('carts').where({ id: cartId }).forUpdate().first('id');
}

/** Empties a checked-out cart: deletes its lines and sets status checked_out (the row stays for the session's history). */
export async function checkOut(db: Db, cartId: number): Promise<void> {
  await db('cart_items').where({ cart_id: cartId }).del();
  await db('carts').where({ id: cartId }).update({ status: 'checked_out', updated_at: db.fn.now() });
}

export async function deleteCart(db: Db, cartId: number): Promise<boolean> {
  return (await db('carts').where({ id: cartId }).del()) > 0;
}

/** Saves the cart's fulfillment (spec 001 §7 "Save fulfillment"). */
export async function updateFulfillment(
  db: Db,
  cartId: number,
  f: { type: FulfillmentType; deliveryCharge: string; date: string | null },
): Promise<void> {
  await db('carts')
    .where({ id: cartId })
    .update({ fulfillment_flag: f.type, delivery_charge: f.deliveryCharge, delivery_date: f.date, updated_at: db.fn.now() });
}
