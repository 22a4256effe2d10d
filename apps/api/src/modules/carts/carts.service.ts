import { PERMISSIONS, PROBLEM_CODES, CART_LIMITS, CART_MESSAGES, type Cart, type FulfillmentBody } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { BadRequestError, NotFoundError, UnprocessableError } from '../../http/errors';
import { mayActAtSql, type Actor } from '../access/access.service';
import * as repo from './carts.repository';
import * as lines from './cart-lines.repository';
import { fromCents, toCents } from '../../lib/money';
import {
  casePack,
  effectiveRule,
  firstValid,
  isValidQuantity,
  quantityRuleError,
  roundUpToRule,
  splitFeeCents,
  upperBound,
} from '../../lib/quantity-rules';

/**
 * The cart (spec 001 §4, ARCHITECTURE §5): one active cart per user × outlet × store, lines with a unique
 * item code and quantity 1–999, fulfillment Pickup or Delivery. Every function answers NotFoundError for a
 * cart that is not the caller's active cart, or for whose outlet and store the caller may no longer act (a
 * member of the outlet holding bcc.carts.use there, the store linked and active; ARCHITECTURE §4, §11).
 */

/** The cart a route is about (its path parameter), and a line of it. */
export interface CartInput {
  cartId: number;
}
export interface LineInput extends CartInput {
  itemId: number;
}

/** A cart with the outlet and store facts checkout prices it with (the store's delivery settings). */
export type CartFacts = repo.CartRow;

/** The active cart `cartId` of `userId`; undefined when absent, not theirs or checked out. No reach check inside. */
export function findActiveCart(db: Db, userId: string, cartId: number): Promise<CartFacts | undefined> {
  return repo.findActiveById(db, userId, cartId);
}

/** The cart `cartId` whatever its owner or status; undefined when gone (checkout re-reads a session's cart). */
export function findCartById(db: Db, cartId: number): Promise<CartFacts | undefined> {
  return repo.findById(db, cartId);
}

/** The identity of an active cart. */
export interface CartRef {
  id: number;
  userId: string;
  outletId: number;
  storeId: number;
}

/**
 * Finds or creates the active cart of user × outlet × store; race-safe (INSERT … ON CONFLICT DO NOTHING on
 * the partial unique index, then SELECT). No access checks inside: callers check the outlet and store.
 */
export async function findOrCreateActiveCart(db: Db, userId: string, outletId: number, storeId: number): Promise<CartRef> {
  const id = await repo.insertOrFindActive(db, userId, outletId, storeId);
  return { id, userId, outletId, storeId };
}

/**
 * Adds `quantity` (a whole number ≥ 1) of `itemCode` to cart `cartId` at the item's current price, rounded up to
 * the item's quantity rule at the cart's store (issue 27: a reorder of 5 of an item sold by 6 adds 6), capping the
 * line at 999, atomically (concurrent adds never lose an increment). No ownership checks inside: callers check.
 * Returns { added: false } when the cart's store does not carry the code.
 */
export async function addItemQuantity(db: Db, cartId: number, itemCode: string, quantity: number): Promise<{ added: boolean }> {
  if (!Number.isInteger(quantity) || quantity < 1) throw new RangeError(`quantity must be a whole number ≥ 1, got ${quantity}`);
  const cart = await repo.findById(db, cartId);
  const [facts] = cart ? await lines.findItemFacts(db, cart.storeId, [itemCode]) : [];
  const rounded = cart && facts ? roundUpToRule(effectiveRule({ ...facts, policy: cart.storeSplitCasePolicy }), quantity) : null;
  const line = await repo.upsertLine(db, cartId, itemCode, rounded ?? quantity, 'cap');
  return { added: Boolean(line) };
}

/** A cart line as checkout prices it (findWithLines, currentLines). */
export type CartLine = repo.CartLineRow;

/**
 * The cart `cartId` with its facts and lines in one statement, plus the caller's `extra` columns over the cart
 * `c` (the access rule, …); `userId` and `activeOnly` narrow to the user's active cart. No access check inside.
 */
export function findWithLines<X extends object>(
  db: Db,
  cartId: number,
  opts: { userId?: string; activeOnly?: boolean; extra: repo.SqlCondition },
): Promise<{ cart: CartFacts & X; lines: CartLine[] } | undefined> {
  return repo.findWithLines<X>(db, cartId, opts);
}

