import type { OrderStatus, PaymentMethod, PaymentStatus } from '@portal/contracts';
import type { Knex } from 'knex';
import { preparedRaw, type Db } from '../../db/knex';
import { ORDER_COLUMNS, type OrderLineRow, type OrderRow } from './orders.repository';

/**
 * The writes of orders (ARCHITECTURE §6–§8): inserting a placed order and its lines, settling a card payment, and
 * the locked reads and updates of a transition or a refund. The reads are in orders.repository.ts.
 */

/** The fields a new order is inserted with (status starts as reserved). */
export type OrderInsert = Pick<
  OrderRow,
  | 'orderNumber'
  | 'storeId'
  | 'outletId'
  | 'paymentMethod'
  | 'paymentStatus'
  | 'fulfillmentFlag'
  | 'deliveryDate'
  | 'deliveryCharge'
  | 'subtotal'
  | 'totalAmount'
  | 'customerName'
  | 'customerEmail'
  | 'customerPhone'
> & {
  userId: string;
  checkoutSessionId: string;
  idempotencyKey: string | null;
  splitCaseFee?: string;
  emergency?: boolean;
  emergencyFee?: string;
};

/** Inserts an order with status reserved; returns its id. */
export async function insertOrder(db: Db, o: OrderInsert): Promise<number> {
  const [row] = await db('orders')
    .insert({
      order_number: o.orderNumber,
      user_id: o.userId,
      store_id: o.storeId,
      outlet_id: o.outletId,
      checkout_session_id: o.checkoutSessionId,
      status: 'reserved',
      payment_method: o.paymentMethod,
      payment_status: o.paymentStatus,
      fulfillment_flag: o.fulfillmentFlag,
      delivery_date: o.deliveryDate,
      delivery_charge: o.deliveryCharge,
      subtotal: o.subtotal,
      total_amount: o.totalAmount,
      split_case_fee: o.splitCaseFee ?? '0.00',
      customer_name: o.customerName,
      customer_email: o.customerEmail,
      customer_phone: o.customerPhone,
      idempotency_key: o.idempotencyKey,
      emergency: o.emergency ?? false,
      emergency_fee: o.emergencyFee ?? '0.00',
    })
    .returning('id');
  return row.id;
}

/** The order columns of ORDER_COLUMNS as SQL over the inserted order `o` (no refund yet), store `s` and outlet `ol`. */
const NEW_ORDER_SELECT = ORDER_COLUMNS.map((c) =>
  c === 'rf.amount as refundedAmount'
    ? 'NULL::numeric AS "refundedAmount"'
    : c.replace(/^(\w+)\.(\w+)(?: as (\w+))?$/, (_m, t, col, as) => `${t}.${col} AS "${as ?? col}"`),
).join(', ');
const LINE_FIELDS: [string, keyof OrderLineRow][] = [
  ['id', 'id'],
  ['order_id', 'orderId'],
  ['item_code', 'itemCode'],
  ['item_name', 'itemName'],
  ['bottle_size_id', 'bottleSizeId'],
  ['bottlesize_text', 'bottleSizeText'],
  ['quantity', 'quantity'],
  ['unit_price', 'unitPrice'],
  ['total_price', 'totalPrice'],
];

/**
 * Inserts an order (status reserved) and its line snapshots in one statement and answers them as
 * orders.repository's findById and findLines read them (store, outlet; no refund). With `complete` (an in-store
 * order, complete when created) the same statement marks the checkout session used (when not already) and
 * checks the cart out (lines deleted, status checked_out), as checkout's completeCheckout does.
 */
