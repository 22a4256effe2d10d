import type { Knex } from 'knex';
import type { FulfillmentType, OrderStatus, PaymentMethod, PaymentStatus } from '@portal/contracts';
import type { Db } from '../../db/knex';

/** An order row joined with its store and outlet (spec 001 §3 order, warehouse, outlet). */
export interface OrderRow {
  id: number;
  orderNumber: string;
  userId: string | null;
  storeId: number;
  outletId: number;
  checkoutSessionId: string | null;
  status: OrderStatus;
  paymentMethod: PaymentMethod;
  paymentStatus: PaymentStatus;
  fulfillmentFlag: FulfillmentType;
  deliveryDate: string | null;
  deliveryCharge: string;
  subtotal: string;
  totalAmount: string;
  /** Split-case fees (issue 27). */
  splitCaseFee: string;
  customerName: string;
  customerEmail: string;
  customerPhone: string | null;
  notes: string | null;
  orderDate: Date;
  readyAt: Date | null;
  cancelReason: string | null;
  /** The approved refund's amount (dollars), null when not refunded. */
  refundedAmount: string | null;
  storeName: string;
  storeAddress: string | null;
  storeCity: string | null;
  storeState: string | null;
  storeZip: string | null;
  storePhone: string | null;
  storeCcEmails: string | null;
  outletName: string;
  outletAddress: string | null;
  outletCity: string | null;
  outletState: string | null;
  outletZip: string | null;
  outletPhone: string | null;
  /** Issue 28: an emergency order and its fee (in totalAmount). */
  emergency: boolean;
  emergencyFee: string;
}

/** An order line snapshot. */
export interface OrderLineRow {
  id: number;
  orderId: number;
  itemCode: string;
  itemName: string;
  bottleSizeId: number | null;
  bottleSizeText: string | null;
  quantity: number;
  unitPrice: string;
  totalPrice: string;
}

export const ORDER_COLUMNS = [
  'o.id',
  'o.order_number as orderNumber',
  'o.user_id as userId',
  'o.store_id as storeId',
  'o.outlet_id as outletId',
  'o.checkout_session_id as checkoutSessionId',
  'o.status',
  'o.payment_method as paymentMethod',
  'o.payment_status as paymentStatus',
  'o.fulfillment_flag as fulfillmentFlag',
  'o.delivery_date as deliveryDate',
  'o.delivery_charge as deliveryCharge',
  'o.subtotal',
  'o.total_amount as totalAmount',
  'o.split_case_fee as splitCaseFee',
  'o.customer_name as customerName',
  'o.customer_email as customerEmail',
  'o.customer_phone as customerPhone',
  'o.notes',
  'o.order_date as orderDate',
  'o.ready_at as readyAt',
  'o.cancel_reason as cancelReason',
  'rf.amount as refundedAmount',
  's.name as storeName',
  's.address as storeAddress',
  's.city as storeCity',
  's.state as storeState',
  's.zip_code as storeZip',
  's.phone as storePhone',
  's.orderconf_ccemails as storeCcEmails',
  'ol.name as outletName',
  'ol.address as outletAddress',
  'ol.city as outletCity',
  'ol.state as outletState',
  'ol.zip_code as outletZip',
  'ol.phone as outletPhone',
  'o.emergency',
  'o.emergency_fee as emergencyFee',
];

/**
 * Payment states of a placed order (what lists show): in-store reservations, paid card orders, and paid
 * card orders being refunded or refunded.
 */
export const PLACED_PAYMENT_STATUSES: PaymentStatus[] = ['not_required', 'paid', 'refund_pending', 'refunded'];
/** Payment states an order may move in (ready, completed, cancelled): nothing owed and no refund in flight. */
export const SETTLED_PAYMENT_STATUSES: PaymentStatus[] = ['not_required', 'paid'];

/** Orders with their store, outlet and approved refund (at most one per order: partial unique index). */
function base(db: Db) {
  return db('orders as o')
    .join('stores as s', 's.id', 'o.store_id')
    .join('outlets as ol', 'ol.id', 'o.outlet_id')
    .leftJoin('payments as rf', (j) => j.on('rf.order_id', 'o.id').andOnVal('rf.kind', 'refund').andOnVal('rf.status', 'approved'));
}

