import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { compileStatement, runCompiled, statementName, type CompiledStatement, type Db } from '../../db/knex';
import { PERMISSIONS, type SplitCasePolicy } from '@portal/contracts';
import { browseStoreSql } from '../access/access.service';

/** A store row with its board (spec 001 §3 warehouse). */
export interface StoreRow {
  id: number;
  name: string;
  warehouseCode: string;
  address: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  phone: string | null;
  boardNumber: number;
  boardName: string | null;
  active: boolean;
  deliveryEnabled: boolean;
  deliveryCharge: string;
  splitCasePolicy: SplitCasePolicy;
  splitCaseFee: string;
}

/** A product row of a store's inventory; `total` is the number of matches (window count). */
export interface ProductRow {
  code: string;
  name: string;
  category: string | null;
  price: string;
  bottleSizeId: number | null;
  bottleSize: string | null;
  volumeMl: number | null;
  bottlesPerCase: number | null;
  stock: number | null;
  /** The item's quantity rule columns and the store's split-case policy (issue 27). */
  minQty: number;
  maxQty: number | null;
  increment: number;
  policy: SplitCasePolicy;
  total: number;
}

/** The store with its board; undefined when absent. */
export async function findStore(db: Db, storeId: number): Promise<StoreRow | undefined> {
  return db('stores as s')
    .join('boards as b', 'b.id', 's.board_id')
    .where('s.id', storeId)
    .first(
      's.id',
      's.name',
      's.warehouse_code as warehouseCode',
      's.address',
      's.city',
      's.state',
      's.zip_code as zipCode',
      's.phone',
      'b.board_number as boardNumber',
      'b.name as boardName',
      's.active',
      's.delivery_enabled as deliveryEnabled',
      's.delivery_charge as deliveryCharge',
      's.split_case_policy as splitCasePolicy',
      's.split_case_fee as splitCaseFee',
    );
}

/** Escapes LIKE wildcards so user text matches literally (backslash is PostgreSQL's default LIKE escape). */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, '\\$&');
}

export interface ProductSearch {
  /** The signed-in user: the page is empty unless they may browse the store (access.browseStoreSql). */
  userId: string;
  /** The codes that let one browse by shopping (default bcc.carts.use) or by viewing (default the item view codes). */
  shopCodes?: readonly string[];
  viewCodes?: readonly string[];
  storeId: number;
  /** Trimmed search text, or undefined for the whole inventory. */
  search?: string;
  sizeId?: number;
  limit: number;
  offset: number;
}

/**
 * The SQL text and bindings of the catalog page (the benchmark's floor runs the very same statement).
 * Only rows of a store the user reaches (one statement: the reach check rides along as an EXISTS).
 * Matches: item code contains the text, or the name contains its words in order (`%black%reserve%`),
 * both case-insensitive through the pg_trgm GIN indexes items_code_trgm / items_name_trgm. Ranking:
 * exact code, then code or name prefix, then the name containing the whole phrase, then the words; within
 * a rank by trigram similarity to the name, then name and code (stable). `count(*) OVER ()` gives the total.
 * The text depends only on which filters are present, so it is prepared once per shape (see `name`).
 */
export function productPageSql(q: ProductSearch): { sql: string; bindings: Knex.RawBinding[]; name: string } {
  const reach = browseStoreSql(
    q.userId,
    q.storeId,
    q.shopCodes ?? [PERMISSIONS.cartsUse],
    q.viewCodes ?? [PERMISSIONS.itemsView, PERMISSIONS.itemView],
  );
  const bindings: Knex.RawBinding[] = [q.storeId, ...reach.bindings];
  let where = `inv.store_id = ? AND i.active AND ${reach.sql}`;
  if (q.sizeId !== undefined) {
    where += ' AND i.bottle_size_id = ?';
    bindings.push(q.sizeId);
  }
  let order = 'i.name, i.code';
  const orderBindings: (string | number)[] = [];
  if (q.search) {
    const term = q.search;
    const words = term.split(/\s+/).filter(Boolean).map(escapeLike);
    const phrase = escapeLike(term);
    where += ' AND (i.code ILIKE ? OR i.name ILIKE ?)';
    bindings.push(`%${phrase}%`, `%${words.join('%')}%`);
    order = `CASE WHEN i.code = ? THEN 0 WHEN i.code ILIKE ? OR i.name ILIKE ? THEN 1 WHEN i.name ILIKE ? THEN 2 ELSE 3 END,
      similarity(i.name, ?) DESC, i.name, i.code`;
    orderBindings.push(term, `${phrase}%`, `${phrase}%`, `%${phrase}%`, term);
  }
  const sql = `SELECT i.code, i.name, i.category, i.retail AS price, i.bottle_size_id AS "bottleSizeId", b.name AS "bottleSize",
      b.volume_ml AS "volumeMl", i.bottles_per_case AS "bottlesPerCase", inv.on_hand AS stock,
      i.min_order_quantity AS "minQty", i.max_order_quantity AS "maxQty", i.order_increment AS increment,
      st.split_case_policy AS policy, count(*) OVER () AS total
    FROM inventory inv
    JOIN items i ON i.id = inv.item_id
    JOIN stores st ON st.id = inv.store_id
    LEFT JOIN bottle_sizes b ON b.id = i.bottle_size_id
    WHERE ${where}
    ORDER BY ${order}
    LIMIT ? OFFSET ?`;
  const name = statementName('catalog_page', sql);
  return { sql, bindings: [...bindings, ...orderBindings, q.limit, q.offset], name };
}

