import { createHash, randomBytes } from 'node:crypto';
import {
  PERMISSIONS,
  PROBLEM_CODES,
  CART_MESSAGES,
  CHECKOUT_MESSAGES,
  CHECKOUT_SESSION_MINUTES,
  type CheckoutSession,
  type FulfillmentType,
} from '@portal/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import { BadRequestError, ConflictError, GoneError, NotFoundError, UnprocessableError } from '../../http/errors';
import { mayActAt, type Actor } from '../access/access.service';
import * as repo from './checkout-sessions.repository';
import * as carts from '../carts/carts.service';
import { assertCardPaymentsReady, cardPaymentReadiness } from '../payments/payments.service';
import { fromCents, toCents } from '../../lib/money';

/**
 * Server-side checkout sessions (spec 001 §4 "Checkout", ARCHITECTURE §9): a token of 32 random bytes
 * (64 hex characters) handed to the person once and stored as its SHA-256 hash, valid 30 minutes, bound
 * to the user and the cart, with the total computed here from the items' current prices.
 * Functions take `(deps or db, actor, input)`: the collaborators, the caller and the route's parsed input.
 */

/** What the checkout routes use: the DB and the config (payment test mode, card-payment readiness). */
export interface CheckoutDeps {
  db: Db;
  config: Config;
}

/** Checking out needs bcc.carts.checkout at the cart's outlet (spec 001 §5, ARCHITECTURE §11). */
export const CHECKOUT_CODES = [PERMISSIONS.cartsCheckout] as const;

/** A cart line priced from the DB: unitPrice = the item's retail now; totalPrice = unitPrice × quantity. */
export interface PricedLine {
  itemCode: string;
  itemName: string;
  bottleSizeId: number | null;
  bottleSizeText: string | null;
  quantity: number;
  unitPrice: string;
  totalPrice: string;
}

/** A cart priced for checkout; money as decimal strings; deliveryCharge > 0 only for Delivery. */
export interface PricedCart {
  cartId: number;
  outletId: number;
  storeId: number;
  fulfillmentType: FulfillmentType;
  fulfillmentDate: string | null;
  lines: PricedLine[];
  subtotal: string;
  deliveryCharge: string;
  /** Split-case fees (issue 27): bottles of incomplete cases × the store's fee under split_fee, else "0.00". */
  splitCaseFee: string;
  total: string;
}

/** A session locked for placing an order (see lockForOrder). */
export interface LockedSession {
  id: string;
  cartId: number;
  total: string;
}

/** SHA-256 hex of a token: what the database keeps. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * POST /checkout-sessions: starts checkout of the caller's active cart, in one transaction. 404 'Cart not
 * found' when the cart is not the caller's active cart, or they may not checkout for its outlet (a member
 * holding bcc.carts.checkout there) at its store; 400 `cart_empty` with the spec's text for an empty cart; 409 when an item is no longer sold; 422
 * `delivery_unavailable` for Delivery from a store without delivery. Delivery is paid by card only: at a
 * store that cannot take cards it is refused (422 `payment_setup`) and the session is not kept. Returns
 * the session with the token (only time it is shown) and whether its store takes cards.
 */
export async function startCheckout(deps: CheckoutDeps, actor: Actor, { cartId }: { cartId: number }): Promise<CheckoutSession> {
  const { userId } = actor;
  return deps.db.transaction(async (db) => {
    const cart = await carts.findActiveCart(db, userId, cartId);
    if (!cart || !(await mayActAt(db, actor, CHECKOUT_CODES, cart.outletId, cart.storeId)))
      throw new NotFoundError(CART_MESSAGES.cartNotFound);
    await refuseWhilePaymentPending(db, cart.id);
    const priced = await priceCart(db, cart);
    const token = randomBytes(32).toString('hex');
    const row = await repo.insertSession(db, {
      tokenHash: hashToken(token),
      userId,
      cartId: cart.id,
      total: priced.total,
      minutes: CHECKOUT_SESSION_MINUTES,
    });
    const started = view(token, row.expiresAt, priced, deps.config.paymentTestMode);
    if (started.fulfillmentType === 'Delivery') await assertCardPaymentsReady(db, deps.config, started.storeId, { delivery: true });
    return withCardReadiness(db, deps.config, started);
  });
}