/**
 * The cart's lines, oldest first, each with the item's current price (`retail`, what checkout charges),
 * name and bottle size, and whether the cart's store still sells it. No access check (callers check).
 */
export function currentLines(db: Db, cartId: number, storeId: number): Promise<repo.CartLineRow[]> {
  return repo.findLines(db, cartId, storeId);
}

/** The cart view (cartSchema) of the user's active cart `cartId`; NotFoundError when not theirs or not reachable. */
export async function getCart(db: Db, actor: Actor, cartId: number): Promise<Cart> {
  const cart = await ownCart(db, actor, cartId);
  return view(cart, await repo.findLines(db, cart.id, cart.storeId));
}

/**
 * GET /carts/current: the active cart of user × outlet × store, created when absent. The outlet must be
 * one of the user's and the store linked to it, else NotFoundError.
 */
export async function openCurrentCart(db: Db, actor: Actor, { outletId, storeId }: { outletId: number; storeId: number }): Promise<Cart> {
  // One statement checks the access rule, creates the cart when absent and reads it; a new cart has no lines to read.
  const opened = await repo.openActive(db, actor.userId, outletId, storeId, mayActAtSql(actor, SHOP_CODES, 'a.outlet_id', 'a.store_id'));
  if (!opened.mayAct) throw new NotFoundError('Store not found');
  if (opened.cart) return view(opened.cart, opened.created ? [] : await repo.findLines(db, opened.cart.id, storeId));
  const ref = await findOrCreateActiveCart(db, actor.userId, outletId, storeId);
  const cart = await repo.findActiveById(db, actor.userId, ref.id);
  if (!cart) throw new NotFoundError('Store not found');
  return view(cart, await repo.findLines(db, ref.id, storeId));
}

/**
 * POST /carts/{cartId}/items: a new code enters at its first valid quantity (the rule's min: 1 without a rule)
 * at the current price, an existing code grows by one increment (spec 001 §4, issue 27). NotFoundError for a
 * code the store does not carry; 422 `quantity_rule` past the item's max; 400 `cart_quantity_limit` at 999.
 */
export async function addItem(db: Db, actor: Actor, { cartId, itemCode }: CartInput & { itemCode: string }): Promise<Cart> {
  // One statement reads the cart, the access rule and the item; one more writes the line and reads the lines back.
  const found = await repo.findActiveWithItem(
    db,
    actor.userId,
    cartId,
    mayActAtSql(actor, SHOP_CODES, 'c.outlet_id', 'c.store_id'),
    itemCode,
  );
  if (!found?.mayAct) throw new NotFoundError(CART_MESSAGES.cartNotFound);
  const { item: facts, mayAct: _ok, ...cart } = found;
  if (!facts) throw new NotFoundError(CART_MESSAGES.itemUnavailable);
  const rule = effectiveRule({ ...facts, policy: cart.storeSplitCasePolicy });
  const first = firstValid(rule);
  if (first === null) throw quantityRuleError(itemCode, rule.min, rule);
  const added = await repo.addLineByRuleWithLines(db, cart, itemCode, { first, increment: rule.increment, max: upperBound(rule) });
  if (!added.written) {
    if (rule.max === null) throw new BadRequestError(CART_MESSAGES.quantityLimit, undefined, PROBLEM_CODES.cartQuantityLimit);
    const had = added.lines.find((l) => l.itemCode === itemCode)?.quantity ?? 0;
    throw quantityRuleError(itemCode, had + rule.increment, rule);
  }
  return view(cart, added.lines);
}

/**
 * PATCH /carts/{cartId}/items/{lineId}: sets the quantity; 0 or less removes the line (spec 001 §4).
 * The body schema refuses > 999 and fractions; a quantity off the item's rule → 422 `quantity_rule` naming the
 * rule and the nearest valid quantity (issue 27). NotFoundError when the line is not in the cart.
 */
