import { createHash } from 'node:crypto';
import {
  CHECKOUT_ERROR_CODES, CHECKOUT_MESSAGES, ORDER_MESSAGES, PERMISSIONS,
  type Card, type ListOrdersQuery, type Order, type OrderDetail, type OrderList, type ReorderResult,
} from '@portal/contracts';
import type { Config } from '../../config';
import type { Mailer } from '../../context';
import type { Db } from '../../db/knex';
import { AppError, ConflictError, ForbiddenError, NotFoundError, PaymentDeclinedError, UnprocessableError } from '../../http/errors';
import type { Logger } from '../../logger';
import { canReachStore, reachableStoreIds } from '../access/access.repository';
import * as carts from '../carts/carts.service';
import * as checkout from '../checkout-sessions/checkout-sessions.service';
import { fromCents, toCents } from '../../lib/money';
import * as payments from '../payments/payments.service';
import * as idem from './idempotency.repository';
import { orderConfirmationMail } from './order-mail';
import * as repo from './orders.repository';

/**
 * Orders (spec 001 §§3–7, spec 002 §§4–5, ARCHITECTURE §6): placing an order from a checkout session,
 * paying in-store or by card, order history, store order management and reorder.
 */

/** The signed-in caller as the service needs it. */
export interface Caller { userId: string; permissions: Set<string> }

/** What placing an order uses: the DB, config, the mail outbox, a logger and (optionally) a gateway. */
export interface OrderDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  logger: Logger;
  /** Defaults to payments.gatewayFor(config, db). */
  gateway?: payments.PaymentGateway;
}

/** A parsed POST /orders body (createOrderBodySchema output). */
export type OrderInput = { checkoutToken: string; paymentMethod: 'in_store' } | { checkoutToken: string; paymentMethod: 'card'; card: Card };

const IDEMPOTENCY_SCOPE = 'orders';

/**
 * POST /orders (issue 5 §2). With an Idempotency-Key, the first answer (201 with the order, 402 decline,
 * 502 payment error, 500 unconfirmed) is recorded per user and key and replayed to any retry (replayed:
 * true), so a retry never charges twice; a retry while the first still runs → 409
 * `idempotency_in_progress`; the key reused with another checkout token or method → 422
 * `idempotency_mismatch`. Refusals before anything happened (bad session, cart changed…) free the key.
 */
export async function placeOrder(deps: OrderDeps, caller: Caller, input: OrderInput, idempotencyKey?: string): Promise<{ order: OrderDetail; replayed: boolean }> {
  const { db } = deps;
  const key = idempotencyKey;
  if (key) {
    const hash = createHash('sha256').update(`${input.checkoutToken}|${input.paymentMethod}`).digest('hex');
    if (!(await idem.claim(db, caller.userId, IDEMPOTENCY_SCOPE, key, hash))) {
      const row = await idem.find(db, caller.userId, IDEMPOTENCY_SCOPE, key);
      if (row && row.requestHash !== hash) throw new UnprocessableError(CHECKOUT_MESSAGES.idempotencyMismatch, CHECKOUT_ERROR_CODES.idempotencyMismatch);
      if (!row || !row.completedAt) throw new ConflictError(CHECKOUT_MESSAGES.idempotencyInProgress, CHECKOUT_ERROR_CODES.idempotencyInProgress);
      return { order: replay(row), replayed: true };
    }
  }
  const attempt: Attempt = { chargeStarted: false, orderId: null };
  try {
    return { order: await place(deps, caller, input, key, attempt), replayed: false };
  } catch (err) {
    if (key) await settleKey(deps, caller.userId, key, attempt, err);
    throw err;
  }
}

interface Attempt { chargeStarted: boolean; orderId: number | null }

