import type { Knex } from 'knex';
import type { AdminStore } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { StoreRow } from '../../db/tables/admin';

/** Queries of the Stores tab and the store editor (spec 002); the only place with its SQL. Scope comes from modules/access. */

type Q = Db | Knex.Transaction;

const select = (db: Q) =>
  db('stores as s')
    .join('boards as b', 'b.id', 's.board_id')
    .select<AdminStore[]>(
      's.id',
      's.id as warehouseId',
      's.warehouse_code as warehouseCode',
      's.name',
      's.board_id as boardId',
      'b.board_number as boardNumber',
      'b.name as boardName',
      's.split_case_policy as splitCasePolicy',
      db.raw('s.split_case_fee::text AS "splitCaseFee"'),
      's.address',
      's.city',
      's.state',
      's.zip_code as zipCode',
      's.phone',
      db.raw('s.latitude::text AS latitude'),
      db.raw('s.longitude::text AS longitude'),
      's.active',
      's.is_warehouse as isWarehouse',
      's.delivery_enabled as deliveryEnabled',
      db.raw('s.delivery_charge::text AS "deliveryCharge"'),
      's.orderconf_ccemails as orderconfCcemails',
      db.raw('EXISTS (SELECT 1 FROM payment_credentials pc WHERE pc.store_id = s.id) AS "hasPaymentCredentials"'),
      db.raw('(SELECT count(*)::int FROM store_outlets so WHERE so.store_id = s.id) AS "outletCount"'),
    );

/** The stores list's sorts (ARCHITECTURE §5 "Administration at scale"): the columns each orders by. */
export type StoreSortKey = 'id' | 'name' | 'city' | 'board' | 'delivery' | 'active';
const STORE_SORT_COLUMNS: Record<StoreSortKey, string[]> = {
  id: ['s.id'],
  name: ['s.name'],
  city: ['s.city'],
  board: ['b.name'],
  delivery: ['s.delivery_enabled', 's.delivery_charge'],
  active: ['s.active'],
};

/** The stores list's filters (ARCHITECTURE §5 "Administration at scale"). */
export interface StoreFilter {
  within: Knex.QueryBuilder | null;
  search?: string;
  active?: boolean;
  boardId?: number;
  deliveryEnabled?: boolean;
  hasCredentials?: boolean;
}

/**
 * Stores within `within` (a subquery of store ids; null: all); search by name, warehouse code, city or (digits)
 * store number; `active`, `boardId`, `deliveryEnabled` and `hasCredentials` filter.
 */
function filtered(db: Q, q: StoreFilter): Knex.QueryBuilder {
  const base = db('stores as s');
  if (q.within) base.whereIn('s.id', q.within);
  const search = q.search;
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base.where((w) => {
      w.whereILike('s.name', like).orWhereILike('s.warehouse_code', like).orWhereILike('s.city', like);
      if (/^\d{1,9}$/.test(search)) w.orWhere('s.id', Number(search));
    });
  }
  if (q.active !== undefined) base.where('s.active', q.active);
  if (q.boardId !== undefined) base.where('s.board_id', q.boardId);
  if (q.deliveryEnabled !== undefined) base.where('s.delivery_enabled', q.deliveryEnabled);
  if (q.hasCredentials !== undefined) {
    const creds = db('payment_credentials as pc').whereRaw('pc.store_id = s.id');
    if (q.hasCredentials) base.whereExists(creds);
    else base.whereNotExists(creds);
  }
  return base;
}

/** A page of the filtered stores by name (or `sort`), with the total. */
export async function findPage(
  db: Q,
  q: StoreFilter & { sort?: { key: StoreSortKey; desc: boolean }; page: number; pageSize: number },
): Promise<{ items: AdminStore[]; total: number }> {
  const base = filtered(db, q);
  const [{ n }] = await base.clone().count<{ n: string }[]>('* as n');
  const dir = q.sort?.desc ? 'desc' : 'asc';
  const items = await select(db)
    .whereIn('s.id', base.clone().select('s.id'))
    .orderBy(STORE_SORT_COLUMNS[q.sort?.key ?? 'name'].map((column) => ({ column, order: dir })))
    .orderBy('s.id', dir)
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  return { items, total: Number(n) };
}

