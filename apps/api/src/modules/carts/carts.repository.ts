import type { Knex } from 'knex';
import { preparedRaw, type Db } from '../../db/knex';
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

/** A raw SQL condition with its bindings (the access module's `mayActAtSql` over `c.outlet_id`, `c.store_id`). */
export type SqlCondition = { sql: string; bindings: readonly Knex.RawBinding[] };

/**
 * `findActiveById` and, in the same statement, whether the caller may act for the cart's outlet at its store
 * (`mayAct`, the condition `act` over the cart's columns) — the rule every cart route checks, in one round trip.
 */
export async function findActiveWithAccess(
  db: Db,
  userId: string,
  cartId: number,
  act: SqlCondition,
): Promise<(CartRow & { mayAct: boolean }) | undefined> {
  return db('carts as c')
    .join('outlets as o', 'o.id', 'c.outlet_id')
    .join('stores as s', 's.id', 'c.store_id')
    .where({ 'c.id': cartId, 'c.user_id': userId, 'c.status': 'active' })
    .first([...CART_COLUMNS, db.raw(`${act.sql} AS "mayAct"`, [...act.bindings])]);
}

/** An item the store carries (active, in its inventory), with its quantity-rule columns (issue 27). */
export interface CarriedItemRow {
  itemId: number;
  bottlesPerCase: number | null;
  minQty: number;
  maxQty: number | null;
  increment: number;
}

/**
 * `findActiveWithAccess` plus, in the same statement, the item `itemCode` of the cart's store's board when the
 * store carries it (active and in its inventory; `item` null otherwise): the reads of adding a line, one round trip.
 */