/** Outcomes after a charge was attempted are final and recorded; anything before frees the key. */
async function settleKey(deps: OrderDeps, userId: string, key: string, attempt: Attempt, err: unknown) {
  try {
    if (!attempt.chargeStarted) await idem.release(deps.db, userId, IDEMPOTENCY_SCOPE, key);
    else if (err instanceof AppError && [402, 500, 502].includes(err.status)) {
      await idem.complete(deps.db, userId, IDEMPOTENCY_SCOPE, key, err.status,
        { status: err.status, code: err.code, title: err.title, detail: err.message, errors: err.errors }, attempt.orderId);
    }
    // Any other failure after a charge started leaves the key in progress: an operator settles it.
  } catch (e) {
    deps.logger.error({ err: e, orderId: attempt.orderId }, 'could not record the idempotency key outcome');
  }
}

function replay(row: idem.IdempotencyRow): OrderDetail {
  if (row.statusCode === 201) return row.responseBody as OrderDetail;
  const p = row.responseBody as { status: number; code: string; title: string; detail?: string; errors?: { path: string; message: string }[] };
  throw new AppError(p.status, p.code, p.title, p.detail, p.errors);
}

async function place(deps: OrderDeps, caller: Caller, input: OrderInput, key: string | undefined, attempt: Attempt): Promise<OrderDetail> {
  const { db, logger } = deps;
  const userId = caller.userId;
  // 1. One transaction: lock and check the session, reprice, create the order and its lines. In-store
  //    orders are complete here; card orders commit with payment_status pending before any charge.
  const created = await db.transaction(async (trx) => {
    const session = await checkout.lockForOrder(trx, userId, input.checkoutToken);
    const live = await repo.findLiveBySession(trx, session.id);
    if (live?.paymentStatus === 'pending') throw new ConflictError(CHECKOUT_MESSAGES.paymentInProgress, CHECKOUT_ERROR_CODES.paymentInProgress);
    if (live?.paymentStatus === 'error') throw new ConflictError(CHECKOUT_MESSAGES.paymentError, CHECKOUT_ERROR_CODES.sessionUsed);
    if (live) throw new ConflictError(CHECKOUT_MESSAGES.sessionUsed, CHECKOUT_ERROR_CODES.sessionUsed);
    const priced = await checkout.priceSessionCart(trx, userId, session);
    if (input.paymentMethod === 'in_store' && priced.fulfillmentType === 'Delivery') {
      throw new UnprocessableError(CHECKOUT_MESSAGES.inStoreDelivery, CHECKOUT_ERROR_CODES.inStoreDelivery);
    }
    if (priced.total !== session.total) throw new ConflictError(CHECKOUT_MESSAGES.cartChanged, CHECKOUT_ERROR_CODES.cartChanged);
    const customer = customerSnapshot(await repo.findCustomer(trx, userId));
    const orderNumber = `ORD-${Date.now()}-${await repo.nextOrderSequence(trx)}`;
    const orderId = await repo.insertOrder(trx, {
      orderNumber, userId, storeId: priced.storeId, outletId: priced.outletId, checkoutSessionId: session.id,
      paymentMethod: input.paymentMethod, paymentStatus: input.paymentMethod === 'in_store' ? 'not_required' : 'pending',
      fulfillmentFlag: priced.fulfillmentType, deliveryDate: priced.fulfillmentDate, deliveryCharge: priced.deliveryCharge,
      subtotal: priced.subtotal, totalAmount: priced.total, ...customer, idempotencyKey: key ?? null,
    });
    await repo.insertLines(trx, orderId, priced.lines);
    const detail = input.paymentMethod === 'in_store' ? await finalise(trx, deps, session, orderId, userId, key) : undefined;
    return { session, orderId, orderNumber, amount: priced.total, storeId: priced.storeId, detail };
  });
  attempt.orderId = created.orderId;
  if (created.detail) {
    logger.info({ orderId: created.orderId, orderNumber: created.orderNumber }, 'order placed (pay in-store)');
    return created.detail;
  }
  if (input.paymentMethod !== 'card') throw new Error('unreachable');

  // 2. The charge, outside any transaction (the pending order row is committed and visible to operators).
  const gateway = deps.gateway ?? payments.gatewayFor(deps.config, db);
  const { card } = input;
  attempt.chargeStarted = true;
  let result: payments.ChargeResult;
  try {
    result = await gateway.charge({ amount: created.amount, orderNumber: created.orderNumber, storeId: created.storeId, card });
  } catch (err) {
    logger.error({ err, orderId: created.orderId }, 'payment gateway threw');
    result = { status: 'error', code: 'EXCEPTION', verbiage: 'The payment gateway failed', reference: null };
  }
  const log = { orderId: created.orderId, orderNumber: created.orderNumber, gateway: gateway.name, code: result.code, reference: result.reference };

  // 3a. Declined or failed: the order is marked, the cart and the session stay for another try.
  if (result.status !== 'approved') {
    await db.transaction(async (trx) => {
      await repo.settlePayment(trx, created.orderId, result.status === 'declined' ? 'failed' : 'error');
      await payments.recordCharge(trx, created.orderId, gateway.name, created.amount, card, result);
    });
    if (result.status === 'declined') {
      logger.info(log, 'card payment declined');
      throw new PaymentDeclinedError(result.verbiage, created.orderId);
    }
    logger.warn(log, 'card payment processing error');
    throw new AppError(502, CHECKOUT_ERROR_CODES.paymentError, 'Payment Failed', CHECKOUT_MESSAGES.paymentError);
  }

  // 3b. Approved: paid, payment recorded, session used, cart emptied, confirmation queued, in one transaction.
  try {
    const detail = await db.transaction(async (trx) => {
      if (!(await repo.settlePayment(trx, created.orderId, 'paid'))) throw new Error('the order is no longer pending');
      await payments.recordCharge(trx, created.orderId, gateway.name, created.amount, card, result);
      return finalise(trx, deps, created.session, created.orderId, userId, key);
    });
    logger.info(log, 'order placed (card approved)');
    return detail;
  } catch (err) {
    // Money was taken: record at least the payment on the order so an operator can settle it.
    logger.error({ ...log, err }, 'card approved but order finalisation failed');
    try {
      await db.transaction(async (trx) => {
        await repo.settlePayment(trx, created.orderId, 'paid');
        await payments.recordCharge(trx, created.orderId, gateway.name, created.amount, card, result);
      });
    } catch (err2) {
      logger.fatal({ ...log, err: err2 }, 'card approved but neither the order nor the payment could be updated: order left pending');
    }
    throw new AppError(500, CHECKOUT_ERROR_CODES.paymentUnconfirmed, 'Payment Unconfirmed', CHECKOUT_MESSAGES.paymentProcessedOrderFailing);
  }
}

