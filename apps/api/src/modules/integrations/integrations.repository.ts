import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import type { ApiKeyRow } from '../../db/tables/integrations';

/**
 * The integrations module's queries (knex only): API keys, the bulk inventory and catalog upserts, the
 * order lookup of a key's status update and the synthetic test event's store and lines. Every function
 * takes `db` (the pool or the service's transaction) first; absent rows are `undefined`.
 */

/** Rows per `IN (…)` / `ANY(…)` list sent at once (keeps a 50,000-row body within the protocol's limits). */
const CHUNK = 10_000;

/**
 * Narrows a query to the rows the caller reaches (modules/access: `whereStoreOrBoardInReach`). The builder
 * is changed in place, so the typed builder passed in is the one queried.
 */
export type InReach = (q: Knex.QueryBuilder) => unknown;

/** The board of store `storeId`; undefined when the store does not exist. */
export async function findStoreBoardId(db: Db, storeId: number): Promise<number | undefined> {
  const row: { board_id: number } | undefined = await db('stores').where({ id: storeId }).first('board_id');
  return row?.board_id;
}

/** Whether board `boardId` exists. */
export async function boardExists(db: Db, boardId: number): Promise<boolean> {
  return Boolean(await db('boards').where({ id: boardId }).first('id'));
}

/** API keys the caller reaches, newest first, at most 500. */
export async function listApiKeys(db: Db, inReach: InReach): Promise<ApiKeyRow[]> {
  const q = db('api_keys');
  inReach(q);
  return q.orderBy('created_at', 'desc').limit(500);
}

/** API key `id` if the caller reaches it. */
export async function findApiKey(db: Db, id: string, inReach: InReach): Promise<ApiKeyRow | undefined> {
  const q = db('api_keys').where({ id });
  inReach(q);
  return q.first();
}

/** A new API key row (the key's hash only); returns the stored row. */
export async function insertApiKey(
  db: Db,
  k: Pick<ApiKeyRow, 'name' | 'key_prefix' | 'key_hash' | 'store_id' | 'board_id' | 'scopes' | 'sandbox' | 'created_by'>,
): Promise<ApiKeyRow> {
  const [row] = await db('api_keys').insert(k).returning('*');
  return row;
}

