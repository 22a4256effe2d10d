import { z } from 'zod';
import { pageOf } from './common';
import { storeOutletSchema } from './admin-org';
import { manageableOutletsSchema } from './admin-users';

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

/**
 * A user id in the path of Edit User's reads: any text (a malformed id is answered 404 "User not found", as a
 * missing one; spec 002 §2 Edit User). The row check refuses what is not a UUID of a reachable user.
 */
export const adminUserRefParamsSchema = z.strictObject({
  userId: z.string().min(1).max(100).describe('The user id (a UUID; anything else is 404 like a missing user)'),
});

/**
 * GET /admin/users/{userId}/manageable-outlets for a picker that scales (issue 26 §4): `search` (name or code),
 * `assigned=true` (only the user's own outlets), `limit` (the first N by name). Without them, every outlet (earlier
 * callers). The answer then carries `total`, the count of matches.
 */
export const manageableOutletsQuerySchema = z.strictObject({
  search: z.string().trim().max(100).optional(),
  assigned: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});
export type ManageableOutletsQuery = z.input<typeof manageableOutletsQuerySchema>;
export const manageableOutletsPageSchema = manageableOutletsSchema.extend({ total: z.number().int() });
