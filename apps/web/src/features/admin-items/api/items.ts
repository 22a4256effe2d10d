import type { z } from 'zod';
import { ADMIN_ITEMS_PAGE_SIZE, adminItemPageSchema, updateItemBodySchema } from '@portal/contracts';
import { api, useApi } from '@/lib/api';

/** Admin items API (spec 002 §2, §3, §9): the board's items paged and filtered, and the item update. */

/** Filter of the Items tab: 1-based page, search by name or code, 'available online' ('' for all). */
export interface ItemsQuery {
  page: number;
  search: string;
  active: '' | 'true' | 'false';
}

/** GET /admin/items?page=&pageSize=20&search=&active=; keeps the previous page while the next one loads. */
export function useAdminItems({ page, search, active }: ItemsQuery) {
  const params = new URLSearchParams({ page: String(page), pageSize: String(ADMIN_ITEMS_PAGE_SIZE) });
  if (search) params.set('search', search);
  if (active) params.set('active', active);
  return useApi(`/admin/items?${params}`, adminItemPageSchema, { keepPreviousData: true });
}

/** An item update: the item form's body as parsed by updateItemBodySchema, or any part of it (the switch sends `{ active }`). */
export type ItemUpdateBody = Partial<z.output<typeof updateItemBodySchema>>;

/** PATCH /admin/items/{id}. Throws ApiError. */
export async function updateItem(itemId: number, body: ItemUpdateBody): Promise<void> {
  await api.patch(`/admin/items/${itemId}`, body);
}