/** Session used, cart checked out, confirmation queued (a mail failure only delays it), key recorded. */
async function finalise(trx: Db, deps: OrderDeps, session: checkout.LockedSession, orderId: number, userId: string, key: string | undefined): Promise<OrderDetail> {
  await checkout.completeCheckout(trx, session);
  const { row, detail } = await loadDetail(trx, orderId);
  try {
    await trx.transaction((sp) => deps.mailer.enqueue(sp, orderConfirmationMail(detail, row.storeCcEmails)));
  } catch (err) {
    deps.logger.error({ err, orderId }, 'order confirmation could not be queued');
  }
  if (key) await idem.complete(trx, userId, IDEMPOTENCY_SCOPE, key, 201, detail, orderId);
  return detail;
}

/** Spec 001 §7: profile full name → first + last name → the email's local part → 'Customer'. */
export function customerSnapshot(p: { email: string; fullName: string | null; firstName: string | null; lastName: string | null; phone: string | null } | undefined) {
  const full = p?.fullName?.trim();
  const firstLast = [p?.firstName?.trim(), p?.lastName?.trim()].filter(Boolean).join(' ');
  const local = p?.email?.split('@')[0]?.trim();
  return {
    customerName: full || firstLast || local || 'Customer',
    customerEmail: p?.email ?? '',
    customerPhone: p?.phone?.trim() || null,
  };
}

