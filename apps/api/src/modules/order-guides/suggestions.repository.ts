import type { Knex } from 'knex';
import type { SplitCasePolicy } from '@portal/contracts';
import type { Db } from '../../db/knex';

/** Queries of the suggested order (issue 27): an outlet's own bottles per item at a store, and the store's real history. */

type Q = Db | Knex.Transaction;

/** An item with what it sold (bottles over the window, or a weekly average) and its facts at the store. */
export interface HistoryRow {
  itemCode: string;
  name: string;
  /** Own history: bottles over the window; store history: the average weekly bottles (numeric text). */
  amount: string | number;
  year: number | null;
  stock: number | null;
  bottlesPerCase: number | null;
  minQty: number;
  maxQty: number | null;
  increment: number;
  policy: SplitCasePolicy;
}

const ITEM_FACTS = `i.name, inv.on_hand AS stock, i.bottles_per_case AS "bottlesPerCase", i.min_order_quantity AS "minQty",
  i.max_order_quantity AS "maxQty", i.order_increment AS increment, s.split_case_policy AS policy`;

/**
 * Bottles the outlet ordered from the store per item over the last `weeks` weeks (orders not cancelled), most
 * first; only items the store still carries (active, in its inventory). At most `limit` items.
 */
export async function ownHistory(db: Q, outletId: number, storeId: number, weeks: number, limit: number): Promise<HistoryRow[]> {
  const { rows } = await db.raw<{ rows: HistoryRow[] }>(
    `WITH sold AS (
       SELECT oi.item_code, sum(oi.quantity)::int AS bottles
         FROM orders o JOIN order_items oi ON oi.order_id = o.id
        WHERE o.outlet_id = ? AND o.store_id = ? AND o.status IN ('reserved', 'ready', 'completed')
          AND o.order_date >= now() - make_interval(weeks => ?::int)
        GROUP BY oi.item_code)
     SELECT sold.item_code AS "itemCode", sold.bottles AS amount, NULL::int AS year, ${ITEM_FACTS}
       FROM sold
       JOIN stores s ON s.id = ?
       JOIN items i ON i.board_id = s.board_id AND i.code = sold.item_code AND i.active
       JOIN inventory inv ON inv.store_id = s.id AND inv.item_id = i.id
      ORDER BY sold.bottles DESC, sold.item_code
      LIMIT ?`,
    [outletId, storeId, weeks, storeId, limit],
  );
  return rows;
}

/** The store's real average weekly bottles per item (store_item_history), most first; only items it carries now. */
export async function storeHistory(db: Q, storeId: number, limit: number): Promise<HistoryRow[]> {
  const { rows } = await db.raw<{ rows: HistoryRow[] }>(
    `SELECT h.item_code AS "itemCode", h.weekly_bottles::text AS amount, h.year::int AS year, ${ITEM_FACTS}
       FROM store_item_history h
       JOIN stores s ON s.id = h.store_id
       JOIN items i ON i.board_id = s.board_id AND i.code = h.item_code AND i.active
       JOIN inventory inv ON inv.store_id = s.id AND inv.item_id = i.id
      WHERE h.store_id = ?
      ORDER BY h.weekly_bottles DESC, h.item_code
      LIMIT ?`,
    [storeId, limit],
  );
  return rows;
}