export async function findActiveWithItem(
  db: Db,
  userId: string,
  cartId: number,
  act: SqlCondition,
  itemCode: string,
): Promise<(CartRow & { mayAct: boolean; item: CarriedItemRow | null }) | undefined> {
  type Row = CartRow & { mayAct: boolean; itemId: number | null } & Omit<CarriedItemRow, 'itemId'>;
  const r = await preparedRaw<{ rows: Row[] }>(
    db,
    'cart_with_item',
    `SELECT ${CART_SELECT}, ${act.sql} AS "mayAct", f."itemId", f."bottlesPerCase", f."minQty", f."maxQty", f."increment"
       FROM carts c JOIN outlets o ON o.id = c.outlet_id JOIN stores s ON s.id = c.store_id
       LEFT JOIN LATERAL (SELECT i.id AS "itemId", i.bottles_per_case AS "bottlesPerCase", i.min_order_quantity AS "minQty",
                                 i.max_order_quantity AS "maxQty", i.order_increment AS "increment"
                            FROM items i JOIN inventory inv ON inv.store_id = s.id AND inv.item_id = i.id
                           WHERE i.board_id = s.board_id AND i.code = ? AND i.active LIMIT 1) f ON true
      WHERE c.id = ? AND c.user_id = ? AND c.status = 'active'
      LIMIT 1`,
    [...act.bindings, itemCode, cartId, userId],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  const { itemId, bottlesPerCase, minQty, maxQty, increment, ...cart } = row;
  return { ...cart, item: itemId === null ? null : { itemId, bottlesPerCase, minQty, maxQty, increment } };
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

/** The columns of a cart line (`ci`, a row of cart_items or of a statement's RETURNING) joined as findLines joins it: [SQL, name]. */
const LINE_COLUMNS_LIST: [string, keyof CartLineRow][] = [
  ['ci.id', 'id'],
  ['ci.item_code', 'itemCode'],
  ['ci.quantity', 'quantity'],
  ['ci.unit_price', 'unitPrice'],
  ['i.retail', 'retail'],
  ['i.name', 'name'],
  ['i.category', 'category'],
  ['i.bottle_size_id', 'bottleSizeId'],
  ['b.name', 'bottleSize'],
  ['b.volume_ml', 'volumeMl'],
  ['(i.id IS NOT NULL AND i.active AND inv.item_id IS NOT NULL)', 'available'],
  ['inv.on_hand', 'stock'],
  ['i.bottles_per_case', 'bottlesPerCase'],
  ['i.min_order_quantity', 'minQty'],
  ['i.max_order_quantity', 'maxQty'],
  ['i.order_increment', 'increment'],
];
const LINE_COLUMNS = LINE_COLUMNS_LIST.map(([expr, name]) => `${expr} AS "${name}"`).join(', ');
/** The joins of a cart line `ci` to its item, bottle size and the inventory of the store bound to the `?`. */
const LINE_JOINS = `LEFT JOIN items i ON i.id = ci.item_id LEFT JOIN bottle_sizes b ON b.id = i.bottle_size_id
  LEFT JOIN inventory inv ON inv.item_id = ci.item_id AND inv.store_id = ?`;

/**
 * GET /carts/current in one statement: may the caller act for the outlet at the store (`act` over `a.outlet_id`,
 * `a.store_id`), and only then the active cart of user × outlet × store, inserted when absent (ON CONFLICT DO NOTHING
 * on the partial unique index), with its facts; `created`: new (no lines). `cart` undefined while `mayAct`: another
 * request's cart committed after this statement began (insertOrFindActive then finds it).
 */
export async function openActive(
  db: Db,
  userId: string,
  outletId: number,
  storeId: number,
  act: SqlCondition,
): Promise<{ mayAct: boolean; cart?: CartRow; created: boolean }> {
  const cols = 'id, user_id, outlet_id, store_id, status, fulfillment_flag, delivery_charge, delivery_date, created_at';
  const r = await preparedRaw<{ rows: (CartRow & { mayAct: boolean; created: boolean | null })[] }>(
    db,
    'cart_open',
    `WITH a AS (SELECT ?::uuid AS user_id, ?::int AS outlet_id, ?::int AS store_id),
          ok AS MATERIALIZED (SELECT ${act.sql} AS ok FROM a),
          ins AS (INSERT INTO carts (user_id, outlet_id, store_id, status)
                  SELECT a.user_id, a.outlet_id, a.store_id, 'active' FROM a WHERE (SELECT ok FROM ok)
                  ON CONFLICT (user_id, outlet_id, store_id) WHERE status = 'active' DO NOTHING
                  RETURNING ${cols})
     SELECT ok.ok AS "mayAct", x.* FROM ok LEFT JOIN LATERAL (
       SELECT ${CART_SELECT}, c.created
         FROM (SELECT ${cols}, true AS created FROM ins
               UNION ALL
               SELECT ${cols}, false FROM carts k
                WHERE (SELECT ok FROM ok) AND k.user_id = ? AND k.outlet_id = ? AND k.store_id = ? AND k.status = 'active') c
         JOIN outlets o ON o.id = c.outlet_id
         JOIN stores s ON s.id = c.store_id
        ORDER BY c.created DESC, c.created_at DESC LIMIT 1) x ON true`,
    [userId, outletId, storeId, ...act.bindings, userId, outletId, storeId],
  );
  const { mayAct, created, ...cart } = r.rows[0];
  return { mayAct, created: created === true, cart: created === null ? undefined : (cart as CartRow) };
}

/** A cart line's columns each prefixed `line.` (joined to its cart: see findWithLines). */
const PREFIXED_LINE_COLUMNS = LINE_COLUMNS_LIST.map(([expr, name]) => `${expr} AS "line.${name}"`).join(', ');
const CART_SELECT = CART_COLUMNS.map((c) => c.replace(/^(\w+)\.(\w+) as (\w+)$/, '$1.$2 AS "$3"')).join(', ');

/**
 * The cart `cartId` (of `userId`, when given; active, with `activeOnly`) with its outlet and store facts, the caller's `extra` columns
 * (a select-list fragment over `c`, e.g. the access rule `… AS "mayAct"`, with its bindings) and its lines as
 * findLines reads them, in one statement; undefined when no such cart. Checkout's read.
 */
export async function findWithLines<X extends object>(
  db: Db,
  cartId: number,
  opts: { userId?: string; activeOnly?: boolean; extra: SqlCondition },
): Promise<{ cart: CartRow & X; lines: CartLineRow[] } | undefined> {
  const r = await preparedRaw<{ rows: Record<string, unknown>[] }>(
    db,
    'cart_with_lines',
    `SELECT ${CART_SELECT}, ${opts.extra.sql}, ${PREFIXED_LINE_COLUMNS}
       FROM carts c JOIN outlets o ON o.id = c.outlet_id JOIN stores s ON s.id = c.store_id
       LEFT JOIN cart_items ci ON ci.cart_id = c.id
       LEFT JOIN items i ON i.id = ci.item_id LEFT JOIN bottle_sizes b ON b.id = i.bottle_size_id
       LEFT JOIN inventory inv ON inv.item_id = ci.item_id AND inv.store_id = c.store_id
      WHERE c.id = ? ${opts.userId === undefined ? '' : 'AND c.user_id = ?'} ${opts.activeOnly ? "AND c.status = 'active'" : ''}
      ORDER BY ci.created_at, ci.id`,
    [...opts.extra.bindings, cartId, ...(opts.userId === undefined ? [] : [opts.userId])],
  );
  if (!r.rows.length) return undefined;
  const cart: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r.rows[0])) if (!k.startsWith('line.')) cart[k] = v;
  const lines = r.rows
    .filter((row) => row['line.id'] !== null)
    .map((row) => Object.fromEntries(LINE_COLUMNS_LIST.map(([, name]) => [name, row[`line.${name}`]])) as unknown as CartLineRow);
  return { cart: cart as CartRow & X, lines };
}

