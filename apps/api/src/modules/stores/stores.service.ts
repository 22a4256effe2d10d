import type { BottleSize, Product, ProductPage, ProductsQuery, StoreDetail } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { NotFoundError } from '../../http/errors';
import { PERMISSIONS } from '@portal/contracts';
import { mayBrowseStore, splitBrowseCodes, type Actor } from '../access/access.service';
import { catalogCacheOf, pageKey } from './catalog-cache';
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
export async function listProducts(db: Db, actor: Actor, { storeId, ...q }: StoreInput & ProductsQuery): Promise<ProductPage> {
  const userId = actor.userId;
  const { shop, view } = splitBrowseCodes(BROWSE_CODES);
  const browse = { shopCodes: shop, viewCodes: view };
  const search = {
    userId,
    storeId,
    ...browse,
    search: q.search || undefined,
    sizeId: q.size,
    limit: q.pageSize,
    offset: (q.page - 1) * q.pageSize,
  };
  // The page cache (catalog-cache.ts): the caller's reach and the catalog's version in one statement; the
  // cached page when the version is unchanged, else the page read again and kept under that version.
  const cache = catalogCacheOf(db);
  const key = pageKey(search);
  const { ok, version } = await repo.reachAndCatalogVersion(db, search);
  if (!ok) throw new NotFoundError(STORE_NOT_FOUND);
  const hit = cache.get(key);
  if (hit?.version === version) return { items: hit.rows.map(toProduct), page: q.page, pageSize: q.pageSize, total: hit.total };
  const { rows, total: pageTotal } = await repo.findProductPage(db, search);
  if (rows.length) cache.set(key, { version, rows, total: pageTotal });
  let total = pageTotal;
  if (!rows.length) {
    await assertReachable(db, actor, storeId);
    if (q.page > 1) total = await repo.countProducts(db, search);
  }
  return { items: rows.map(toProduct), page: q.page, pageSize: q.pageSize, total };
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