/**
 * GET /orders: placed orders (in-store reservations and paid card orders), newest first. Everyone sees
 * their own; holders of bcc.orders.store.manage also every order of the stores they reach (scope
 * 'store'); bcc.orders.outlet.manage gives the outlet label only (scope 'outlet', spec 001 §6).
 */
export async function listOrders(db: Db, caller: Caller, q: ListOrdersQuery): Promise<OrderList> {
  const manages = !q.mine && caller.permissions.has(PERMISSIONS.ordersStoreManage);
  const scope: repo.OrderScope = { userId: caller.userId, storeIds: manages ? await reachableStoreIds(db, caller.userId) : [] };
  const [rows, counts] = await Promise.all([repo.findPlaced(db, scope, q), repo.countByStatus(db, scope, q.storeId)]);
  const lines = await repo.findLines(db, rows.map((r) => r.id));
  const byOrder = new Map<number, repo.OrderLineRow[]>();
  for (const l of lines) byOrder.set(l.orderId, [...(byOrder.get(l.orderId) ?? []), l]);
  const n = (s: string) => counts[s] ?? 0;
  return {
    items: rows.map((r) => toOrder(r, byOrder.get(r.id) ?? [])),
    scope: manages ? 'store' : !q.mine && caller.permissions.has(PERMISSIONS.ordersOutletManage) ? 'outlet' : 'own',
    counts: { reserved: n('reserved'), ready: n('ready'), completed: n('completed'), cancelled: n('cancelled'), all: Object.values(counts).reduce((a, b) => a + b, 0) },
  };
}

/** GET /orders/latest: the caller's newest placed order; 404 'Order not found' when none. */
export async function latestOrder(db: Db, caller: Caller): Promise<OrderDetail> {
  const row = await repo.findLatestPlaced(db, caller.userId);
  if (!row) throw new NotFoundError(ORDER_MESSAGES.notFound);
  return (await loadDetail(db, row.id)).detail;
}

/**
 * GET /orders/{id}: the caller's own order, or (bcc.orders.store.manage) an order of a store they reach;
 * anything else 404 'Order not found' (ARCHITECTURE §4).
 */
export async function getOrder(db: Db, caller: Caller, orderId: number): Promise<OrderDetail> {
  const row = await repo.findById(db, orderId);
  if (!row || !(await maySee(db, caller, row))) throw new NotFoundError(ORDER_MESSAGES.notFound);
  return (await loadDetail(db, orderId)).detail;
}

/**
 * POST /orders/{id}/ready (spec 001 §4): reserved → ready by store staff of the order's store. 404 when
 * the store is not reachable; 409 `order_not_reserved` from any other status; 409
 * `order_awaiting_payment` for a card order not paid. The route requires bcc.orders.store.manage.
 */
export async function markReady(db: Db, caller: Caller, orderId: number): Promise<OrderDetail> {
  const row = await repo.findById(db, orderId);
  if (!row || !(await reachableStoreIds(db, caller.userId)).includes(row.storeId)) throw new NotFoundError(ORDER_MESSAGES.notFound);
  if (!repo.PLACED_PAYMENT_STATUSES.includes(row.paymentStatus)) throw new ConflictError(ORDER_MESSAGES.awaitingPayment, CHECKOUT_ERROR_CODES.orderAwaitingPayment);
  if (row.status !== 'reserved' || !(await repo.markReady(db, orderId))) throw new ConflictError(ORDER_MESSAGES.notReserved, CHECKOUT_ERROR_CODES.orderNotReserved);
  return (await loadDetail(db, orderId)).detail;
}

/**
 * POST /orders/{id}/reorder (spec 001 §4): adds each line's quantity of the caller's own order to their
 * active cart for the order's outlet × store (carts service; lines cap at 999). 404 for another's order;
 * 422 'No items to reorder' for an order without lines; 403 when the outlet or store is out of reach.
 * Lines the store no longer sells are skipped with a reason.
 */
