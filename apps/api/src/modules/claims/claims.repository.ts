import type { Db } from '../../db/knex';
import type { OrderClaimLineRecord, OrderClaimRecord } from '../../db/tables/commerce';

/** Queries of claims after delivery (issue 28 §4): the only place with this module's SQL. */

/** What opening or resolving a claim needs of its order. */
export interface ClaimOrder {
  id: number;
  orderNumber: string;
  status: string;
  completedAt: Date | null;
  userId: string | null;
  storeId: number;
  outletId: number;
  customerName: string;
  customerEmail: string;
  storeName: string;
  storeCcEmails: string | null;
}

/** The order, locked until the transaction ends when `forUpdate` (claims of one order are opened one at a time). */
export function findOrder(db: Db, orderId: number, forUpdate = false): Promise<ClaimOrder | undefined> {
  const q = db('orders as o')
    .join('stores as s', 's.id', 'o.store_id')
    .where('o.id', orderId)
    .first<ClaimOrder | undefined>(
      'o.id',
      'o.order_number as orderNumber',
      'o.status',
      'o.completed_at as completedAt',
      'o.user_id as userId',
      'o.store_id as storeId',
      'o.outlet_id as outletId',
      'o.customer_name as customerName',
      'o.customer_email as customerEmail',
      's.name as storeName',
      's.orderconf_ccemails as storeCcEmails',
    );
  if (forUpdate) q.forUpdate('o');
  return q;
}

/** The order's lines by item code: quantity ordered, name, and unit price (the first line's). */
export async function orderedLines(
  db: Db,
  orderId: number,
): Promise<{ itemCode: string; itemName: string; quantity: number; unitPrice: string }[]> {
  return db('order_items')
    .where({ order_id: orderId })
    .groupBy('item_code')
    .select<{ itemCode: string; itemName: string; quantity: number; unitPrice: string }[]>(
      'item_code as itemCode',
      db.raw('min(item_name) AS "itemName"'),
      db.raw('sum(quantity)::int AS quantity'),
      db.raw('min(unit_price)::text AS "unitPrice"'),
    );
}

/** Bottles of each code already claimed on the order (open claims and lines not rejected). */
export async function claimedQuantities(db: Db, orderId: number): Promise<Map<string, number>> {
  const rows = await db('order_claim_lines as l')
    .join('order_claims as c', 'c.id', 'l.claim_id')
    .where('c.order_id', orderId)
    .where((w) => w.whereNull('l.outcome').orWhereNot('l.outcome', 'rejected'))
    .groupBy('l.item_code')
    .select<{ itemCode: string; n: number }[]>('l.item_code as itemCode', db.raw('sum(l.quantity)::int AS n'));
  return new Map(rows.map((r) => [r.itemCode, r.n]));
}

/** Inserts a claim and its lines; returns its id. */
export async function insertClaim(
  db: Db,
  c: {
    orderId: number;
    openedBy: string;
    note: string | null;
    lines: { itemCode: string; quantity: number; reason: OrderClaimLineRecord['reason'] }[];
  },
): Promise<number> {
  const [row] = await db('order_claims').insert({ order_id: c.orderId, opened_by: c.openedBy, note: c.note }).returning('id');
  await db('order_claim_lines').insert(
    c.lines.map((l) => ({ claim_id: row.id, item_code: l.itemCode, quantity: l.quantity, reason: l.reason })),
  );
  return row.id;
}

/** A claim row with its order's number and the opener's email. */
export type ClaimRow = OrderClaimRecord & { order_number: string; opened_by_email: string | null };

const claimsOf = (db: Db) =>
  db('order_claims as c')
    .join('orders as o', 'o.id', 'c.order_id')
    .leftJoin('users as u', 'u.id', 'c.opened_by')
    .select<ClaimRow[]>('c.*', 'o.order_number', 'u.email as opened_by_email');

/** The order's claims, oldest first. */
export function findClaims(db: Db, orderId: number): Promise<ClaimRow[]> {
  return claimsOf(db).where('c.order_id', orderId).orderBy('c.id');
}

/** One claim; locked until the transaction ends when `forUpdate`. */
export async function findClaim(db: Db, claimId: number, forUpdate = false): Promise<ClaimRow | undefined> {
  const q = claimsOf(db).where('c.id', claimId);
  if (forUpdate) q.forUpdate('c');
  const [row] = await q;
  return row;
}

/** The lines of these claims, with the ordered item's name. */
export function findLines(db: Db, claimIds: number[]): Promise<(OrderClaimLineRecord & { item_name: string | null })[]> {
  if (!claimIds.length) return Promise.resolve([]);
  return db('order_claim_lines as l')
    .join('order_claims as c', 'c.id', 'l.claim_id')
    .whereIn('l.claim_id', claimIds)
    .orderBy('l.id')
    .select<(OrderClaimLineRecord & { item_name: string | null })[]>(
      'l.*',
      db.raw('(SELECT min(oi.item_name) FROM order_items oi WHERE oi.order_id = c.order_id AND oi.item_code = l.item_code) AS item_name'),
    );
}

/** Writes the claim's resolution and each line's outcome and credit. */
export async function writeResolution(
  db: Db,
  claimId: number,
  r: {
    outcome: 'credit' | 'replace' | 'rejected';
    note: string | null;
    resolvedBy: string;
    credit: string;
    lines: { id: number; credit: string | null }[];
  },
): Promise<void> {
  await db('order_claims').where({ id: claimId }).update({
    status: 'resolved',
    outcome: r.outcome,
    resolution_note: r.note,
    resolved_by: r.resolvedBy,
    credit_amount: r.credit,
    resolved_at: db.fn.now(),
  });
  for (const l of r.lines) await db('order_claim_lines').where({ id: l.id }).update({ outcome: r.outcome, credit_amount: l.credit });
}

/** Credits of claims resolved with `credit` on orders of the outlet, resolved in [from, to). */
export function findCredits(
  db: Db,
  outletId: number,
  from: Date,
  to: Date,
): Promise<{ claimId: number; orderNumber: string; resolvedAt: Date; creditAmount: string }[]> {
  return db('order_claims as c')
    .join('orders as o', 'o.id', 'c.order_id')
    .where('o.outlet_id', outletId)
    .where('c.outcome', 'credit')
    .where('c.resolved_at', '>=', from)
    .where('c.resolved_at', '<', to)
    .orderBy('c.resolved_at')
    .select(
      'c.id as claimId',
      'o.order_number as orderNumber',
      'c.resolved_at as resolvedAt',
      db.raw('c.credit_amount::text AS "creditAmount"'),
    );
}
