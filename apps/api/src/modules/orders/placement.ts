import { createHash } from 'node:crypto';
import { PROBLEM_CODES, CHECKOUT_MESSAGES, type Card, type OrderDetail } from '@portal/contracts';
import { isConnectionLost } from '../../db/connection-errors';
import { ConflictError, InternalError, UnprocessableError } from '../../http/errors';
import { ordersPlaced } from '../../http/metrics';
import * as checkout from '../checkout-sessions/checkout-sessions.service';
import * as payments from '../payments/payments.service';
import { assertCardPaymentsReady } from '../payments/payments.service';
import type { Actor } from '../access/access.service';
import { withIdempotency } from '../idempotency/idempotency.service';
import { newOrderNumber } from './order-number';
import { detailOf } from './order-detail';
import * as repo from './orders.repository';
import * as writes from './order-writes.repository';
import { answer, checkAndSettle, confirm, gatewayOf, settle, type ChargeOutcome, type SettleDeps } from './settlement';

/**
 * Placing an order (POST /orders; spec 001 §§7–8, spec 002 §§4–5, ARCHITECTURE §6), as the
 * story it is: [idempotency] → create the pending order → charge → settle (the same settle step the
 * reconciler uses). In-store orders are complete when created.
 */

/** A parsed POST /orders body (createOrderBodySchema output). */
export type OrderInput =
  { checkoutToken: string; paymentMethod: 'in_store' } | { checkoutToken: string; paymentMethod: 'card'; card: Card };

/** placeOrder's input: the parsed body and the optional Idempotency-Key header. */
export type PlaceOrderInput = OrderInput & { idempotencyKey?: string };

/** What placing an order uses (see SettleDeps). */
export type OrderDeps = SettleDeps;

const IDEMPOTENCY_SCOPE = 'orders';

/**
 * POST /orders. Without an Idempotency-Key the order is placed once per call. With one (withIdempotency):
 * the first answer (201, 402 decline, 502 payment error) is replayed to retries; a retry while the first
 * runs → 409 `idempotency_in_progress`; the key with another body → 422 `idempotency_key_reused`; a key
 * whose request died (lease over) resumes its order through settlement (a gateway lookup), never a new
 * charge. A card outcome not known yet → 409 `payment_being_confirmed` (the order shows in My Orders).
 */
export async function placeOrder(
  deps: OrderDeps,
  caller: Actor,
  { idempotencyKey, ...input }: PlaceOrderInput,
): Promise<{ order: OrderDetail; replayed: boolean }> {
  if (!idempotencyKey) return { order: await place(deps, caller, input, null), replayed: false };
  const key = idempotencyKey;
  // The order this request committed (known without a query once createPendingOrder has returned).
  const placed: { orderId?: number } = {};
  const { value, replayed } = await withIdempotency<OrderDetail>(
    deps.db,
    deps.logger,
    {
      userId: caller.userId,
      scope: IDEMPOTENCY_SCOPE,
      key,
      requestHash: fingerprint(input),
      leaseSeconds: deps.config.idempotencyLeaseSeconds,
    },
    {
      run: () => place(deps, caller, input, key, placed),
      resume: async () => {
        const order = await repo.findByIdempotencyKey(deps.db, caller.userId, key);
        if (!order) throw new Error(`no order of Idempotency-Key ${key} to resume`);
        return answer(await checkAndSettle(deps, order.id, { actor: { userId: caller.userId }, via: 'retry' }), order.id);
      },
      leftSomething: async () => {
        if (placed.orderId !== undefined) return { orderId: placed.orderId };
        const order = await repo.findByIdempotencyKey(deps.db, caller.userId, key);
        return order ? { orderId: order.id } : undefined;
      },
    },
  );
  return { order: value, replayed };
}

/**
 * The request's fingerprint for its Idempotency-Key: checkout token, method and, for cards, what may be
 * kept of the card (name, last 4, expiry, ZIP). Never the card number or security code.
 */