/**
 * GET /checkout-sessions/{token}: validates the session for the payment page (spec 001 §4): 404
 * 'No checkout session found'; 404 'User mismatch in checkout session' for someone else's; 410
 * 'Checkout session expired'; 409 when already used, or when the cart changed since (total differs).
 * The answer says whether the store takes cards, so the payment page shows the setup message on its
 * first load instead of a card form that cannot work.
 */
export async function getSession(deps: CheckoutDeps, actor: Actor, { token }: { token: string }): Promise<CheckoutSession> {
  const { db } = deps;
  const session = await findValid(db, actor.userId, token, false);
  const cart = await carts.findCartById(db, session.cartId);
  if (!cart || cart.status !== 'active') throw new ConflictError(CHECKOUT_MESSAGES.sessionUsed, PROBLEM_CODES.checkoutSessionUsed);
  const priced = await priceCart(db, cart);
  if (priced.total !== fromCents(toCents(session.total)))
    throw new ConflictError(CHECKOUT_MESSAGES.cartChanged, PROBLEM_CODES.checkoutCartChanged);
  return withCardReadiness(db, deps.config, view(token, session.expiresAt, priced, deps.config.paymentTestMode));
}

async function withCardReadiness(db: Db, config: Config, s: CheckoutSession): Promise<CheckoutSession> {
  return { ...s, cardPaymentsAvailable: (await cardPaymentReadiness(db, config, s.storeId)).cardPaymentsAvailable };
}

/**
 * For POST /orders, inside the order's transaction: locks the session row (SELECT … FOR UPDATE, so
 * concurrent orders on one token run one after the other) and checks user, expiry and use, with the
 * same errors as getSession.
 */
export async function lockForOrder(trx: Db, actor: Actor, { checkoutToken }: { checkoutToken: string }): Promise<LockedSession> {
  const s = await findValid(trx, actor.userId, checkoutToken, true);
  await carts.lockCart(trx, s.cartId);
  await refuseWhilePaymentPending(trx, s.cartId);
  return { id: s.id, cartId: s.cartId, total: fromCents(toCents(s.total)) };
}

/**
 * A cart with a card order awaiting its gateway outcome is locked: no new checkout session or
 * order for it (409 `payment_being_confirmed`) until that order settles (paid, or failed: unlocked).
 */
export async function refuseWhilePaymentPending(db: Db, cartId: number): Promise<void> {
  if (await repo.cartHasPendingPayment(db, cartId)) {
    throw new ConflictError(CHECKOUT_MESSAGES.paymentBeingConfirmed, PROBLEM_CODES.paymentBeingConfirmed);
  }
}

/** Settlement of a paid card order (inside its transaction): its session used and its cart checked out. */
export async function completeCheckoutOf(trx: Db, sessionId: string | null): Promise<void> {
  const s = sessionId ? await repo.findSessionCart(trx, sessionId) : undefined;
  if (s) await completeCheckout(trx, { id: s.id, cartId: s.cartId, total: '0.00' });
}

/**
 * Prices the session's cart from the DB for the order (inside the order's transaction): the cart must
 * still be active, else 409 `checkout_session_used`, and its store still reachable by the user through
 * its outlet, else 404 'Cart not found'; same refusals as startCheckout.
 */
export async function priceSessionCart(trx: Db, actor: Actor, session: LockedSession): Promise<PricedCart> {
  const cart = await carts.findCartById(trx, session.cartId);
  if (!cart || cart.status !== 'active') throw new ConflictError(CHECKOUT_MESSAGES.sessionUsed, PROBLEM_CODES.checkoutSessionUsed);
  if (!(await mayActAt(trx, actor, CHECKOUT_CODES, cart.outletId, cart.storeId))) throw new NotFoundError(CART_MESSAGES.cartNotFound);
  return priceCart(trx, cart);
}

/** After a placed order (inside its transaction): the session is used and the cart emptied and checked out. */
export async function completeCheckout(trx: Db, session: LockedSession): Promise<void> {
  await repo.markConsumed(trx, session.id);
  await carts.checkOutCart(trx, session.cartId);
}