/** The cart's lines with item name, category, bottle size, current price and availability, oldest first (spec 001 §7). */
export async function findLines(db: Db, cartId: number, storeId: number): Promise<CartLineRow[]> {
  const r = await db.raw<{ rows: CartLineRow[] }>(
    `SELECT ${LINE_COLUMNS} FROM cart_items ci ${LINE_JOINS} WHERE ci.cart_id = ? ORDER BY ci.created_at, ci.id`,
    [storeId, cartId],
  );
  return r.rows;
}

/**
 * Adds `itemCode` by its rule (a new line: `first` at the current price; an existing one: + `increment` up to `max`;
 * active items the store carries) and reads the cart's lines, in one statement: `written` false when nothing was. The lines are the
 * statement's snapshot with the written line in place of its old version (a data-modifying CTE's rows are not
 * visible to its own statement), so they are what findLines would read right after.
 */
export async function addLineByRuleWithLines(
  db: Db,
  cart: { id: number; storeId: number },
  itemCode: string,
  rule: { first: number; increment: number; max: number },
): Promise<{ written: boolean; lines: CartLineRow[] }> {
  const r = await preparedRaw<{ rows: (CartLineRow & { written: boolean })[] }>(
    db,
    'cart_add_line',
    `WITH up AS (
       INSERT INTO cart_items AS ci (cart_id, item_id, item_code, quantity, unit_price)
       SELECT c.id, i.id, i.code, ?::int, i.retail
         FROM carts c
         JOIN stores s ON s.id = c.store_id
         JOIN items i ON i.board_id = s.board_id AND i.code = ? AND i.active
         JOIN inventory inv ON inv.store_id = c.store_id AND inv.item_id = i.id
        WHERE c.id = ?
       ON CONFLICT (cart_id, item_code) DO UPDATE
         SET quantity = ci.quantity + ?::int, updated_at = now()
         WHERE ci.quantity + ?::int <= LEAST(?::int, ${CART_LIMITS.maxQuantity})
       RETURNING ci.id, ci.cart_id, ci.item_id, ci.item_code, ci.quantity, ci.unit_price, ci.created_at)
     SELECT ${LINE_COLUMNS}, EXISTS (SELECT 1 FROM up) AS written
       FROM (SELECT id, cart_id, item_id, item_code, quantity, unit_price, created_at FROM cart_items
              WHERE cart_id = ? AND id NOT IN (SELECT id FROM up)
             UNION ALL SELECT * FROM up) ci
       ${LINE_JOINS}
      ORDER BY ci.created_at, ci.id`,
    [rule.first, itemCode, cart.id, rule.increment, rule.increment, rule.max, cart.id, cart.storeId],
  );
  const written = r.rows.length > 0 && r.rows[0].written;
  return { written, lines: r.rows.map(({ written: _w, ...line }) => line) };
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

/** Locks the cart row until the transaction ends (orders of one cart are placed one at a time). */
export async function lockById(db: Db, cartId: number): Promise<void> {
  await db('carts').where({ id: cartId }).forUpdate().first('id');
}

/** Empties a checked-out cart: deletes its lines and sets status checked_out (the row stays for the session's history). */
export async function checkOut(db: Db, cartId: number): Promise<void> {
  await db('cart_items').where({ cart_id: cartId }).del();
  await db('carts').where({ id: cartId }).update({ status: 'checked_out', updated_at: db.fn.now() });
}

/** Deletes the cart row; returns false when it was already gone. */
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
