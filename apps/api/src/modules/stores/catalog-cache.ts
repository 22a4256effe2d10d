import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/knex';
import type { SerializedJson } from '../../lib/serialized-json';
import type { ProductRow, ProductSearch } from './stores.repository';

/**
 * The catalog's page cache (issue 29 §2): a page of a store's catalog (its rows and total) by store, search,
 * size and page, with the catalog version it was read under (stores.repository reachAndCatalogVersion: the
 * store's and the global counters of catalog_versions, bumped by triggers on inventory, items and
 * bottle_sizes in the writing transaction). A request reads the version (with the caller's reach, one
 * statement) and answers from here only when it is unchanged, so a change is seen by the very next request,
 * in any API process; the rows never depend on the caller (the reach is checked on every request). The
 * 2,000 most recently used pages per database (≈ 30 rows each). An entry also keeps the page's answer as
 * sent (`body`: the JSON bytes, its ETag, its brotli and gzip bodies), made on first use: it goes with the
 * entry, so it is dropped exactly when the page is.
 */
export interface CachedPage {
  version: string;
  rows: ProductRow[];
  total: number;
  body?: SerializedJson;
}

const caches = new WeakMap<Db, LRUCache<string, CachedPage>>();

/** The page cache of `db` (one per connection pool: a test's database, the API's). */
export function catalogCacheOf(db: Db): LRUCache<string, CachedPage> {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = new LRUCache<string, CachedPage>({ max: 2000 })));
  return c;
}

/** A page's key: everything the page's rows depend on but the user (store, size, page size and offset, search). */
export const pageKey = (q: Pick<ProductSearch, 'storeId' | 'sizeId' | 'limit' | 'offset' | 'search'>): string =>
  `${q.storeId}|${q.sizeId ?? ''}|${q.limit}|${q.offset}|${q.search ?? ''}`;
