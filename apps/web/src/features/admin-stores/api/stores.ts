import type { z } from 'zod';
import {
  ADMIN_BULK_MAX,
  adminStoresBulkResultSchema,
  adminStoreIdsSchema,
  type AdminStoresBulkBody,
  type AdminStoresBulkResult,
  adminBoardListSchema,
  adminOutletPageSchema,
  adminStorePageSchema,
  adminStoreSchema,
  storeOutletPageSchema,
  STORE_OUTLETS_PAGE_SIZE,
  createStoreBodySchema,
  type AdminStore,
} from '@portal/contracts';
import { api, getJson, useApi } from '@/lib/api';

/**
 * Admin stores API (spec 002 §2, §4, §5, §8): the Stores tab's page, the store editor's store, its board
 * choices, its assigned outlets and the outlet search, with the save and assign/remove mutations.
 * Responses are parsed with the contracts schemas; failures are ApiError (lib/api).
 */

/** Query of the Stores tab: 1-based page, 20 a page, optional search (debounced by the caller). */
export interface StoresQuery {
  page: number;
  search?: string;
  pageSize?: number;
}

/** GET /admin/stores?page=&pageSize=&search=; keeps the previous page while the next one loads. */
export function useAdminStores({ page, search, pageSize = 20 }: StoresQuery) {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (search) params.set('search', search);
  return useApi(`/admin/stores?${params}`, adminStorePageSchema, { keepPreviousData: true });
}

/** GET /admin/stores/{id} (null: a new store, nothing fetched); not refetched on focus. */
export const useAdminStore = (storeId: number | null) =>
  useApi(storeId ? `/admin/stores/${storeId}` : null, adminStoreSchema, { revalidateOnFocus: false });

/** GET /admin/boards: the board choices of the store form; not retried. */
export const useStoreBoardOptions = () => useApi('/admin/boards', adminBoardListSchema, { shouldRetryOnError: false });

/** The key of one page of a store's Assigned Outlets (search by name, code or city; issue 26 §4). */
export const storeOutletsPageKey = (storeId: number, q: { search?: string; page?: number; pageSize?: number }) => {
  const p = new URLSearchParams({ page: String(q.page ?? 1), pageSize: String(q.pageSize ?? STORE_OUTLETS_PAGE_SIZE) });
  if (q.search) p.set('search', q.search);
  return `/admin/stores/${storeId}/outlets?${p.toString()}`;
};
/** GET /admin/stores/{id}/outlets?search=&page=&pageSize=: a page of the assigned outlets with the total. */
export const useStoreOutletsPage = (storeId: number, q: { search?: string; page?: number; pageSize?: number } | null) =>
  useApi(q ? storeOutletsPageKey(storeId, q) : null, storeOutletPageSchema, { keepPreviousData: true, revalidateOnFocus: false });

/** GET /admin/outlets?search=&pageSize=10: outlets to assign (null or empty search: nothing fetched). */
export const useOutletSearch = (search: string | null) =>
  useApi(search ? `/admin/outlets?search=${encodeURIComponent(search)}&pageSize=10` : null, adminOutletPageSchema);

/** The store form's schema: the create body without the warehouse id (the same rules as the API). */
export const storeFormSchema = createStoreBodySchema.omit({ warehouseId: true });
/** Body of the store form, as parsed by `storeFormSchema`. */
export type StoreFormBody = z.output<typeof storeFormSchema>;

/** POST /admin/stores (no `storeId`) or PATCH /admin/stores/{id}; answers the saved store. Throws ApiError. */
export async function saveStore(storeId: number | null, body: StoreFormBody): Promise<AdminStore> {
  const res = storeId ? await api.patch(`/admin/stores/${storeId}`, { json: body }) : await api.post('/admin/stores', { json: body });
  return adminStoreSchema.parse(res);
}

/** PUT (assign) or DELETE (remove) /admin/stores/{storeId}/outlets/{outletId}. Throws ApiError. */
export async function setStoreOutlet(storeId: number, outletId: number, assigned: boolean): Promise<void> {
  const path = `/admin/stores/${storeId}/outlets/${outletId}`;
  if (assigned) await api.put(path);
  else await api.delete(path);
}

/** GET /admin/stores?<query> (page, pageSize, search, sort, boardId, deliveryEnabled, active, hasCredentials). */
export const useAdminStoresPage = (query: string) => useApi(`/admin/stores?${query}`, adminStorePageSchema, { keepPreviousData: true });

/** PATCH /admin/stores/bulk in chunks of ADMIN_BULK_MAX: each store checked and audited as a single edit. */
export async function bulkUpdateStores(body: AdminStoresBulkBody): Promise<AdminStoresBulkResult['results']> {
  const out: AdminStoresBulkResult['results'] = [];
  for (let i = 0; i < body.storeIds.length; i += ADMIN_BULK_MAX) {
    out.push(
      ...adminStoresBulkResultSchema.parse(
        await api.patch('/admin/stores/bulk', { json: { ...body, storeIds: body.storeIds.slice(i, i + ADMIN_BULK_MAX) } }),
      ).results,
    );
  }
  return out;
}

/** GET /admin/stores/ids?<filters>: every matching store's id ("select all N matching"; the order does not matter). */
export function fetchStoreIds(filters: string) {
  const p = new URLSearchParams(filters);
  p.delete('sort');
  return getJson(`/admin/stores/ids?${p.toString()}`, adminStoreIdsSchema);
}