export function fingerprint(input: OrderInput): string {
  const card =
    input.paymentMethod === 'card'
      ? [input.card.cardName, payments.cardLast4Of(input.card.cardNumber), input.card.expiration, input.card.zipCode].join('|')
      : '';
  return createHash('sha256').update(`${input.checkoutToken}|${input.paymentMethod}|${card}`).digest('hex');
}

/** Create the pending order → charge → settle; `placed.orderId` is set once the order is committed. */
async function place(
  deps: OrderDeps,
  caller: Actor,
  input: OrderInput,
  key: string | null,
  placed: { orderId?: number } = {},
): Promise<OrderDetail> {
  const created = await createPendingOrder(deps, caller, input, key);
  placed.orderId = created.orderId;
  if (created.detail) {
    ordersPlaced.inc({ payment_method: 'in_store' });
    deps.logger.info({ orderId: created.orderId, orderNumber: created.orderNumber }, 'order placed (pay in-store)');
    return created.detail;
  }
  if (input.paymentMethod !== 'card') throw new Error('unreachable: a card order without a card');
  const outcome = await charge(deps, created, input.card);
  let settled;
  try {
    settled = await settle(deps, created.orderId, outcome);
  } catch (err) {
    if (outcome.status !== 'approved' || isConnectionLost(err)) throw err; // 503: the client retries with its key
    // Money was taken and the order could not be finalised: it stays pending, visible to operators, and
    // the reconciler (or a retry with the key) settles it once the cause is gone.
    deps.logger.error(
      { err, orderId: created.orderId, orderNumber: created.orderNumber },
      'card approved but the order could not be finalised',
    );
    throw new InternalError(CHECKOUT_MESSAGES.paymentProcessedOrderFailing, PROBLEM_CODES.paymentUnconfirmed, 'Payment Unconfirmed');
  }
  return answer(settled, created.orderId);
}

interface CreatedOrder {
  orderId: number;
  orderNumber: string;
  amount: string;
  storeId: number;
  detail?: OrderDetail;
}

/**
 * One transaction: lock and check the session and its cart (a cart awaiting a card outcome → 409
 * `payment_being_confirmed`), reprice, create the order and its lines. In-store orders are complete here
 * (session used, cart checked out, confirmation queued); card orders commit with payment_status pending
 * and a pending payment attempt (brand, last 4) before any charge: a charge without an order is impossible.
 */
