import { z } from 'zod';
import { pageOf } from './common';
import { storeOutletSchema } from './admin-org';

/**
 * Administration at scale (issue 26 §4; ARCHITECTURE §5): a store's Assigned Outlets paged with search.
 * GET /admin/stores/{storeId}/outlets?search=&page=&pageSize= → { items, total, page, pageSize }; without
 * pageSize every assigned outlet comes in one page (what earlier callers read).
 */
export const STORE_OUTLETS_PAGE_SIZE = 25;

export const storeOutletsQuerySchema = z.strictObject({
  search: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
});
export type StoreOutletsQuery = z.input<typeof storeOutletsQuerySchema>;

export const storeOutletPageSchema = pageOf(storeOutletSchema);
export type StoreOutletPage = z.infer<typeof storeOutletPageSchema>;

/** Texts of the Assigned Outlets tab (remove confirmation and its undo). */
export const STORE_OUTLET_MESSAGES = {
  removeTitle: 'Remove outlet from store?',
  removeBody: (outlet: string, store: string) => `${outlet} will no longer order from ${store}. You can undo this right after.`,
  removed: (outlet: string) => `${outlet} removed from the store`,
  undo: 'Undo',
  restored: (outlet: string) => `${outlet} assigned again`,
  noMatch: 'No assigned outlet matches the search.',
} as const;