/** The ids of the filtered stores by id, at most `limit`, with their total ("select all N matching"). */
export async function findIds(db: Q, q: StoreFilter, limit: number): Promise<{ ids: number[]; total: number }> {
  const base = filtered(db, q);
  const [{ n }] = await base.clone().count<{ n: string }[]>('* as n');
  const rows: { id: number }[] = await base.clone().select('s.id').orderBy('s.id').limit(limit);
  return { ids: rows.map((r) => r.id), total: Number(n) };
}

/** One store with its settings, within `within` (null: any); undefined when absent or out of reach. */
export async function findStore(db: Q, id: number, within: Knex.QueryBuilder | null): Promise<AdminStore | undefined> {
  const q = select(db).where('s.id', id);
  if (within) q.whereIn('s.id', within);
  const [row] = await q.limit(1);
  return row;
}

/** The next free warehouse id (max + 1), with the stores table locked against concurrent inserts (in a transaction). */
export async function nextWarehouseId(db: Q): Promise<number> {
  await db.raw('LOCK TABLE stores IN SHARE ROW EXCLUSIVE MODE');
  const [{ m }] = await db('stores').max<{ m: number | null }[]>('id as m');
  return Number(m ?? 0) + 1;
}

/** The writable columns of a store. */
export type StoreFields = Partial<Omit<StoreRow, 'id' | 'is_warehouse' | 'created_at' | 'updated_at'>>;

/** Inserts a store with its warehouse id. Unique id and warehouse code (23505). */
export async function insertStore(db: Q, id: number, fields: StoreFields): Promise<void> {
  await db('stores').insert({ id, ...fields });
}

/** Updates the given columns of a store (and its updated_at); returns the number of rows updated. */
export async function updateStore(db: Q, id: number, fields: StoreFields): Promise<number> {
  return db('stores')
    .where({ id })
    .update({ ...fields, updated_at: db.fn.now() });
}

/** `%`, `_` and `\\` taken literally in an ILIKE pattern. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The outlets assigned to a store, by name then id, matching `search` (name, code or city, case-insensitive) when
 * given: one page (`limit`, `offset`; all when no limit) and the total that match.
 */
export async function findStoreOutlets(db: Q, storeId: number, opts: { search?: string; limit?: number; offset?: number } = {}) {
  const q = db('store_outlets as so').join('outlets as o', 'o.id', 'so.outlet_id').where('so.store_id', storeId);
  if (opts.search) {
    const like = `%${escapeLike(opts.search)}%`;
    q.where((w) => w.whereILike('o.name', like).orWhereILike('o.outlet_code', like).orWhereILike('o.city', like));
  }
  const [{ total }] = await q.clone().count<{ total: string }[]>('* as total');
  const page = q
    .orderBy([{ column: 'o.name' }, { column: 'o.id' }])
    .select<{ outletId: number; outletCode: string; outletName: string; city: string | null; state: string | null; active: boolean }[]>(
      'o.id as outletId',
      'o.outlet_code as outletCode',
      'o.name as outletName',
      'o.city',
      'o.state',
      'o.active',
    );
  if (opts.limit !== undefined) page.limit(opts.limit).offset(opts.offset ?? 0);
  return { items: await page, total: Number(total) };
}

/** Does the outlet exist? */
export async function outletExists(db: Q, id: number): Promise<boolean> {
  return Boolean(await db('outlets').where({ id }).first('id'));
}

/** Links an outlet to a store; returns whether the link is new. */
export async function linkOutlet(db: Q, storeId: number, outletId: number): Promise<boolean> {
  const added = await db('store_outlets')
    .insert({ store_id: storeId, outlet_id: outletId })
    .onConflict(['store_id', 'outlet_id'])
    .ignore()
    .returning('store_id');
  return added.length > 0;
}

/** Unlinks an outlet from a store; returns whether a link was removed. */
export async function unlinkOutlet(db: Q, storeId: number, outletId: number): Promise<boolean> {
  return (await db('store_outlets').where({ store_id: storeId, outlet_id: outletId }).delete()) > 0;
}