async function createPendingOrder(deps: OrderDeps, caller: Actor, input: OrderInput, key: string | null): Promise<CreatedOrder> {
  const { userId } = caller;
  return deps.db.transaction(async (trx) => {
    // Round trips (issue 29 §1): the locks in one statement; then, in one more (which sees what committed while
    // the locks were awaited), the cart, its lines, the access rule, the cart's pending card order, the
    // session's live order and the customer; the order, its lines and (in-store) the checkout's completion in one write.
    const session = await checkout.lockSessionAndCart(trx, caller, input);
    const read = await checkout.readForOrder<{ liveOrder: { id: number; paymentStatus: string } | null; customer: Customer | null }>(
      trx,
      caller,
      session,
      repo.orderFactsSql(session.id, userId),
    );
    checkout.refuseReadWhilePaymentPending(read);
    const live = read ? read.cart.liveOrder : await repo.findLiveBySession(trx, session.id);
    if (live?.paymentStatus === 'pending')
      throw new ConflictError(CHECKOUT_MESSAGES.paymentBeingConfirmed, PROBLEM_CODES.paymentBeingConfirmed);
    if (live?.paymentStatus === 'error') throw new ConflictError(CHECKOUT_MESSAGES.paymentError, PROBLEM_CODES.checkoutSessionUsed);
    if (live) throw new ConflictError(CHECKOUT_MESSAGES.sessionUsed, PROBLEM_CODES.checkoutSessionUsed);
    const priced = await checkout.priceReadForOrder(trx, session, read);
    if (input.paymentMethod === 'in_store' && priced.fulfillmentType === 'Delivery') {
      throw new UnprocessableError(CHECKOUT_MESSAGES.inStoreDelivery, PROBLEM_CODES.inStoreNotForDelivery);
    }
    // A store that cannot take cards refuses a card payment here, before any order or charge
    // (422 payment_setup with the SETUP text). An injected gateway (tests, tools) is taken as set up.
    if (input.paymentMethod === 'card' && !deps.gateway) {
      await assertCardPaymentsReady(trx, deps.config, priced.storeId, { delivery: priced.fulfillmentType === 'Delivery' });
    }
    if (priced.total !== session.total) throw new ConflictError(CHECKOUT_MESSAGES.cartChanged, PROBLEM_CODES.checkoutCartChanged);
    const customer = customerSnapshot(read?.cart.customer ?? undefined);
    const orderNumber = newOrderNumber();
    const inStore = input.paymentMethod === 'in_store';
    const written = await writes.insertOrderWithLines(
      trx,
      {
        orderNumber,
        userId,
        storeId: priced.storeId,
        outletId: priced.outletId,
        checkoutSessionId: session.id,
        paymentMethod: input.paymentMethod,
        paymentStatus: inStore ? 'not_required' : 'pending',
        fulfillmentFlag: priced.fulfillmentType,
        deliveryDate: priced.fulfillmentDate,
        deliveryCharge: priced.deliveryCharge,
        subtotal: priced.subtotal,
        splitCaseFee: priced.splitCaseFee,
        totalAmount: priced.total,
        ...customer,
        idempotencyKey: key,
        emergency: priced.emergency,
        emergencyFee: priced.emergencyFee,
      },
      priced.lines,
      // In-store: the session used and the cart checked out in the same statement (checkout.completeCheckout).
      inStore ? { sessionId: session.id, cartId: session.cartId } : undefined,
    );
    const orderId = written.row.id;
    const created: CreatedOrder = { orderId, orderNumber, amount: priced.total, storeId: priced.storeId };
    if (inStore) {
      created.detail = await confirm(trx, deps, orderId, { row: written.row, detail: detailOf(written.row, written.lines) });
    } else {
      await payments.recordAttempt(trx, orderId, gatewayOf(deps).name, priced.total, input.card);
    }
    return created;
  });
}

type Customer = { email: string; fullName: string | null; firstName: string | null; lastName: string | null; phone: string | null };

/**
 * The charge, outside any transaction (the pending order is committed and visible). The order number is
 * the merchant reference. An answer we did not get (timeout, network, 5xx) is looked up once at once by
 * that reference; still unknown → `unknown` (settled later by a lookup).
 */
async function charge(deps: OrderDeps, o: CreatedOrder, card: Card): Promise<ChargeOutcome> {
  const gateway = gatewayOf(deps);
  let result: payments.ChargeResult;
  try {
    result = await gateway.charge({ amount: o.amount, orderNumber: o.orderNumber, storeId: o.storeId, card });
  } catch (err) {
    deps.logger.error({ err, orderId: o.orderId }, 'payment gateway threw');
    result = { status: 'error', code: 'EXCEPTION', verbiage: 'The payment gateway failed', reference: null };
  }
  const log = { orderId: o.orderId, orderNumber: o.orderNumber, gateway: gateway.name, code: result.code, reference: result.reference };
  if (!payments.outcomeUnknown(result)) {
    deps.logger[result.status === 'error' ? 'warn' : 'info'](log, `card payment ${result.status}`);
    return result;
  }
  deps.logger.warn(log, 'card payment outcome unknown: looking it up');
  const found = await gateway.lookup({ orderNumber: o.orderNumber, storeId: o.storeId });
  return found.status === 'approved' || found.status === 'declined' ? { ...found, status: found.status } : { ...result, status: 'unknown' };
}

/** Spec 001 §7: profile full name → first + last name → the email's local part → 'Customer'. */
export function customerSnapshot(
  p: { email: string; fullName: string | null; firstName: string | null; lastName: string | null; phone: string | null } | undefined,
) {
  const full = p?.fullName?.trim();
  const firstLast = [p?.firstName?.trim(), p?.lastName?.trim()].filter(Boolean).join(' ');
  const local = p?.email?.split('@')[0]?.trim();
  return {
    customerName: full || firstLast || local || 'Customer',
    customerEmail: p?.email ?? '',
    customerPhone: p?.phone?.trim() || null,
  };
}