/** Revokes key `id` now (no-op when revoked already). */
export async function revokeApiKey(db: Db, id: string): Promise<void> {
  await db('api_keys').where({ id }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
}

/** Item ids of board `boardId` by item code, for the codes given (unknown codes are absent). */
export async function itemIdsByCode(db: Db, boardId: number, codes: readonly string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (let i = 0; i < codes.length; i += CHUNK) {
    const found: { id: number; code: string }[] = await db('items')
      .where({ board_id: boardId })
      .whereIn('code', codes.slice(i, i + CHUNK))
      .select('id', 'code');
    for (const f of found) ids.set(f.code, f.id);
  }
  return ids;
}

/** Bottles on hand at store `storeId` by item id, for the items it carries among `itemIds`. */
export async function onHandByItem(db: Db, storeId: number, itemIds: readonly number[]): Promise<Map<number, number | null>> {
  const current = new Map<number, number | null>();
  for (let i = 0; i < itemIds.length; i += CHUNK) {
    const got: { item_id: number; on_hand: number | null }[] = await db('inventory')
      .where({ store_id: storeId })
      .whereIn('item_id', itemIds.slice(i, i + CHUNK))
      .select('item_id', 'on_hand');
    for (const g of got) current.set(g.item_id, g.on_hand);
  }
  return current;
}

/** How many items store `storeId` carries (`carried`), and how many of them are not in `keep` (`removing`). */
export async function countInventoryRemoval(
  db: Db,
  storeId: number,
  keep: readonly number[],
): Promise<{ carried: number; removing: number }> {
  const [counts] = await db('inventory')
    .where({ store_id: storeId })
    .select<{ carried: number; removing: number }[]>(
      db.raw('count(*)::int AS carried'),
      db.raw('(count(*) FILTER (WHERE NOT (item_id = ANY(?::int[]))))::int AS removing', [[...keep]]),
    );
  return counts;
}

/** Removes the items of store `storeId` not in `keep`; returns how many. */
export async function removeInventoryExcept(db: Db, storeId: number, keep: readonly number[]): Promise<number> {
  return db('inventory')
    .where({ store_id: storeId })
    .whereRaw('NOT (item_id = ANY(?::int[]))', [[...keep]])
    .del();
}

/** Sets on hand of store `storeId` for each `itemIds[i]` to `onHand[i]` (inserting the rows it lacks). */
export async function upsertOnHand(db: Db, storeId: number, itemIds: readonly number[], onHand: readonly (number | null)[]): Promise<void> {
  await db.raw(
    `INSERT INTO inventory (store_id, item_id, on_hand, updated_at) SELECT ?, u.id, u.on_hand, now() FROM unnest(?::int[], ?::int[]) AS u(id, on_hand)
     ON CONFLICT (store_id, item_id) DO UPDATE SET on_hand = EXCLUDED.on_hand, updated_at = now()`,
    // knex's binding type has no array with nulls; pg sends it as an int[] with NULLs.
    [storeId, [...itemIds], [...onHand]] as Knex.RawBinding[],
  );
}

/** A catalog item as the upsert compares it: retail as `12.30` (2 decimals), pack = bottles per case. */
export interface CatalogItem {
  code: string;
  name: string;
  retail: string;
  category: string | null;
  pack: number | null;
  active: boolean;
  /** The item's quantity rule (issue 27): undefined = leave it as it is (a new item: none), null = none. */
  rule?: { min: number; max: number | null; increment: number } | null;
}

/** Board `boardId`'s items by code, for the codes given (with their quantity rules). */
export async function catalogByCode(db: Db, boardId: number, codes: readonly string[]): Promise<Map<string, Omit<CatalogItem, 'code'>>> {
  const current = new Map<string, Omit<CatalogItem, 'code'>>();
  for (let i = 0; i < codes.length; i += CHUNK) {
    const got = await db('items')
      .where({ board_id: boardId })
      .whereIn('code', codes.slice(i, i + CHUNK))
      .select(
        'code',
        'name',
        'retail',
        'category',
        'bottles_per_case as pack',
        'active',
        'min_order_quantity as min',
        'max_order_quantity as max',
        'order_increment as increment',
      );
    for (const { min, max, increment, ...g } of got)
      current.set(g.code, { ...g, retail: Number(g.retail).toFixed(2), rule: { min, max, increment } });
  }
  return current;
}

/** How many active items board `boardId` has (`carried`), and how many of them are not in `keep` (`removing`). */
export async function countCatalogRemoval(
  db: Db,
  boardId: number,
  keep: readonly string[],
): Promise<{ carried: number; removing: number }> {
  const [counts] = await db('items')
    .where({ board_id: boardId, active: true })
    .select<{ carried: number; removing: number }[]>(
      db.raw('count(*)::int AS carried'),
      db.raw('(count(*) FILTER (WHERE NOT (code = ANY(?::text[]))))::int AS removing', [[...keep]]),
    );
  return counts;
}

/** Deactivates the active items of board `boardId` not in `keep`; returns how many. */
export async function deactivateItemsExcept(db: Db, boardId: number, keep: readonly string[]): Promise<number> {
  return db('items')
    .where({ board_id: boardId, active: true })
    .whereRaw('NOT (code = ANY(?::text[]))', [[...keep]])
    .update({ active: false, updated_at: db.fn.now() });
}

/** Inserts or updates board `boardId`'s items by code. */
export async function upsertCatalog(db: Db, boardId: number, items: readonly CatalogItem[]): Promise<void> {
  await db.raw(
    `INSERT INTO items (board_id, code, name, retail, category, bottles_per_case, active)
     SELECT ?, u.code, u.name, u.retail, u.category, u.pack, u.active FROM unnest(?::text[], ?::text[], ?::numeric[], ?::text[], ?::int[], ?::bool[]) AS u(code, name, retail, category, pack, active)
     ON CONFLICT (board_id, code) DO UPDATE SET name = EXCLUDED.name, retail = EXCLUDED.retail, category = EXCLUDED.category,
       bottles_per_case = EXCLUDED.bottles_per_case, active = EXCLUDED.active, updated_at = now()`,
    [
      boardId,
      items.map((c) => c.code),
      items.map((c) => c.name),
      items.map((c) => c.retail),
      items.map((c) => c.category),
      items.map((c) => c.pack),
      items.map((c) => c.active),
      // knex's binding type has no array with nulls; pg sends them as arrays with NULLs.
    ] as Knex.RawBinding[],
  );
  const ruled = items.filter((c) => c.rule !== undefined);
  if (ruled.length)
    await db.raw(
      `UPDATE items i SET min_order_quantity = u.min, max_order_quantity = NULLIF(u.max, 0), order_increment = u.inc, updated_at = now()
         FROM unnest(?::text[], ?::int[], ?::int[], ?::int[]) AS u(code, min, max, inc)
        WHERE i.board_id = ? AND i.code = u.code`,
      [
        ruled.map((c) => c.code),
        ruled.map((c) => c.rule?.min ?? 1),
        // 0 stands for "no maximum" (NULLIF above): the arrays carry no NULLs.
        ruled.map((c) => c.rule?.max ?? 0),
        ruled.map((c) => c.rule?.increment ?? 1),
        boardId,
      ],
    );
}

/** Order `orderNumber` with its store and the store's board; undefined when absent. */
export async function findOrderPlace(db: Db, orderNumber: string): Promise<{ id: number; store_id: number; board_id: number } | undefined> {
  return db('orders as o')
    .join('stores as s', 's.id', 'o.store_id')
    .where('o.order_number', orderNumber)
    .first('o.id', 'o.store_id', 's.board_id');
}

/** A store as a synthetic order shows it. */
export interface TestEventStore {
  id: number;
  board_id: number;
  name: string;
  address: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  phone: string | null;
}

/** Store `storeId` for a synthetic order; undefined when absent. */
export async function findTestEventStore(db: Db, storeId: number): Promise<TestEventStore | undefined> {
  return db('stores').where({ id: storeId }).first('id', 'board_id', 'name', 'address', 'city', 'state', 'zip_code', 'phone');
}

/** One line of a synthetic order: the item and its bottle size. */
export interface SampleLine {
  code: string;
  name: string;
  retail: string;
  bottle_size_id: number | null;
  bottle_size: string | null;
}

/** Two items the store carries (else two of its board's), by item code. */
export async function sampleLines(db: Db, storeId: number, boardId: number): Promise<SampleLine[]> {
  const cols = ['i.code', 'i.name', 'i.retail', 'i.bottle_size_id', 'b.name as bottle_size'];
  const carried: SampleLine[] = await db('inventory as v')
    .join('items as i', 'i.id', 'v.item_id')
    .leftJoin('bottle_sizes as b', 'b.id', 'i.bottle_size_id')
    .where({ 'v.store_id': storeId, 'i.active': true })
    .orderBy('i.code')
    .limit(2)
    .select(cols);
  if (carried.length) return carried;
  return db('items as i')
    .leftJoin('bottle_sizes as b', 'b.id', 'i.bottle_size_id')
    .where({ 'i.board_id': boardId })
    .orderBy('i.code')
    .limit(2)
    .select(cols);
}