/** The order `id` with store and outlet; undefined when absent. */
export async function findById(db: Db, id: number): Promise<OrderRow | undefined> {
  return base(db).where('o.id', id).first(ORDER_COLUMNS);
}

/** The user's newest placed order; undefined when none. */
export async function findLatestPlaced(db: Db, userId: string): Promise<OrderRow | undefined> {
  return base(db)
    .where('o.user_id', userId)
    .whereIn('o.payment_status', PLACED_PAYMENT_STATUSES)
    .orderBy([
      { column: 'o.order_date', order: 'desc' },
      { column: 'o.id', order: 'desc' },
    ])
    .first(ORDER_COLUMNS);
}

/**
 * Who may be listed: the user's own orders, plus every placed order of `stores` (those where the caller holds
 * bcc.orders.store.manage) and of `outlets` (bcc.orders.outlet.manage), each a subquery of ids from
 * access.reach, `'all'` for a global grant, or absent.
 */
export interface OrderScope {
  userId: string;
  stores?: Knex.QueryBuilder | 'all';
  outlets?: Knex.QueryBuilder | 'all';
}
export interface OrderFilter {
  storeId?: number;
  status?: OrderStatus;
  search?: string;
  limit: number;
}

/** What a buyer sees of their own orders: placed ones and card orders whose payment is being confirmed. */
export const OWN_VISIBLE_PAYMENT_STATUSES: PaymentStatus[] = [...PLACED_PAYMENT_STATUSES, 'pending'];

/** The rule of OrderScope on a query of `orders as o` (GET /orders, and the live streams of GET /me/events). */
export function whereInOrderScope(w: Knex.QueryBuilder, scope: OrderScope): void {
  w.where((own) => own.where('o.user_id', scope.userId).whereIn('o.payment_status', OWN_VISIBLE_PAYMENT_STATUSES));
  const { stores, outlets } = scope;
  if (stores)
    w.orWhere((st) => (stores === 'all' ? st : st.whereIn('o.store_id', stores)).whereIn('o.payment_status', PLACED_PAYMENT_STATUSES));
  if (outlets)
    w.orWhere((ol) => (outlets === 'all' ? ol : ol.whereIn('o.outlet_id', outlets)).whereIn('o.payment_status', PLACED_PAYMENT_STATUSES));
}

function scoped(db: Db, scope: OrderScope, storeId?: number, joined = true) {
  const q = (joined ? base(db) : db('orders as o')).where((w) => whereInOrderScope(w, scope));
  if (storeId !== undefined) q.andWhere('o.store_id', storeId);
  return q;
}

/**
 * Placed orders in the scope, newest first, at most `f.limit`; search matches order number, customer name or
 * email (case-insensitive substring, on orders.search_text). Two steps in one statement: the page's ids from
 * orders alone (for a store an index-only walk of orders_store_list, newest first, the filters read from the
 * index; a rare term through orders_search_trgm), then those orders with their store, outlet and refund.
 */
