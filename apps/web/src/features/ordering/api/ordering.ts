import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { cartSchema, productPageSchema, type Product } from '@portal/contracts';
import { api, getJson, useApi } from '@/lib/api';
import { isCartKey } from '@/lib/cart-cache';
import {
  bulkResultsSchema,
  orderGuideListSchema,
  orderGuideSchema,
  suggestedOrderSchema,
  toCartResultSchema,
  type BulkResult,
  type GuideBody,
  type OrderGuide,
  type ToCartResult,
} from './schemas';

/**
 * The ordering-week API for the web (ARCHITECTURE §5 "The licensee's ordering week"): order guides, fill a cart
 * from a guide, quick order (bulk lines), suggested order, and the product search the autocomplete uses.
 * Every function throws ApiError on failure; hooks answer SWR state.
 */

/** GET /outlets/{outletId}/order-guides?storeId=: the outlet's guides for the current store, by name. */
export function useOrderGuides(outletId: number | null, storeId: number | null) {
  const q = useApi(outletId && storeId ? `/outlets/${outletId}/order-guides?storeId=${storeId}` : null, orderGuideListSchema);
  // The filter again on the client: a server that ignores ?storeId= still shows only this store's guides.
  const guides = q.data?.items.filter((g) => g.storeId === storeId);
  return { ...q, guides };
}

/** GET /order-guides/{guideId}: one guide with its lines in order. */
export function useOrderGuide(guideId: number | null) {
  return useApi(guideId ? `/order-guides/${guideId}` : null, orderGuideSchema);
}

/** POST /outlets/{outletId}/order-guides → the new guide (201). */
export async function createGuide(outletId: number, body: GuideBody): Promise<OrderGuide> {
  return orderGuideSchema.parse(await api.post(`/outlets/${outletId}/order-guides`, { json: body }));
}

/** PATCH /order-guides/{guideId}: name and/or lines (their order is the position). */
export async function updateGuide(guideId: number, body: Partial<Omit<GuideBody, 'storeId'>>): Promise<void> {
  await api.patch(`/order-guides/${guideId}`, { json: body });
}

/** DELETE /order-guides/{guideId}. */
export async function deleteGuide(guideId: number): Promise<void> {
  await api.delete(`/order-guides/${guideId}`);
}

/** POST /order-guides/{guideId}/to-cart { onHand }: par − on hand (blank = 0) per line, rounded to the rule. */
export async function fillCartFromGuide(guideId: number, onHand: { itemCode: string; onHand: number }[]): Promise<ToCartResult> {
  return toCartResultSchema.parse(await api.post(`/order-guides/${guideId}/to-cart`, { json: { onHand } }));
}

/** GET /carts/current for the selection: the cart id bulk lines go to. */
export async function currentCartId(outletId: number, storeId: number): Promise<number> {
  return (await getJson(`/carts/current?outletId=${outletId}&storeId=${storeId}`, cartSchema)).id;
}

/** POST /carts/{cartId}/lines/bulk { lines } → one result per row (row = index + 1); valid lines are added. */
export async function addBulkLines(cartId: number, lines: { itemCode: string; quantity: number }[]): Promise<BulkResult[]> {
  return bulkResultsSchema.parse(await api.post(`/carts/${cartId}/lines/bulk`, { json: { lines } })).results;
}

/** GET /outlets/{outletId}/stores/{storeId}/suggested-order?weeks=N. */
export function useSuggestedOrder(outletId: number | null, storeId: number | null, weeks: number) {
  return useApi(outletId && storeId ? `/outlets/${outletId}/stores/${storeId}/suggested-order?weeks=${weeks}` : null, suggestedOrderSchema);
}

/** GET /stores/{storeId}/products?search=… (first `pageSize` matches by code or name). */
export async function searchProducts(storeId: number, search: string, pageSize = 8): Promise<Product[]> {
  const q = new URLSearchParams({ search, page: '1', pageSize: String(pageSize) });
  return (await getJson(`/stores/${storeId}/products?${q}`, productPageSchema)).items;
}

/** A function that reloads every cached cart (after a write that changed the cart on the server). */
export function useReloadCarts() {
  const { mutate } = useSWRConfig();
  return useCallback(() => mutate(isCartKey), [mutate]);
}
