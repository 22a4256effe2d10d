import type { Knex } from 'knex';
import type { AdminItem } from '@portal/contracts';
import type { Db } from '../../db/knex';

/** Queries of the admin Items tab (spec 002 §2, §6); the only place with its SQL. Scope comes from modules/access. */

type Q = Db | Knex.Transaction;

const select = (db: Q) =>
  db('items as i')
    .join('boards as b', 'b.id', 'i.board_id')
    .leftJoin('bottle_sizes as bs', 'bs.id', 'i.bottle_size_id')
    .select<AdminItem[]>(
      'i.id',
      'i.code',
      'i.name',
      'i.category',
      db.raw('i.retail::text AS retail'),
      'i.bottle_size_id as bottleSizeId',
      'bs.name as bottleSize',
      'i.bottles_per_case as bottlesPerCase',
      db.raw(`CASE WHEN i.min_order_quantity = 1 AND i.max_order_quantity IS NULL AND i.order_increment = 1 THEN NULL
        ELSE json_build_object('min', i.min_order_quantity, 'max', i.max_order_quantity, 'increment', i.order_increment) END AS "quantityRule"`),
      'i.active',
      'i.board_id as boardId',
      'b.board_number as boardNumber',
      db.raw('(SELECT count(*)::int FROM inventory inv WHERE inv.item_id = i.id) AS "storeCount"'),
    );

/** The items list's sorts (ARCHITECTURE §5 "Administration at scale"): the column each orders by. */
export type ItemSortKey = 'code' | 'name' | 'category' | 'size' | 'retail' | 'active';
const ITEM_SORT_COLUMNS: Record<ItemSortKey, string> = {
  code: 'i.code',
  name: 'i.name',
  category: 'i.category',
  size: 'bs.volume_ml',
  retail: 'i.retail',
  active: 'i.active',
};

/**
 * A page of items by name (or `sort`), then code, of the catalogs in `within` (a subquery of board ids; null: all); search
 * by name or code (case-insensitive substring), `active`, `category` and `bottleSizeMl` filter.
 */
export async function findPage(
  db: Q,
  q: {
    within: Knex.QueryBuilder | null;
    search?: string;
    active?: boolean;
    category?: string;
    bottleSizeMl?: number;
    sort?: { key: ItemSortKey; desc: boolean };
    page: number;
    pageSize: number;
  },
): Promise<{ items: AdminItem[]; total: number }> {
  const base = db('items as i');
  if (q.within) base.whereIn('i.board_id', q.within);
  if (q.search) {
    const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base.where((w) => {
      w.whereILike('i.name', like).orWhereILike('i.code', like);
    });
  }
  if (q.active !== undefined) base.where('i.active', q.active);
  if (q.category) base.whereRaw('lower(i.category) = lower(?)', [q.category]);
  if (q.bottleSizeMl !== undefined) base.whereIn('i.bottle_size_id', db('bottle_sizes').where('volume_ml', q.bottleSizeMl).select('id'));
  const [{ n }] = await base.clone().count<{ n: string }[]>('* as n');
  const ids = base.clone().select('i.id');
  const dir = q.sort?.desc ? 'desc' : 'asc';
  const items = await select(db)
    .whereIn('i.id', ids)
    .orderByRaw(`${ITEM_SORT_COLUMNS[q.sort?.key ?? 'name']} ${dir} NULLS LAST`)
    .orderBy('i.code', dir)
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  return { items, total: Number(n) };
}

/** One item of the catalogs in `within` (null: any); undefined when absent or out of reach. */
export async function findItem(db: Q, id: number, within: Knex.QueryBuilder | null): Promise<AdminItem | undefined> {
  const q = select(db).where('i.id', id);
  if (within) q.whereIn('i.board_id', within);
  const [row] = await q.limit(1);
  return row;
}

/** The editable fields of an item (retail as numeric text). */
export interface ItemEditable {
  id: number;
  name: string;
  category: string | null;
  retail: string;
  active: boolean;
  /** The item's quantity rule (issue 27). */
  min_order_quantity: number;
  max_order_quantity: number | null;
  order_increment: number;
}

/** An item's editable fields, locked FOR UPDATE, within `within` (board ids; null: any); undefined otherwise. */
export async function lockEditable(db: Q, id: number, within: Knex.QueryBuilder | null): Promise<ItemEditable | undefined> {
  const q = db('items as i').where('i.id', id);
  if (within) q.whereIn('i.board_id', within);
  const [row] = await q
    .forUpdate()
    .select<ItemEditable[]>(
      'i.id',
      'i.name',
      'i.category',
      db.raw('i.retail::text AS retail'),
      'i.active',
      'i.min_order_quantity',
      'i.max_order_quantity',
      'i.order_increment',
    )
    .limit(1);
  return row;
}

/** Updates the given editable fields of an item and its updated_at. */
export async function updateItem(db: Q, id: number, patch: Partial<Omit<ItemEditable, 'id'>>): Promise<void> {
  await db('items')
    .where({ id })
    .update({ ...patch, updated_at: db.fn.now() });
}
