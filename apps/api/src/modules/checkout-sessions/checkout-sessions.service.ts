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
import { mayActAt, mayActAtSql, type Actor } from '../access/access.service';
import * as repo from './checkout-sessions.repository';
import * as carts from '../carts/carts.service';
import { assertCardPaymentsReady, cardPaymentReadiness } from '../payments/payments.service';
import { fromCents, toCents } from '../../lib/money';
import * as schedules from '../schedules/schedules.service';

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
  /** The bottle's volume in ml (null: unknown), for the delivery minimum. */
  volumeMl: number | null;
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
  /** An emergency order (issue 28): skips the calendar; `emergencyFee` is in `total`. */
  emergency: boolean;
  emergencyFee: string;
}

/** A session locked for placing an order (see lockForOrder). */
export interface LockedSession {
  id: string;
  cartId: number;
  total: string;
  emergency: boolean;
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
export async function startCheckout(
  deps: CheckoutDeps,
  actor: Actor,
  { cartId, emergency = false }: { cartId: number; emergency?: boolean },
): Promise<CheckoutSession> {
  const { userId } = actor;
  // One statement reads the cart, the access rule, whether a card order of it awaits its outcome, and its lines.
  const found = await carts.findWithLines<{ mayAct: boolean; paymentPending: boolean }>(deps.db, cartId, {
    userId,
    activeOnly: true,
    extra: checkoutFactsSql(actor),
  });
  if (!found?.cart.mayAct) throw new NotFoundError(CART_MESSAGES.cartNotFound);
  if (found.cart.paymentPending) throw new ConflictError(CHECKOUT_MESSAGES.paymentBeingConfirmed, PROBLEM_CODES.paymentBeingConfirmed);
  const base = priceLines(found.cart, found.lines);
  const begin = async (db: Db) => {
    const priced = await withOrderingRules(db, base, { emergency, take: true });
    const token = randomBytes(32).toString('hex');
    const row = await repo.insertSession(db, {
      tokenHash: hashToken(token),
      userId,
      cartId: found.cart.id,
      total: priced.total,
      minutes: CHECKOUT_SESSION_MINUTES,
      emergency,
    });
    const started = view(token, row.expiresAt, priced, deps.config.paymentTestMode);
    if (started.fulfillmentType === 'Delivery') await assertCardPaymentsReady(db, deps.config, started.storeId, { delivery: true });
    return withCardReadiness(db, deps.config, started);
  };
  // A Pickup that is no emergency writes one row and takes nothing: no transaction around that one statement.
  // Delivery (refused after the insert when the store cannot take cards) and emergencies (the allowance is
  // taken under the outlet's lock) keep theirs.
  if (base.fulfillmentType === 'Pickup' && !emergency) return begin(deps.db);
  return deps.db.transaction((trx) => begin(trx));
}

/** The checkout read's extra columns over the cart `c`: may the actor check out there (`mayAct`), and `paymentPending`. */
function checkoutFactsSql(actor: Actor) {
  const act = mayActAtSql(actor, CHECKOUT_CODES, 'c.outlet_id', 'c.store_id');
  return { sql: `${act.sql} AS "mayAct", ${repo.CART_PAYMENT_PENDING_SQL} AS "paymentPending"`, bindings: act.bindings };
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
  const priced = await withOrderingRules(db, await priceCart(db, cart), { emergency: session.emergency, take: false, minimum: false });
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
export async function lockForOrder(trx: Db, actor: Actor, input: { checkoutToken: string }): Promise<LockedSession> {
  const s = await lockSessionAndCart(trx, actor, input);
  await refuseWhilePaymentPending(trx, s.cartId);
  return s;
}

/**
 * lockForOrder without the pending-payment check (POST /orders reads it with the cart: readForOrder): a valid
 * session of the user and its cart are locked in one statement (session, then cart); any refusal (absent,
 * another's, used, expired) is found by the same checks as getSession, with the session locked.
 */
export async function lockSessionAndCart(trx: Db, actor: Actor, { checkoutToken }: { checkoutToken: string }): Promise<LockedSession> {
  const locked = await repo.lockValidSessionAndCart(trx, hashToken(checkoutToken), actor.userId);
  if (locked) return { id: locked.id, cartId: locked.cartId, total: fromCents(toCents(locked.total)), emergency: locked.emergency };
  const s = await findValid(trx, actor.userId, checkoutToken, true);
  await carts.lockCart(trx, s.cartId);
  return { id: s.id, cartId: s.cartId, total: fromCents(toCents(s.total)), emergency: s.emergency };
}

/** The session's cart as POST /orders reads it (readForOrder): facts, lines, `mayAct`, `paymentPending` and the caller's extras. */
export type OrderCartRead<X> = { cart: carts.CartFacts & X & { mayAct: boolean; paymentPending: boolean }; lines: carts.CartLine[] };

/**
 * For POST /orders, after lockSessionAndCart (a statement of its own, so this one sees what committed while it
 * waited for the locks): the session's cart whatever its status, its lines, may the actor check out there, has
 * it a card order awaiting its outcome, and the caller's `extra` columns over the cart `c`, in one statement.
 * Undefined when the cart is gone.
 */
export async function readForOrder<X extends object>(
  trx: Db,
  actor: Actor,
  session: LockedSession,
  extra: { sql: string; bindings: readonly unknown[] },
): Promise<OrderCartRead<X> | undefined> {
  const facts = checkoutFactsSql(actor);
  return carts.findWithLines<X & { mayAct: boolean; paymentPending: boolean }>(trx, session.cartId, {
    extra: { sql: `${facts.sql}, ${extra.sql}`, bindings: [...facts.bindings, ...(extra.bindings as typeof facts.bindings)] },
  });
}

/** The pending-payment refusal of lockForOrder on a cart read by readForOrder (409 `payment_being_confirmed`). */
export function refuseReadWhilePaymentPending(read: { cart: { paymentPending: boolean } } | undefined): void {
  if (read?.cart.paymentPending) throw new ConflictError(CHECKOUT_MESSAGES.paymentBeingConfirmed, PROBLEM_CODES.paymentBeingConfirmed);
}

/** priceSessionCart on a cart read by readForOrder: the same refusals, in the same order. */
export async function priceReadForOrder(trx: Db, session: LockedSession, read: OrderCartRead<object> | undefined): Promise<PricedCart> {
  if (!read || read.cart.status !== 'active') throw new ConflictError(CHECKOUT_MESSAGES.sessionUsed, PROBLEM_CODES.checkoutSessionUsed);
  if (!read.cart.mayAct) throw new NotFoundError(CART_MESSAGES.cartNotFound);
  return withOrderingRules(trx, priceLines(read.cart, read.lines), { emergency: session.emergency, take: true });
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
  if (s) await completeCheckout(trx, { id: s.id, cartId: s.cartId, total: '0.00', emergency: false });
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
  return withOrderingRules(trx, await priceCart(trx, cart), { emergency: session.emergency, take: true });
}

/**
 * The ordering week's rules on a priced cart (issue 28, schedules module): a Delivery below the store's
 * minimum → 409 `below_delivery_minimum` (unless `minimum: false`); a Delivery's date is the one asked for
 * or the earliest the calendar allows (after the cut-off: the next delivery date); an emergency order
 * skips the calendar, must have allowance left (`take`: checked under the outlet's lock, else 409
 * `emergency_allowance_used`) and carries the store's fee in its total.
 */
async function withOrderingRules(
  db: Db,
  priced: PricedCart,
  opts: { emergency: boolean; take: boolean; minimum?: boolean },
  now = new Date(),
): Promise<PricedCart> {
  const out = { ...priced, emergency: opts.emergency };
  if (priced.fulfillmentType === 'Delivery') {
    if (opts.minimum !== false) await schedules.assertDeliveryMinimum(db, priced.storeId, priced);
    out.fulfillmentDate = await schedules.deliveryDateFor(
      db,
      { outletId: priced.outletId, storeId: priced.storeId, requested: priced.fulfillmentDate, emergency: opts.emergency },
      now,
    );
  }
  if (opts.emergency) {
    const fee = opts.take
      ? await schedules.takeEmergency(db, priced.outletId, priced.storeId, now)
      : (await schedules.settingsOf(db, priced.storeId)).emergencyFee;
    out.emergencyFee = fromCents(toCents(fee));
    out.total = fromCents(toCents(priced.total) + toCents(fee));
  }
  return out;
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
  return priceLines(cart, await carts.currentLines(db, cart.id, cart.storeId));
}

/** priceCart on lines already read (carts.findWithLines). */
function priceLines(cart: carts.CartFacts, rows: carts.CartLine[]): PricedCart {
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
      volumeMl: r.volumeMl,
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
    emergency: false,
    emergencyFee: '0.00',
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
    emergency: p.emergency,
    emergencyFee: p.emergencyFee,
  };
}