/**
 * One page of the store's catalog (see productPageSql) as a prepared statement; rows are empty when the
 * user does not reach the store, when nothing matches, or past the last page. `total` comes from the
 * window count of the first row (0 without rows: see countProducts).
 */
export async function findProductPage(db: Db, q: ProductSearch): Promise<{ rows: ProductRow[]; total: number }> {
  const { sql, bindings, name } = productPageSql(q);
  const { rows } = await db.raw<{ rows: ProductRow[] }>(sql, bindings).options({ name });
  return { rows, total: rows[0]?.total ?? 0 };
}

/**
 * In one statement: whether the user may browse the store (access.browseStoreSql) and the store's catalog
 * version (its inventory counter plus the global items/sizes counter of catalog_versions; both only grow,
 * so a change to either changes the sum).
 */
export async function reachAndCatalogVersion(
  db: Db,
  q: Pick<ProductSearch, 'userId' | 'storeId' | 'shopCodes' | 'viewCodes'>,
): Promise<{ ok: boolean; version: string }> {
  const shopCodes = q.shopCodes ?? [PERMISSIONS.cartsUse];
  const viewCodes = q.viewCodes ?? [PERMISSIONS.itemsView, PERMISSIONS.itemView];
  // The statement of a user, store and codes is compiled once (a hot path: each catalog request runs it) and
  // run as a prepared statement; what it reads is read live every time.
  const key = `${q.userId}|${q.storeId}|${shopCodes.join(',')}|${viewCodes.join(',')}`;
  let st = reachStatements.get(key);
  if (!st) {
    const reach = browseStoreSql(q.userId, q.storeId, shopCodes, viewCodes);
    const sql = `SELECT ${reach.sql} AS ok,
    (SELECT coalesce(sum(v.version), 0) FROM catalog_versions v WHERE v.store_id IN (?, 0))::text AS version`;
    st = compileStatement(db, statementName('catalog_version', sql), sql, [...reach.bindings, q.storeId]);
    reachStatements.set(key, st);
  }
  const [row] = await runCompiled<{ ok: boolean; version: string }>(db, st);
  return row;
}

/** reachAndCatalogVersion's compiled statements by user, store and codes (text and values; no result). */
const reachStatements = new LRUCache<string, CompiledStatement>({ max: 10_000 });

/** The number of matches of a search (for a page past the end, where no row carries the window count). */
export async function countProducts(db: Db, q: ProductSearch): Promise<number> {
  return (await findProductPage(db, { ...q, limit: 1, offset: 0 })).total;
}

/** One product of the store's inventory by item code; undefined when the store does not carry it. */
export async function findProduct(db: Db, storeId: number, code: string): Promise<ProductRow | undefined> {
  return db('inventory as inv')
    .join('items as i', 'i.id', 'inv.item_id')
    .join('stores as st', 'st.id', 'inv.store_id')
    .leftJoin('bottle_sizes as b', 'b.id', 'i.bottle_size_id')
    .where({ 'inv.store_id': storeId, 'i.code': code, 'i.active': true })
    .first(
      'i.code',
      'i.name',
      'i.category',
      'i.retail as price',
      'i.bottle_size_id as bottleSizeId',
      'b.name as bottleSize',
      'b.volume_ml as volumeMl',
      'i.bottles_per_case as bottlesPerCase',
      'inv.on_hand as stock',
      'i.min_order_quantity as minQty',
      'i.max_order_quantity as maxQty',
      'i.order_increment as increment',
      'st.split_case_policy as policy',
      db.raw('1 AS total'),
    );
}

/** The bottle sizes of the store's active items, smallest first. */
export async function findBottleSizes(db: Db, storeId: number): Promise<{ id: number; name: string; volumeMl: number }[]> {
  return db('bottle_sizes as b')
    .whereExists(function () {
      this.select(db.raw('1'))
        .from('inventory as inv')
        .join('items as i', 'i.id', 'inv.item_id')
        .where('inv.store_id', storeId)
        .andWhere('i.active', true)
        .andWhereRaw('i.bottle_size_id = b.id');
    })
    .orderBy('b.volume_ml')
    .select('b.id', 'b.name', 'b.volume_ml as volumeMl');
}