export async function insertOrderWithLines(
  db: Db,
  o: OrderInsert,
  lines: Omit<OrderLineRow, 'id' | 'orderId'>[],
  complete?: { sessionId: string; cartId: number },
): Promise<{ row: OrderRow; lines: OrderLineRow[] }> {
  const completion = complete
    ? `, used AS (UPDATE checkout_sessions SET consumed_at = CURRENT_TIMESTAMP WHERE id = ? AND consumed_at IS NULL RETURNING id),
         emptied AS (DELETE FROM cart_items WHERE cart_id = ? RETURNING id),
         out AS (UPDATE carts SET status = 'checked_out', updated_at = CURRENT_TIMESTAMP WHERE id = ? RETURNING id)`
    : '';
  const r = await preparedRaw<{ rows: Record<string, unknown>[] }>(
    db,
    'order_insert',
    `WITH o AS (
       INSERT INTO orders (order_number, user_id, store_id, outlet_id, checkout_session_id, status, payment_method, payment_status,
                           fulfillment_flag, delivery_date, delivery_charge, subtotal, total_amount, split_case_fee, customer_name,
                           customer_email, customer_phone, idempotency_key, emergency, emergency_fee)
       VALUES (?, ?, ?, ?, ?, 'reserved', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *),
     l AS (
       INSERT INTO order_items (order_id, item_code, item_name, bottle_size_id, bottlesize_text, quantity, unit_price, total_price)
       SELECT o.id, v.item_code, v.item_name, v.bottle_size_id, v.bottlesize_text, v.quantity, v.unit_price, v.total_price
         FROM o, unnest(?::text[], ?::text[], ?::int[], ?::text[], ?::int[], ?::numeric[], ?::numeric[])
              WITH ORDINALITY AS v(item_code, item_name, bottle_size_id, bottlesize_text, quantity, unit_price, total_price, ord)
        ORDER BY v.ord
       RETURNING *)${completion}
     SELECT ${NEW_ORDER_SELECT}, ${LINE_FIELDS.map(([col, name]) => `l.${col} AS "line.${name}"`).join(', ')}
       FROM o JOIN stores s ON s.id = o.store_id JOIN outlets ol ON ol.id = o.outlet_id LEFT JOIN l ON true
      ORDER BY l.id`,
    [
      o.orderNumber,
      o.userId,
      o.storeId,
      o.outletId,
      o.checkoutSessionId,
      o.paymentMethod,
      o.paymentStatus,
      o.fulfillmentFlag,
      o.deliveryDate,
      o.deliveryCharge,
      o.subtotal,
      o.totalAmount,
      o.splitCaseFee ?? '0.00',
      o.customerName,
      o.customerEmail,
      o.customerPhone,
      o.idempotencyKey,
      o.emergency ?? false,
      o.emergencyFee ?? '0.00',
      lines.map((l) => l.itemCode),
      lines.map((l) => l.itemName),
      lines.map((l) => l.bottleSizeId),
      lines.map((l) => l.bottleSizeText),
      lines.map((l) => l.quantity),
      lines.map((l) => l.unitPrice),
      lines.map((l) => l.totalPrice),
      ...(complete ? [complete.sessionId, complete.cartId, complete.cartId] : []),
    ] as unknown as Knex.RawBinding[], // pg sends the arrays (nulls included) as PostgreSQL arrays
  );
  const row: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r.rows[0])) if (!k.startsWith('line.')) row[k] = v;
  const out = r.rows
    .filter((x) => x['line.id'] !== null)
    .map((x) => Object.fromEntries(LINE_FIELDS.map(([, name]) => [name, x[`line.${name}`]])) as unknown as OrderLineRow);
  return { row: row as unknown as OrderRow, lines: out };
}

/** Inserts the order's line snapshots. */
export async function insertLines(db: Db, orderId: number, lines: Omit<OrderLineRow, 'id' | 'orderId'>[]): Promise<void> {
  await db('order_items').insert(
    lines.map((l) => ({
      order_id: orderId,
      item_code: l.itemCode,
      item_name: l.itemName,
      bottle_size_id: l.bottleSizeId,
      bottlesize_text: l.bottleSizeText,
      quantity: l.quantity,
      unit_price: l.unitPrice,
      total_price: l.totalPrice,
    })),
  );
}

/**
 * Moves a card order out of payment_status pending (to paid, failed or error; failed and error also
 * cancel it). Returns false when the order was not pending any more.
 */
export async function settlePayment(db: Db, orderId: number, paymentStatus: 'paid' | 'failed' | 'error'): Promise<boolean> {
  const n = await db('orders')
    .where({ id: orderId, payment_status: 'pending' })
    .update({
      payment_status: paymentStatus,
      ...(paymentStatus === 'paid' ? {} : { status: 'cancelled' }),
      payment_checked_at: db.fn.now(),
      updated_at: db.fn.now(),
    });
  return n > 0;
}