export async function findPlaced(db: Db, scope: OrderScope, f: OrderFilter): Promise<OrderRow[]> {
  const page = scoped(db, scope, f.storeId, false);
  if (f.status) page.andWhere('o.status', f.status);
  if (f.search) page.andWhereRaw('o.search_text LIKE lower(?)', [`%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
  page
    .orderBy([
      { column: 'o.order_date', order: 'desc' },
      { column: 'o.id', order: 'desc' },
    ])
    .limit(f.limit)
    .select('o.id');
  return base(db)
    .whereIn('o.id', page)
    .orderBy([
      { column: 'o.order_date', order: 'desc' },
      { column: 'o.id', order: 'desc' },
    ])
    .select(ORDER_COLUMNS);
}

/**
 * Orders per status in the scope (and store): the tab counts, { status: n }. Store scope (Store Orders): the
 * placed orders of the reached stores are summed from store_order_counts (kept exact by triggers on orders,
 * migration 2026120100100001: a few rows per store whatever its size), plus the caller's own orders that
 * count apart from those (card orders still pending; placed ones outside the reach), read by user. Own and
 * outlet scopes (My Orders, outlet managers): counted from orders (orders_user_status, index-only).
 */
export async function countByStatus(db: Db, scope: OrderScope, storeId?: number): Promise<Record<string, number>> {
  const { stores } = scope;
  type Row = { status: string; n: number };
  if (stores === undefined || scope.outlets !== undefined) {
    const rows: Row[] = await scoped(db, scope, storeId, false).groupBy('o.status').select('o.status', db.raw('count(*)::int AS n'));
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }
  const placed = db('store_order_counts as c').groupBy('c.status').select('c.status', db.raw('sum(c.n)::int AS n'));
  if (stores !== 'all') placed.whereIn('c.store_id', stores);
  if (storeId !== undefined) placed.where('c.store_id', storeId);
  const own = db('orders as o')
    .where('o.user_id', scope.userId)
    .whereIn('o.payment_status', OWN_VISIBLE_PAYMENT_STATUSES)
    .whereNot((counted) => {
      counted.whereIn('o.payment_status', PLACED_PAYMENT_STATUSES);
      if (stores !== 'all') counted.whereIn('o.store_id', stores);
    })
    .groupBy('o.status')
    .select('o.status', db.raw('count(*)::int AS n'));
  if (storeId !== undefined) own.where('o.store_id', storeId);
  const [fromCounts, fromOwn] = (await Promise.all([placed, own])) as [Row[], Row[]];
  const counts: Record<string, number> = {};
  for (const r of [...fromCounts, ...fromOwn]) counts[r.status] = (counts[r.status] ?? 0) + r.n;
  for (const [k, v] of Object.entries(counts)) if (v === 0) delete counts[k];
  return counts;
}

/** The lines of these orders, in insertion order. */
export async function findLines(db: Db, orderIds: number[]): Promise<OrderLineRow[]> {
  if (!orderIds.length) return [];
  return db('order_items')
    .whereIn('order_id', orderIds)
    .orderBy('id')
    .select(
      'id',
      'order_id as orderId',
      'item_code as itemCode',
      'item_name as itemName',
      'bottle_size_id as bottleSizeId',
      'bottlesize_text as bottleSizeText',
      'quantity',
      'unit_price as unitPrice',
      'total_price as totalPrice',
    );
}

/** A live (payment not failed) order of the checkout session, if any: at most one exists (partial unique index). */
export async function findLiveBySession(db: Db, sessionId: string): Promise<{ id: number; paymentStatus: PaymentStatus } | undefined> {
  return db('orders')
    .where({ checkout_session_id: sessionId })
    .whereNot('payment_status', 'failed')
    .first('id', 'payment_status as paymentStatus');
}

/**
 * Columns over the cart `c` for the order's read (checkout's cart read, ARCHITECTURE §6): the session's live order
 * (`liveOrder`: `{ id, paymentStatus }` or null, as findLiveBySession) and the customer's profile facts
 * (`customer`, as findCustomer). Bindings: the session id, the user id.
 */
export function orderFactsSql(sessionId: string, userId: string): { sql: string; bindings: Knex.RawBinding[] } {
  return {
    sql: `(SELECT json_build_object('id', lo.id, 'paymentStatus', lo.payment_status) FROM orders lo
             WHERE lo.checkout_session_id = ? AND lo.payment_status <> 'failed' LIMIT 1) AS "liveOrder",
          (SELECT json_build_object('email', cu.email, 'fullName', cp.full_name, 'firstName', cp.first_name,
                                    'lastName', cp.last_name, 'phone', cp.phone)
             FROM users cu LEFT JOIN user_profiles cp ON cp.user_id = cu.id WHERE cu.id = ? LIMIT 1) AS customer`,
    bindings: [sessionId, userId],
  };
}

/** The profile facts for the customer snapshot (spec 001 §7 create order). */
export async function findCustomer(
  db: Db,
  userId: string,
): Promise<
  { email: string; fullName: string | null; firstName: string | null; lastName: string | null; phone: string | null } | undefined
> {
  return db('users as u')
    .leftJoin('user_profiles as p', 'p.user_id', 'u.id')
    .where('u.id', userId)
    .first('u.email', 'p.full_name as fullName', 'p.first_name as firstName', 'p.last_name as lastName', 'p.phone');
}

/** The order a user placed with this Idempotency-Key, if any (unique per user and key). */
export async function findByIdempotencyKey(db: Db, userId: string, key: string): Promise<{ id: number } | undefined> {
  return db('orders').where({ user_id: userId, idempotency_key: key }).first('id');
}

/** Ids of card orders pending for at least `ageSeconds`, oldest first (the reconciler's work list). */
export async function findPendingCardOrderIds(db: Db, ageSeconds: number, limit: number): Promise<number[]> {
  const rows = await db('orders')
    .where({ payment_status: 'pending', payment_method: 'card' })
    .where('order_date', '<=', db.raw('now() - make_interval(secs => ?)', [ageSeconds]))
    .orderBy('order_date')
    .limit(limit)
    .select('id');
  return rows.map((r: { id: number }) => r.id);
}

/**
 * Ids of orders whose refund was sent at least `ageSeconds` ago and is still unsettled (refund_pending),
 * oldest attempt first: the reconciler settles them by a lookup of the refund's reference.
 */
export async function findStaleRefundOrderIds(db: Db, ageSeconds: number, limit: number): Promise<number[]> {
  const rows = await db('orders as o')
    .join('payments as p', (j) => j.on('p.order_id', 'o.id').andOnVal('p.kind', 'refund'))
    .where('o.payment_status', 'refund_pending')
    .where('p.attempted_at', '<=', db.raw('now() - make_interval(secs => ?)', [ageSeconds]))
    .orderBy('p.attempted_at')
    .limit(limit)
    .select('o.id');
  return rows.map((r: { id: number }) => r.id);
}

/** An order needing an operator, with its newest payment row (Store Orders "Needs attention"). */
export interface AttentionRow {
  id: number;
  orderNumber: string;
  status: string;
  paymentStatus: PaymentStatus;
  orderDate: Date;
  storeId: number;
  storeName: string;
  customerName: string;
  customerEmail: string;
  totalAmount: string;
  gateway: string | null;
  gatewayReference: string | null;
  cardLast4: string | null;
  paymentCheckedAt: Date | null;
}

/**
 * Card orders whose payment is unsettled (pending), orders in `cancel_pending` and orders whose refund is
 * unsettled (refund_pending), in `stores` (a subquery of store ids; null = every store), oldest first, at
 * most 200.
 */
export async function findAttention(db: Db, stores: Knex.QueryBuilder | null, storeId?: number): Promise<AttentionRow[]> {
  const q = db('orders as o')
    .join('stores as s', 's.id', 'o.store_id')
    .leftJoin(
      db.raw(
        `LATERAL (SELECT p.gateway, p.gateway_reference, p.card_last4 FROM payments p WHERE p.order_id = o.id AND p.kind = 'charge' ORDER BY p.id DESC LIMIT 1) AS pay ON true`,
      ),
    )
    .where((w) =>
      w
        .where((p) => p.where('o.payment_status', 'pending').where('o.payment_method', 'card'))
        .orWhere('o.status', 'cancel_pending')
        .orWhere('o.payment_status', 'refund_pending'),
    );
  if (stores) q.whereIn('o.store_id', stores);
  if (storeId !== undefined) q.andWhere('o.store_id', storeId);
  return q
    .orderBy([
      { column: 'o.order_date', order: 'asc' },
      { column: 'o.id', order: 'asc' },
    ])
    .limit(200)
    .select(
      'o.id',
      'o.order_number as orderNumber',
      'o.status',
      'o.payment_status as paymentStatus',
      'o.order_date as orderDate',
      'o.store_id as storeId',
      's.name as storeName',
      'o.customer_name as customerName',
      'o.customer_email as customerEmail',
      'o.total_amount as totalAmount',
      'pay.gateway',
      'pay.gateway_reference as gatewayReference',
      'pay.card_last4 as cardLast4',
      'o.payment_checked_at as paymentCheckedAt',
    );
}