export async function setItemQuantity(
  db: Db,
  actor: Actor,
  { cartId, itemId: lineId, quantity }: LineInput & { quantity: number },
): Promise<Cart> {
  if (quantity > CART_LIMITS.maxQuantity || !Number.isInteger(quantity)) {
    throw new BadRequestError(CART_MESSAGES.quantityRange, [{ path: 'quantity', message: CART_MESSAGES.quantityRange }]);
  }
  const cart = await ownCart(db, actor, cartId);
  if (quantity > 0) {
    const facts = await lines.findLineFacts(db, cart.id, lineId);
    if (!facts) throw new NotFoundError(CART_MESSAGES.lineNotFound);
    const rule = ruleOf(cart, facts);
    if (!isValidQuantity(rule, quantity)) throw quantityRuleError(facts.itemCode, quantity, rule);
  }
  const found = quantity <= 0 ? await repo.deleteLine(db, cart.id, lineId) : await repo.updateLineQuantity(db, cart.id, lineId, quantity);
  if (!found) throw new NotFoundError(CART_MESSAGES.lineNotFound);
  return view(cart, await repo.findLines(db, cart.id, cart.storeId));
}

/** DELETE /carts/{cartId}/items/{lineId}; NotFoundError when the line is not in the cart. */
export async function removeItem(db: Db, actor: Actor, { cartId, itemId: lineId }: LineInput): Promise<Cart> {
  const cart = await ownCart(db, actor, cartId);
  if (!(await repo.deleteLine(db, cart.id, lineId))) throw new NotFoundError(CART_MESSAGES.lineNotFound);
  return view(cart, await repo.findLines(db, cart.id, cart.storeId));
}

/** DELETE /carts/{cartId}: deletes the lines, then the cart, in one transaction (spec 001 §4 "Clearing"). */
export async function clearCart(db: Db, actor: Actor, { cartId }: CartInput): Promise<void> {
  await db.transaction(async (trx) => {
    const cart = await ownCart(trx, actor, cartId);
    await repo.deleteLines(trx, cart.id);
    await repo.deleteCart(trx, cart.id);
  });
}

/**
 * PUT /carts/{cartId}/fulfillment: Pickup (charge 0) or Delivery (the store's charge); optional date not
 * before today. 400 for a past date; 422 `delivery_unavailable` when the store has delivery disabled.
 * "Today" is the earliest calendar date on Earth (UTC−12), so a buyer's own today is never refused.
 */
export async function setFulfillment(
  db: Db,
  actor: Actor,
  { cartId, ...body }: CartInput & FulfillmentBody,
  now = new Date(),
): Promise<Cart> {
  const cart = await ownCart(db, actor, cartId);
  if (body.date !== null && body.date < earliestToday(now)) {
    throw new BadRequestError(CART_MESSAGES.pastDate, [{ path: 'date', message: CART_MESSAGES.pastDate }]);
  }
  if (body.type === 'Delivery' && !cart.storeDeliveryEnabled) {
    throw new UnprocessableError(CART_MESSAGES.deliveryUnavailable, PROBLEM_CODES.deliveryUnavailable);
  }
  const deliveryCharge = body.type === 'Delivery' ? cart.storeDeliveryCharge : '0.00';
  await repo.updateFulfillment(db, cart.id, { type: body.type, deliveryCharge, date: body.date });
  const updated = { ...cart, fulfillmentFlag: body.type, deliveryCharge, deliveryDate: body.date };
  return view(updated, await repo.findLines(db, cart.id, cart.storeId));
}

/** Locks the cart row until the transaction ends (orders of one cart are placed one at a time). */
export function lockCart(trx: Db, cartId: number): Promise<void> {
  return repo.lockById(trx, cartId);
}

/** After a placed order (inside its transaction): the cart's lines deleted and its status checked_out. */
export function checkOutCart(trx: Db, cartId: number): Promise<void> {
  return repo.checkOut(trx, cartId);
}

/** YYYY-MM-DD of the earliest time zone (UTC−12) at `now`. */
export function earliestToday(now: Date): string {
  return new Date(now.getTime() - 12 * 3600_000).toISOString().slice(0, 10);
}

/** The effective quantity rule of a line's item in this cart's store (no rule when the item is gone). */
function ruleOf(
  cart: repo.CartRow,
  l: { bottlesPerCase: number | null; minQty: number | null; maxQty: number | null; increment: number | null },
) {
  return effectiveRule({
    minQty: l.minQty ?? 1,
    maxQty: l.maxQty,
    increment: l.increment ?? 1,
    bottlesPerCase: l.bottlesPerCase,
    policy: cart.storeSplitCasePolicy,
  });
}

/**
 * Checkout's rule check (issue 27): throws 422 `quantity_rule` for the first line whose quantity is off its
 * item's rule now (a cart made before a rule or the store's policy changed), else answers the split-case fee
 * of the lines in cents.
 */