/** A card order as settlement needs it, locked (FOR UPDATE) until the transaction ends. */
export interface SettlementRow {
  id: number;
  orderNumber: string;
  userId: string | null;
  storeId: number;
  checkoutSessionId: string | null;
  paymentMethod: PaymentMethod;
  paymentStatus: PaymentStatus;
  totalAmount: string;
  idempotencyKey: string | null;
  /** Pending for at least the settle-after age asked for. */
  old: boolean;
}

/** Locks the order row for settlement; `ageSeconds` decides `old`. Undefined when absent. */
export async function lockForSettlement(db: Db, orderId: number, ageSeconds: number): Promise<SettlementRow | undefined> {
  return db('orders')
    .where({ id: orderId })
    .forUpdate()
    .first(
      'id',
      'order_number as orderNumber',
      'user_id as userId',
      'store_id as storeId',
      'checkout_session_id as checkoutSessionId',
      'payment_method as paymentMethod',
      'payment_status as paymentStatus',
      'total_amount as totalAmount',
      'idempotency_key as idempotencyKey',
      db.raw('(now() - order_date >= make_interval(secs => ?)) AS old', [ageSeconds]),
    );
}

/** Notes that the gateway was asked about this pending order now. */
export async function markPaymentChecked(db: Db, orderId: number): Promise<void> {
  await db('orders').where({ id: orderId }).update({ payment_checked_at: db.fn.now() });
}

/** A card order as a refund needs it, locked (FOR UPDATE) until the transaction ends. */
export interface RefundRow {
  id: number;
  orderNumber: string;
  storeId: number;
  status: OrderStatus;
  paymentMethod: PaymentMethod;
  paymentStatus: PaymentStatus;
  totalAmount: string;
  cancelReason: string | null;
}

/** Locks the order row (FOR UPDATE) for a refund or any transition; undefined when absent. */
export async function lockForTransition(db: Db, orderId: number): Promise<RefundRow | undefined> {
  return db('orders')
    .where({ id: orderId })
    .forUpdate()
    .first(
      'id',
      'order_number as orderNumber',
      'store_id as storeId',
      'status',
      'payment_method as paymentMethod',
      'payment_status as paymentStatus',
      'total_amount as totalAmount',
      'cancel_reason as cancelReason',
    );
}

/** Records that the order's refund is on its way (payment_status refund_pending) with the store's cancel reason. */
export async function markRefundPending(db: Db, orderId: number, reason: string | null): Promise<void> {
  await db('orders').where({ id: orderId }).update({ payment_status: 'refund_pending', cancel_reason: reason, updated_at: db.fn.now() });
}

/** reserved → ready (only from reserved); returns false when the order was not reserved. */
export async function markReady(db: Db, orderId: number): Promise<boolean> {
  const n = await db('orders')
    .where({ id: orderId, status: 'reserved' })
    .update({ status: 'ready', ready_at: db.fn.now(), updated_at: db.fn.now() });
  return n > 0;
}

/**
 * Writes a transition's columns on order `orderId` (the caller holds its lock): the status, and the payment
 * status when given; ready_at for ready, completed_at for completed, cancel reason and time for cancelled
 * and cancel_pending.
 */
export async function writeTransition(
  db: Db,
  orderId: number,
  w: { status: 'ready' | 'completed' | 'cancelled' | 'cancel_pending'; paymentStatus?: PaymentStatus; reason?: string | null },
): Promise<void> {
  const now = db.fn.now();
  const cancelling = w.status === 'cancelled' || w.status === 'cancel_pending';
  await db('orders')
    .where({ id: orderId })
    .update({
      status: w.status,
      updated_at: now,
      ...(w.paymentStatus ? { payment_status: w.paymentStatus } : {}),
      ...(w.status === 'ready' ? { ready_at: now } : {}),
      ...(w.status === 'completed' ? { completed_at: now } : {}),
      ...(cancelling ? { cancel_reason: w.reason ?? null, cancelled_at: now } : {}),
    });
}
