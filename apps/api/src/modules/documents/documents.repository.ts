import type { Db } from '../../db/knex';

/** Queries of the invoice and the monthly statement (issue 28 §3): the only place with this module's SQL. */

/** A postal address block. */
export interface Place {
  name: string;
  address: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  phone: string | null;
}

/** What the invoice shows of an order. */
export interface InvoiceOrder {
  id: number;
  orderNumber: string;
  status: string;
  orderDate: Date;
  completedAt: Date | null;
  fulfillmentFlag: string;
  deliveryDate: string | null;
  paymentMethod: string;
  paymentStatus: string;
  subtotal: string;
  deliveryCharge: string;
  emergency: boolean;
  emergencyFee: string;
  totalAmount: string;
  customerName: string;
  customerEmail: string;
  storeId: number;
  outletId: number;
}

/** An invoice line: the snapshot with the item's bottles per case (null: unknown). */
export interface InvoiceLine {
  itemCode: string;
  itemName: string;
  bottleSize: string | null;
  quantity: number;
  bottlesPerCase: number | null;
  unitPrice: string;
  totalPrice: string;
}

/** A payment or refund of the order. */
export interface InvoicePayment {
  kind: 'charge' | 'refund';
  status: string;
  amount: string;
  cardBrand: string | null;
  cardLast4: string | null;
  createdAt: Date;
}

const placeColumns = (alias: string) => [
  `${alias}.name`,
  `${alias}.address`,
  `${alias}.city`,
  `${alias}.state`,
  `${alias}.zip_code as zipCode`,
  `${alias}.phone`,
];

/** The order of an invoice; undefined when absent. */
export function findOrder(db: Db, orderId: number): Promise<InvoiceOrder | undefined> {
  return db('orders as o')
    .where('o.id', orderId)
    .first<InvoiceOrder | undefined>(
      'o.id',
      'o.order_number as orderNumber',
      'o.status',
      'o.order_date as orderDate',
      'o.completed_at as completedAt',
      'o.fulfillment_flag as fulfillmentFlag',
      'o.delivery_date as deliveryDate',
      'o.payment_method as paymentMethod',
      'o.payment_status as paymentStatus',
      db.raw('o.subtotal::text AS subtotal'),
      db.raw('o.delivery_charge::text AS "deliveryCharge"'),
      'o.emergency',
      db.raw('o.emergency_fee::text AS "emergencyFee"'),
      db.raw('o.total_amount::text AS "totalAmount"'),
      'o.customer_name as customerName',
      'o.customer_email as customerEmail',
      'o.store_id as storeId',
      'o.outlet_id as outletId',
    );
}

/** A store's address block. */
export function findStore(db: Db, storeId: number): Promise<Place | undefined> {
  return db('stores as s').where('s.id', storeId).first<Place | undefined>(placeColumns('s'));
}

/** An outlet's address block. */
export function findOutlet(db: Db, outletId: number): Promise<Place | undefined> {
  return db('outlets as ol').where('ol.id', outletId).first<Place | undefined>(placeColumns('ol'));
}

/** The order's lines with bottles per case of the store's board catalog item of that code. */
export function findLines(db: Db, orderId: number): Promise<InvoiceLine[]> {
  return db('order_items as oi')
    .join('orders as o', 'o.id', 'oi.order_id')
    .join('stores as s', 's.id', 'o.store_id')
    .leftJoin('items as i', (j) => j.on('i.code', 'oi.item_code').andOn('i.board_id', 's.board_id'))
    .where('oi.order_id', orderId)
    .orderBy('oi.id')
    .select<InvoiceLine[]>(
      'oi.item_code as itemCode',
      'oi.item_name as itemName',
      'oi.bottlesize_text as bottleSize',
      'oi.quantity',
      'i.bottles_per_case as bottlesPerCase',
      db.raw('oi.unit_price::text AS "unitPrice"'),
      db.raw('oi.total_price::text AS "totalPrice"'),
    );
}

/** The order's payments and refunds, oldest first. */
export function findPayments(db: Db, orderId: number): Promise<InvoicePayment[]> {
  return db('payments')
    .where({ order_id: orderId })
    .orderBy('id')
    .select<InvoicePayment[]>(
      'kind',
      'status',
      db.raw('amount::text AS amount'),
      'card_brand as cardBrand',
      'card_last4 as cardLast4',
      'created_at as createdAt',
    );
}

/** Claim credits of the order (resolved with credit). */
export function findOrderCredits(db: Db, orderId: number): Promise<{ claimId: number; creditAmount: string; resolvedAt: Date }[]> {
  return db('order_claims')
    .where({ order_id: orderId, outcome: 'credit' })
    .orderBy('id')
    .select('id as claimId', db.raw('credit_amount::text AS "creditAmount"'), 'resolved_at as resolvedAt');
}

/** A statement's order row. */
export interface StatementOrder {
  orderNumber: string;
  orderDate: Date;
  status: string;
  fulfillmentFlag: string;
  paymentMethod: string;
  storeName: string;
  totalAmount: string;
}

/** The outlet's placed orders (not awaiting or failed payment) dated in [from, to), oldest first. */
export function findMonthOrders(db: Db, outletId: number, from: Date, to: Date): Promise<StatementOrder[]> {
  return db('orders as o')
    .join('stores as s', 's.id', 'o.store_id')
    .where('o.outlet_id', outletId)
    .whereIn('o.payment_status', ['not_required', 'paid', 'refund_pending', 'refunded'])
    .where('o.order_date', '>=', from)
    .where('o.order_date', '<', to)
    .orderBy('o.order_date')
    .orderBy('o.id')
    .select<StatementOrder[]>(
      'o.order_number as orderNumber',
      'o.order_date as orderDate',
      'o.status',
      'o.fulfillment_flag as fulfillmentFlag',
      'o.payment_method as paymentMethod',
      's.name as storeName',
      db.raw('o.total_amount::text AS "totalAmount"'),
    );
}

/** Approved refunds of the outlet's orders made in [from, to). */
export function findMonthRefunds(
  db: Db,
  outletId: number,
  from: Date,
  to: Date,
): Promise<{ orderNumber: string; amount: string; at: Date }[]> {
  return db('payments as p')
    .join('orders as o', 'o.id', 'p.order_id')
    .where('o.outlet_id', outletId)
    .where({ 'p.kind': 'refund', 'p.status': 'approved' })
    .where('p.created_at', '>=', from)
    .where('p.created_at', '<', to)
    .orderBy('p.created_at')
    .select('o.order_number as orderNumber', db.raw('p.amount::text AS amount'), 'p.created_at as at');
}
