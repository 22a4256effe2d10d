import { productPageSchema, productSchema } from '@portal/contracts';
import { useApi } from '@/lib/api';

/** GET /stores/{storeId}/products/{code}: one product of the store (null skips). */
export function useStoreProduct(storeId: number | null, code: string | null) {
  return useApi(storeId && code ? `/stores/${storeId}/products/${encodeURIComponent(code)}` : null, productSchema);
}

/** Search results for the calculator: the first 10 matches of name or item code in the store. */
export function useProductSearch(storeId: number | null, search: string) {
  const q = search.trim();
  const path =
    storeId && q ? `/stores/${storeId}/products?${new URLSearchParams({ search: q, page: '1', pageSize: '10' }).toString()}` : null;
  return useApi(path, productPageSchema, { keepPreviousData: true });
}