async function findValid(db: Db, userId: string, token: string, forUpdate: boolean): Promise<repo.SessionRow> {
  const s = await repo.findSessionByHash(db, hashToken(token), forUpdate);
  if (!s) throw new NotFoundError(CHECKOUT_MESSAGES.noSession, PROBLEM_CODES.checkoutSessionNotFound);
  if (s.userId !== userId) throw new NotFoundError(CHECKOUT_MESSAGES.userMismatch, PROBLEM_CODES.checkoutSessionUserMismatch);
  if (s.consumedAt) throw new ConflictError(CHECKOUT_MESSAGES.sessionUsed, PROBLEM_CODES.checkoutSessionUsed);
  if (s.expired) throw new GoneError(CHECKOUT_MESSAGES.expired, PROBLEM_CODES.checkoutSessionExpired);
  return s;
}

/**
 * Σ item retail × quantity (+ split-case fees, + the store's delivery charge for Delivery), in integer cents.
 * 400 `cart_empty`, 409 `checkout_items_unavailable` when a line's item is inactive or not in the store's
 * inventory, 422 `quantity_rule` for a line off its item's rule (issue 27), 422 `delivery_unavailable` when the
 * store no longer delivers.
 */
const hasRetail = <T extends { retail: string | null }>(r: T): r is T & { retail: string } => r.retail !== null;

async function priceCart(db: Db, cart: carts.CartFacts): Promise<PricedCart> {
  const rows = await carts.currentLines(db, cart.id, cart.storeId);
  if (rows.length === 0) throw new BadRequestError(CHECKOUT_MESSAGES.cartEmpty, undefined, PROBLEM_CODES.cartEmpty, 'Cart is empty');
  const unavailable = rows.filter((r) => !r.available);
  if (unavailable.length) {
    throw new ConflictError(
      `${CHECKOUT_MESSAGES.itemsUnavailable} (${unavailable.map((r) => r.itemCode).join(', ')})`,
      PROBLEM_CODES.checkoutItemsUnavailable,
    );
  }
  if (cart.fulfillmentFlag === 'Delivery' && !cart.storeDeliveryEnabled) {
    throw new UnprocessableError(CART_MESSAGES.deliveryUnavailable, PROBLEM_CODES.deliveryUnavailable);
  }
  const { splitCaseFeeCents } = carts.checkQuantityRules(cart, rows);
  let subtotal = 0;
  // Every line is available here, so each has its item's price.
  const lines = rows.filter(hasRetail).map((r) => {
    const unit = toCents(r.retail);
    subtotal += unit * r.quantity;
    return {
      itemCode: r.itemCode,
      itemName: r.name ?? r.itemCode,
      bottleSizeId: r.bottleSizeId,
      bottleSizeText: r.bottleSize,
      quantity: r.quantity,
      unitPrice: fromCents(unit),
      totalPrice: fromCents(unit * r.quantity),
    };
  });
  const delivery = cart.fulfillmentFlag === 'Delivery' ? toCents(cart.storeDeliveryCharge) : 0;
  return {
    cartId: cart.id,
    outletId: cart.outletId,
    storeId: cart.storeId,
    fulfillmentType: cart.fulfillmentFlag,
    fulfillmentDate: cart.deliveryDate,
    lines,
    subtotal: fromCents(subtotal),
    deliveryCharge: fromCents(delivery),
    splitCaseFee: fromCents(splitCaseFeeCents),
    total: fromCents(subtotal + splitCaseFeeCents + delivery),
  };
}

function view(token: string, expiresAt: Date, p: PricedCart, testMode: boolean): CheckoutSession {
  return {
    token,
    expiresAt: new Date(expiresAt).toISOString(),
    total: p.total,
    subtotal: p.subtotal,
    deliveryCharge: p.deliveryCharge,
    splitCaseFee: p.splitCaseFee,
    cartId: p.cartId,
    storeId: p.storeId,
    outletId: p.outletId,
    itemCount: p.lines.length,
    fulfillmentType: p.fulfillmentType,
    fulfillmentDate: p.fulfillmentDate,
    testMode,
  };
}
