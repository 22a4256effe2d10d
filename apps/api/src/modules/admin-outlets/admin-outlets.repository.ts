import type { Knex } from 'knex';
import type { AdminOutlet } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { OutletRow } from '../../db/tables/admin';

/** Queries of the Outlets tab (spec 002 §6); the only place with its SQL. Scope comes from modules/access. */

type Q = Db | Knex.Transaction;

const select = (db: Q) =>
  db('outlets as o')
    .leftJoin('boards as b', 'b.id', 'o.board_id')
    .select<AdminOutlet[]>(
      'o.id',
      'o.outlet_code as outletCode',
      'o.name',
      'o.city',
      'o.state',
      'o.active',
      'o.is_admin_outlet as isAdminOutlet',
      'o.default_store_id as defaultStoreId',
      'o.board_id as boardId',
      'b.name as boardName',
      db.raw(
        `coalesce((SELECT array_agg(s.id ORDER BY s.name) FROM store_outlets so JOIN stores s ON s.id = so.store_id WHERE so.outlet_id = o.id), '{}') AS "storeIds"`,
      ),
      db.raw(
        `coalesce((SELECT array_agg(s.name ORDER BY s.name) FROM store_outlets so JOIN stores s ON s.id = so.store_id WHERE so.outlet_id = o.id), '{}') AS "storeNames"`,
      ),
    );

/** The outlets list's sorts (ARCHITECTURE §5 "Administration at scale"): the column each orders by. */
export type OutletSortKey = 'id' | 'name' | 'code' | 'city' | 'state' | 'active' | 'board';
const OUTLET_SORT_COLUMNS: Record<OutletSortKey, string> = {
  id: 'o.id',
  name: 'o.name',
  code: 'o.outlet_code',
  city: 'o.city',
  state: 'o.state',
  active: 'o.active',
  board: 'b.name',
};

/**
 * A page of outlets by name (or `sort`) within `within` (a subquery of outlet ids; null: all); search by name,
 * code or city; `boardId`, `storeId` (outlets linked to the store) and `active` filter.
 */
export async function findPage(
  db: Q,
  q: {
    within: Knex.QueryBuilder | null;
    search?: string;
    boardId?: number;
    storeId?: number;
    active?: boolean;
    sort?: { key: OutletSortKey; desc: boolean };
    page: number;
    pageSize: number;
  },
): Promise<{ items: AdminOutlet[]; total: number }> {
  const base = db('outlets as o');
  if (q.within) base.whereIn('o.id', q.within);
  if (q.search) {
    const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base.where((w) => {
      w.whereILike('o.name', like).orWhereILike('o.outlet_code', like).orWhereILike('o.city', like);
    });
  }
  if (q.boardId !== undefined) base.where('o.board_id', q.boardId);
  if (q.storeId !== undefined) base.whereIn('o.id', db('store_outlets').where('store_id', q.storeId).select('outlet_id'));
  if (q.active !== undefined) base.where('o.active', q.active);
  const [{ n }] = await base.clone().count<{ n: string }[]>('* as n');
  const dir = q.sort?.desc ? 'desc' : 'asc';
  const items = await select(db)
    .whereIn('o.id', base.clone().select('o.id'))
    .orderBy(OUTLET_SORT_COLUMNS[q.sort?.key ?? 'name'], dir)
    .orderBy('o.id', dir)
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  return { items, total: Number(n) };
}

/** One outlet as the tab shows it, or undefined. */
export async function findOutlet(db: Q, id: number): Promise<AdminOutlet | undefined> {
  const [row] = await select(db).where('o.id', id).limit(1);
  return row;
}

/** Locks an outlet within `within` (null: any) FOR UPDATE; false when absent or out of reach. */
export async function lockOutlet(db: Q, id: number, within: Knex.QueryBuilder | null): Promise<boolean> {
  const q = db('outlets as o').where('o.id', id).forUpdate();
  if (within) q.whereIn('o.id', within);
  return Boolean(await q.first('o.id'));
}

/** Is this outlet code (case-insensitive) used by another outlet than `exceptId`? */
export async function codeTaken(db: Q, code: string, exceptId?: number): Promise<boolean> {
  const q = db('outlets').whereRaw('lower(outlet_code) = lower(?)', [code]);
  if (exceptId) q.whereNot('id', exceptId);
  return Boolean(await q.first('id'));
}

/** The writable columns of an outlet. */
export type OutletFields = Partial<Pick<OutletRow, 'name' | 'outlet_code' | 'city' | 'state' | 'active' | 'board_id' | 'default_store_id'>>;

/** Inserts an outlet; returns its id. Unique code (23505). */
export async function insertOutlet(db: Q, row: OutletFields): Promise<number> {
  const [r] = await db('outlets').insert(row).returning('id');
  return r.id;
}

/** Updates the given columns of an outlet (and its updated_at); nothing when the patch is empty. */
export async function updateOutlet(db: Q, id: number, patch: OutletFields): Promise<void> {
  if (!Object.keys(patch).length) return;
  await db('outlets')
    .where({ id })
    .update({ ...patch, updated_at: db.fn.now() });
}
