import type { Db } from '../../db/knex';
import { whereInOrderScope, type OrderScope } from './orders.repository';

/** One order event as a live stream sends it (GET /me/events): the feed's seq and what changed. */
export interface LiveEventRow {
  seq: number;
  type: string;
  orderId: number;
  storeId: number;
  outletId: number;
  status: string;
  occurredAt: Date;
}

/**
 * Order events after `afterSeq` (up to `upToSeq` when given: the feed's horizon, read in an earlier statement),
 * oldest first, at most `limit`, of the orders `scope` lets the caller list — the rule of GET /orders
 * (orders.repository `scoped`): their own orders, and the placed orders of the stores and outlets where they manage
 * orders. Synthetic test events (no order) are never sent.
 */
export async function findVisibleEventsAfter(
  db: Db,
  scope: OrderScope,
  afterSeq: number,
  upToSeq: number | undefined,
  limit: number,
): Promise<LiveEventRow[]> {
  const rows: { seq: number; type: string; order_id: number; store_id: number; outlet_id: number; status: string; occurred_at: Date }[] =
    await db('order_events as e')
      .join('orders as o', 'o.id', 'e.order_id')
      .where('e.seq', '>', afterSeq)
      .modify((q) => upToSeq !== undefined && q.where('e.seq', '<=', upToSeq))
      .where((w) => whereInOrderScope(w, scope))
      .orderBy('e.seq')
      .limit(limit)
      .select('e.seq', 'e.type', 'e.order_id', 'e.store_id', 'o.outlet_id', 'o.status', 'e.occurred_at');
  return rows.map((r) => ({
    seq: Number(r.seq),
    type: r.type,
    orderId: r.order_id,
    storeId: r.store_id,
    outletId: r.outlet_id,
    status: r.status,
    occurredAt: r.occurred_at,
  }));
}