export function checkQuantityRules(cart: CartFacts, rows: repo.CartLineRow[]): { splitCaseFeeCents: number } {
  let fees = 0;
  const feeCents = toCents(cart.storeSplitCasePolicy === 'split_fee' ? cart.storeSplitCaseFee : '0');
  for (const l of rows) {
    const rule = ruleOf(cart, l);
    if (!isValidQuantity(rule, l.quantity)) throw quantityRuleError(l.itemCode, l.quantity, rule);
    fees += splitFeeCents(cart.storeSplitCasePolicy, feeCents, l.bottlesPerCase, l.quantity);
  }
  return { splitCaseFeeCents: fees };
}

/** The codes a cart needs (spec 001 §4), held at the cart's outlet (ARCHITECTURE §11). */
export const SHOP_CODES = [PERMISSIONS.cartsUse] as const;

/** The caller's active cart `cartId` with its store facts, or NotFoundError (the rule of every cart route). */
export function ownedCart(db: Db, actor: Actor, cartId: number): Promise<CartFacts> {
  return ownCart(db, actor, cartId);
}

/** The cart view (cartSchema) of a cart whose access was checked. */
export async function cartView(db: Db, cart: CartFacts): Promise<Cart> {
  return view(cart, await repo.findLines(db, cart.id, cart.storeId));
}

/** The caller's active cart, if they may still act for its outlet at its store (a member, holding bcc.carts.use there); else 404. */
async function ownCart(db: Db, actor: Actor, cartId: number, codes: readonly string[] = SHOP_CODES): Promise<repo.CartRow> {
  const found = await repo.findActiveWithAccess(db, actor.userId, cartId, mayActAtSql(actor, codes, 'c.outlet_id', 'c.store_id'));
  if (!found?.mayAct) throw new NotFoundError(CART_MESSAGES.cartNotFound);
  const { mayAct: _ok, ...cart } = found;
  return cart;
}

/**
 * The cart view, priced as checkout prices it (checkout-sessions): each line at the item's price now
 * (the stored add-time price only if the item is gone), the split-case fees in cents (issue 27), Delivery at
 * the store's charge now.
 */
function view(cart: repo.CartRow, rows: repo.CartLineRow[]): Cart {
  let subtotal = 0;
  let totalQuantity = 0;
  let fees = 0;
  const feeCents = toCents(cart.storeSplitCaseFee);
  const items = rows.map((l) => {
    const unit = toCents(l.retail ?? l.unitPrice);
    const fee = splitFeeCents(cart.storeSplitCasePolicy, feeCents, l.bottlesPerCase, l.quantity);
    subtotal += unit * l.quantity;
    totalQuantity += l.quantity;
    fees += fee;
    return {
      id: l.id,
      itemCode: l.itemCode,
      name: l.name ?? l.itemCode,
      category: l.category ?? 'Uncategorized',
      quantity: l.quantity,
      unitPrice: fromCents(unit),
      lineTotal: fromCents(unit * l.quantity),
      bottleSizeId: l.bottleSizeId,
      bottleSize: l.bottleSize ?? 'Unknown Size',
      volumeMl: l.volumeMl ? l.volumeMl : null,
      available: l.available,
      stock: l.stock,
      bottlesPerCase: casePack(l.bottlesPerCase),
      quantityRule: ruleOf(cart, l),
      splitCaseFee: fromCents(fee),
    };
  });
  const charge = cart.fulfillmentFlag === 'Delivery' ? toCents(cart.storeDeliveryCharge) : 0;
  return {
    id: cart.id,
    outletId: cart.outletId,
    storeId: cart.storeId,
    outlet: { name: cart.outletName, code: cart.outletCode },
    store: {
      name: cart.storeName,
      city: cart.storeCity,
      state: cart.storeState,
      deliveryEnabled: cart.storeDeliveryEnabled,
      deliveryCharge: fromCents(toCents(cart.storeDeliveryCharge)),
      splitCasePolicy: cart.storeSplitCasePolicy,
      splitCaseFee: fromCents(feeCents),
    },
    items,
    fulfillment: { type: cart.fulfillmentFlag, date: cart.deliveryDate, deliveryCharge: fromCents(charge) },
    itemCount: items.length,
    totalQuantity,
    subtotal: fromCents(subtotal),
    splitCaseFee: fromCents(fees),
    total: fromCents(subtotal + fees + charge),
  };
}
