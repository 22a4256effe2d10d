import type { z } from 'zod';
import { adminItemPageSchema, updateItemBodySchema } from '@portal/contracts';
import { api, useApi } from '@/lib/api';

/** Admin items API (spec 002 §2, §3, §9): the board's items paged and filtered, and the item update. */

/** GET /admin/items?<query> (page, pageSize, search, sort, active, category, bottleSizeMl); keeps the previous page while the next one loads. */
export function useAdminItems(query: string) {
  return useApi(`/admin/items?${query}`, adminItemPageSchema, { keepPreviousData: true });
}

/** An item update: the item form's body as parsed by updateItemBodySchema, or any part of it (the switch sends `{ active }`). */
export type ItemUpdateBody = Partial<z.output<typeof updateItemBodySchema>>;

/** PATCH /admin/items/{id}. Throws ApiError. */
export async function updateItem(itemId: number, body: ItemUpdateBody): Promise<void> {
  await api.patch(`/admin/items/${itemId}`, { json: body });
}
