import { CATALOG_LIMITS, productPageSchema } from '@portal/contracts';
import { preloadApi, useApi } from '@/lib/api';

export interface ProductsFilter {
  search: string;
  /** Bottle size id, or null for All Sizes. */
  size: number | null;
  page: number;
}

/** The GET /stores/{storeId}/products URL for a filter (page size 30, spec 001 §9). */
export function productsPath(
  storeId: number,
  { search, size, page }: ProductsFilter,
  pageSize: number = CATALOG_LIMITS.defaultPageSize,
): string {
  const q = new URLSearchParams();
  if (search.trim()) q.set('search', search.trim());
  if (size) q.set('size', String(size));
  q.set('page', String(page));
  q.set('pageSize', String(pageSize));
  return `/stores/${storeId}/products?${q.toString()}`;
}

/** A page of the store's catalog (search ranked by the server, size filter); null storeId skips. */
export function useProducts(storeId: number | null, filter: ProductsFilter) {
  return useApi(storeId ? productsPath(storeId, filter) : null, productPageSchema);
}

/** Starts GET /stores/{storeId}/products for `filter` now; useProducts with the same filter takes the answer (SWR preload). */
export function preloadProducts(storeId: number, filter: ProductsFilter): void {
  preloadApi(productsPath(storeId, filter), productPageSchema);
}
