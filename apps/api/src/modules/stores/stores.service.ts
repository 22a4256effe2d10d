import type { BottleSize, Product, ProductPage, ProductsQuery, StoreDetail } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { NotFoundError } from '../../http/errors';
import { PERMISSIONS } from '@portal/contracts';
import { mayBrowseStore, splitBrowseCodes, type Actor } from '../access/access.service';
import { catalogCacheOf, pageKey, type CachedPage } from './catalog-cache';
import { serializeJson, type SerializedJson } from '../../lib/serialized-json';
import * as repo from './stores.repository';
import { casePack, effectiveRule } from '../../lib/quantity-rules';
import { fromCents, toCents } from '../../lib/money';

/**
 * A store and its catalog as a signed-in buyer sees them (spec 001 §2 shop page, ARCHITECTURE §5).
 * Functions take `(db, actor, input)`: the caller's principal and the route's parsed params and query.
 * Every function refuses a store the user may not browse with NotFoundError, never 403 (ARCHITECTURE §4, §11):
 * one browses a store one shops at (a member of an active outlet linked to the active store, holding
 * bcc.carts.use there) or where one holds an item view code (a store or board grant, a global one).
 */

const STORE_NOT_FOUND = 'Store not found';

/** The store a call is about (the route's path parameter). */
export interface StoreInput {
  storeId: number;
}

/** The route's codes: shopping or viewing items (stores.routes). */
export const BROWSE_CODES = [PERMISSIONS.cartsUse, PERMISSIONS.itemsView, PERMISSIONS.itemView] as const;
const SPLIT = splitBrowseCodes(BROWSE_CODES);
/** The route's codes as the catalog statement takes them (split once). */
const BROWSE = { shopCodes: SPLIT.shop, viewCodes: SPLIT.view };

async function assertReachable(db: Db, actor: Actor, storeId: number): Promise<void> {
  if (!(await mayBrowseStore(db, actor, storeId, BROWSE_CODES))) throw new NotFoundError(STORE_NOT_FOUND);
}

/** GET /stores/{storeId}: address, phone and delivery settings (deliveryCharge as a decimal string). */
export async function getStore(db: Db, actor: Actor, { storeId }: StoreInput): Promise<StoreDetail> {
  await assertReachable(db, actor, storeId);
  const s = await repo.findStore(db, storeId);
  if (!s) throw new NotFoundError(STORE_NOT_FOUND);
  return { ...s, warehouseId: s.id, splitCaseFee: fromCents(toCents(s.splitCaseFee)) };
}

/**
 * GET /stores/{storeId}/products: one page of the store's inventory, searched (name or item code,
 * ranked: exact code, prefix, then similarity) and filtered by bottle size id → { items, page, pageSize, total }.
 * The caller's reach and the catalog's version first (one statement; unreachable → 404), then the page from
 * the page cache (catalog-cache.ts) when its version is unchanged, else one page query (kept in the cache).
 */
export async function listProducts(db: Db, actor: Actor, input: StoreInput & ProductsQuery): Promise<ProductPage> {
  const found = await findPage(db, actor, input);
  return 'entry' in found ? pageOf(found.entry, input) : found.page;
}

/**
 * listProducts' answer serialized (lib/serialized-json.ts: JSON bytes, strong ETag, brotli/gzip made on
 * first use): a cached page's body is made once and kept with its page cache entry (catalog-cache.ts), so a
 * repeat costs neither the mapping nor JSON.stringify, and is dropped with the entry when the catalog
 * version changes. Same refusals as listProducts.
 */
export async function listProductsJson(db: Db, actor: Actor, input: StoreInput & ProductsQuery): Promise<SerializedJson> {
  const found = await findPage(db, actor, input);
  if (!('entry' in found)) return serializeJson(found.page);
  return (found.entry.body ??= serializeJson(pageOf(found.entry, input)));
}

const pageOf = (entry: CachedPage, q: ProductsQuery): ProductPage => ({
  items: entry.rows.map(toProduct),
  page: q.page,
  pageSize: q.pageSize,
  total: entry.total,
});

/** The page: its page cache entry (a hit, or the rows just read and kept), or a page not cached (no rows). */
async function findPage(
  db: Db,
  actor: Actor,
  { storeId, ...q }: StoreInput & ProductsQuery,
): Promise<{ entry: CachedPage } | { page: ProductPage }> {
  const userId = actor.userId;
  const search = {
    userId,
    storeId,
    ...BROWSE,
    search: q.search || undefined,
    sizeId: q.size,
    limit: q.pageSize,
    offset: (q.page - 1) * q.pageSize,
  };
  // The page cache (catalog-cache.ts): the caller's reach and the catalog's version in one statement; the
  // cached page when the version is unchanged, else the page read again and kept under that version. The key
  // holds the page and its size (limit, offset), so the entry's answer (`body`) is the same for every caller.
  const cache = catalogCacheOf(db);
  const key = pageKey(search);
  const { ok, version } = await repo.reachAndCatalogVersion(db, search);
  if (!ok) throw new NotFoundError(STORE_NOT_FOUND);
  const hit = cache.get(key);
  if (hit?.version === version) return { entry: hit };
  const { rows, total: pageTotal } = await repo.findProductPage(db, search);
  if (rows.length) {
    const entry: CachedPage = { version, rows, total: pageTotal };
    cache.set(key, entry);
    return { entry };
  }
  await assertReachable(db, actor, storeId);
  const total = q.page > 1 ? await repo.countProducts(db, search) : pageTotal;
  return { page: { items: [], page: q.page, pageSize: q.pageSize, total } };
}

/** GET /stores/{storeId}/products/{code}: one product; NotFoundError when the store does not carry it. */
export async function getProduct(db: Db, actor: Actor, { storeId, code }: StoreInput & { code: string }): Promise<Product> {
  await assertReachable(db, actor, storeId);
  const row = await repo.findProduct(db, storeId, code);
  if (!row) throw new NotFoundError('Product not found in this store');
  return toProduct(row);
}

/** GET /stores/{storeId}/bottle-sizes: the sizes of the store's active items, smallest first. */
export async function listBottleSizes(db: Db, actor: Actor, { storeId }: StoreInput): Promise<{ items: BottleSize[] }> {
  await assertReachable(db, actor, storeId);
  return { items: await repo.findBottleSizes(db, storeId) };
}

/**
 * Row → contract: 'Uncategorized' and 'Unknown Size' defaults, volume 0 → null (spec 001 §3); bottles per case 1
 * when unknown and the effective quantity rule at the store (lib/quantity-rules, issue 27).
 */
export function toProduct(r: repo.ProductRow): Product {
  return {
    code: r.code,
    name: r.name,
    category: r.category ?? 'Uncategorized',
    price: r.price,
    bottleSizeId: r.bottleSizeId,
    bottleSize: r.bottleSize ?? 'Unknown Size',
    volumeMl: r.volumeMl ? r.volumeMl : null,
    bottlesPerCase: casePack(r.bottlesPerCase),
    stock: r.stock,
    quantityRule: effectiveRule(r),
  };
}