export async function reorder(db: Db, caller: Caller, orderId: number): Promise<ReorderResult> {
  const row = await repo.findById(db, orderId);
  if (!row || row.userId !== caller.userId) throw new NotFoundError(ORDER_MESSAGES.notFound);
  const lines = await repo.findLines(db, [orderId]);
  if (!lines.length) throw new UnprocessableError(ORDER_MESSAGES.noItemsToReorder, CHECKOUT_ERROR_CODES.nothingToReorder);
  if (!(await canReachStore(db, caller.userId, row.storeId, row.outletId))) throw new ForbiddenError("You no longer have access to this order's outlet or store.");
  return db.transaction(async (trx) => {
    const cart = await carts.findOrCreateActiveCart(trx, caller.userId, row.outletId, row.storeId);
    let added = 0;
    const skipped: ReorderResult['skipped'] = [];
    for (const l of lines) {
      if ((await carts.addItemQuantity(trx, cart.id, l.itemCode, l.quantity)).added) added++;
      else skipped.push({ itemCode: l.itemCode, itemName: l.itemName, reason: 'No longer available from this store' });
    }
    return { cartId: cart.id, added, skipped, message: ORDER_MESSAGES.reorderAdded(added) };
  });
}

async function maySee(db: Db, caller: Caller, row: repo.OrderRow): Promise<boolean> {
  if (row.userId === caller.userId) return true;
  if (!caller.permissions.has(PERMISSIONS.ordersStoreManage)) return false;
  return (await reachableStoreIds(db, caller.userId)).includes(row.storeId);
}

async function loadDetail(db: Db, orderId: number): Promise<{ row: repo.OrderRow; detail: OrderDetail }> {
  const row = await repo.findById(db, orderId);
  if (!row) throw new NotFoundError(ORDER_MESSAGES.notFound);
  const [lines, paid] = await Promise.all([repo.findLines(db, [orderId]), row.paymentMethod === 'card' ? payments.approvedPaymentOf(db, orderId) : undefined]);
  const detail: OrderDetail = {
    ...toOrder(row, lines),
    store: { id: row.storeId, name: row.storeName, address: row.storeAddress, city: row.storeCity, state: row.storeState, zipCode: row.storeZip, phone: row.storePhone },
    delivery: row.fulfillmentFlag === 'Delivery'
      ? { name: row.outletName, address: row.outletAddress, city: row.outletCity, state: row.outletState, zipCode: row.outletZip, phone: row.outletPhone }
      : null,
    payment: paid ? { cardBrand: paid.cardBrand, cardLast4: paid.cardLast4 } : null,
  };
  return { row, detail };
}

const money = (v: string) => fromCents(toCents(v));

function toOrder(r: repo.OrderRow, lines: repo.OrderLineRow[]): Order {
  return {
    id: r.id,
    orderNumber: r.orderNumber,
    status: r.status,
    paymentMethod: r.paymentMethod,
    paymentStatus: r.paymentStatus,
    orderDate: new Date(r.orderDate).toISOString(),
    readyAt: r.readyAt ? new Date(r.readyAt).toISOString() : null,
    storeId: r.storeId,
    storeName: r.storeName,
    outletId: r.outletId,
    outletName: r.outletName,
    customerName: r.customerName,
    customerEmail: r.customerEmail,
    customerPhone: r.customerPhone,
    fulfillmentType: r.fulfillmentFlag,
    fulfillmentDate: r.deliveryDate,
    deliveryCharge: money(r.deliveryCharge),
    subtotal: money(r.subtotal),
    total: money(r.totalAmount),
    notes: r.notes,
    itemCount: lines.length,
    unitCount: lines.reduce((s, l) => s + l.quantity, 0),
    items: lines.map((l) => ({
      id: l.id, itemCode: l.itemCode, itemName: l.itemName, bottleSizeId: l.bottleSizeId, bottleSizeText: l.bottleSizeText,
      quantity: l.quantity, unitPrice: money(l.unitPrice), totalPrice: money(l.totalPrice),
    })),
  };
}
