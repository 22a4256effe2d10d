import { z } from 'zod';
import { adminItemsQuerySchema, adminOutletsQuerySchema, adminStoresQuerySchema, updateStoreBodySchema } from './admin-org';
import { storeOrderingPatchSchema } from './ordering-schedule';
import { adminUserRowSchema, adminUsersListSchema } from './admin-users';
import { scopeTypeSchema } from './grants';

/**
 * Administration at scale (ARCHITECTURE §5 "Administration at scale", issue 26): the admin lists' paging,
 * sort and filters (every list: `page`, `pageSize`, `sort` as a column key with `-` for descending, and a
 * `total`), the users list's pending invitations as rows of their own, the users export, and the bulk
 * actions on users and stores (each item checked as if done alone, one result per item).
 */

/** The page sizes the admin lists offer (any 1–100 is accepted; the screens offer these). */
export const ADMIN_LIST_PAGE_SIZES = [25, 50, 100] as const;
/** Ids one bulk call takes at most (the screens send "all matching" in chunks of this size). */
export const ADMIN_BULK_MAX = 1000;
/** Ids GET /admin/users/ids answers at most ("select all N matching"). */
export const ADMIN_SELECT_ALL_MAX = 10_000;

const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

/** A `sort` query parameter: one of `keys`, or `-key` for descending. */
export function sortQuery<const K extends string>(keys: readonly K[]) {
  return z.enum([...keys, ...keys.map((k) => `-${k}` as `-${K}`)] as [K | `-${K}`, ...(K | `-${K}`)[]]).optional();
}

/** Splits a sort value into its key and direction (`-name` → { key: 'name', desc: true }). */
export function parseSort<K extends string>(sort: K | `-${K}` | undefined, fallback: K): { key: K; desc: boolean } {
  if (!sort) return { key: fallback, desc: false };
  return sort.startsWith('-') ? { key: sort.slice(1) as K, desc: true } : { key: sort as K, desc: false };
}

const pageParam = z.coerce.number().int().min(1).max(1_000_000);
const pageSizeParam = z.coerce.number().int().min(1).max(100);

// ─── Users ───────────────────────────────────────────────────────────────────────────────────────
export const ADMIN_USER_SORTS = ['name', 'email', 'lastLogin', 'status'] as const;
export const ADMIN_USER_STATUSES = ['active', 'inactive', 'invited'] as const;
export type AdminUserStatus = (typeof ADMIN_USER_STATUSES)[number];

/** The filters of the users list, its export and its ids (status=invited: the pending invitations). */
export const adminUsersFilterSchema = z.strictObject({
  search: z.string().trim().max(200).optional(),
  /** A role code (e.g. store_manager): users holding that role anywhere. */
  role: z.string().trim().max(64).optional(),
  /** Users who are members of this outlet. */
  outletId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  /** Users holding a grant at this store, or members of an outlet linked to it. */
  storeId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  status: z.enum(ADMIN_USER_STATUSES).optional(),
  sort: sortQuery(ADMIN_USER_SORTS),
});
export type AdminUsersFilter = z.output<typeof adminUsersFilterSchema>;

/**
 * GET /admin/users: the page form (`page`, `pageSize`, default 1 and 25) or the earlier cursor form (`cursor`,
 * `limit`, by name), both with the filters. With `cursor` or only `limit`, the cursor form answers.
 */
export const adminUsersListQuerySchema = adminUsersFilterSchema.extend({
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  page: pageParam.optional(),
  pageSize: pageSizeParam.optional(),
});
export type AdminUsersListQuery = z.input<typeof adminUsersListQuerySchema>;

/** A row of the users list: a user (status active|inactive) or a pending invitation (status invited). */
export const adminUserListRowSchema = adminUserRowSchema.extend({
  status: z.enum(ADMIN_USER_STATUSES),
  /** ISO date-time of the last sign-in; null: never (and for invitations). */
  lastLogin: z.string().nullable(),
  /** Invitations only: what the invitation grants and when it expires. */
  invitation: z.object({ roleLabels: z.array(z.string()), outletLabels: z.array(z.string()), expiresAt: z.string() }).optional(),
});
export type AdminUserListRow = z.infer<typeof adminUserListRowSchema>;

export const adminUsersPageSchema = adminUsersListSchema.extend({
  items: z.array(adminUserListRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminUsersPage = z.infer<typeof adminUsersPageSchema>;

/** GET /admin/users/ids: the ids of every row matching the filters (at most ADMIN_SELECT_ALL_MAX), for "select all N matching". */
export const adminUserIdsSchema = z.object({ ids: z.array(z.string()), total: z.number().int(), truncated: z.boolean() });
export type AdminUserIds = z.infer<typeof adminUserIdsSchema>;

export const ADMIN_USER_BULK_ACTIONS = ['activate', 'deactivate', 'grant', 'revoke', 'resend-invitation'] as const;
export type AdminUserBulkAction = (typeof ADMIN_USER_BULK_ACTIONS)[number];

/**
 * POST /admin/users/bulk: one action on up to ADMIN_BULK_MAX rows. grant/revoke name the role and where
 * (`scopeType`, `scopeId`; a global role has no `scopeId`); resend-invitation takes invitation rows' ids.
 */
export const adminUsersBulkBodySchema = z
  .strictObject({
    action: z.enum(ADMIN_USER_BULK_ACTIONS),
    userIds: z.array(z.string().trim().min(1).max(100)).min(1, 'Select at least one user').max(ADMIN_BULK_MAX),
    roleId: z.number().int().positive().optional(),
    scopeType: scopeTypeSchema.optional(),
    scopeId: z.number().int().positive().nullish(),
  })
  .superRefine((b, ctx) => {
    if (b.action !== 'grant' && b.action !== 'revoke') return;
    if (b.roleId === undefined) ctx.addIssue({ code: 'custom', path: ['roleId'], message: 'Choose a role' });
    if (b.action === 'grant' && !b.scopeType)
      ctx.addIssue({ code: 'custom', path: ['scopeType'], message: 'Choose where the role is held' });
    if (b.scopeType && b.scopeType !== 'global' && !b.scopeId)
      ctx.addIssue({ code: 'custom', path: ['scopeId'], message: 'Choose the place' });
  });
export type AdminUsersBulkBody = z.input<typeof adminUsersBulkBodySchema>;

/** One item's outcome: ok, or the problem code and message it would have answered alone. */
export const bulkUserResultSchema = z.object({
  userId: z.string(),
  ok: z.boolean(),
  code: z.string().optional(),
  message: z.string().optional(),
});
export type BulkUserResult = z.infer<typeof bulkUserResultSchema>;
export const adminUsersBulkResultSchema = z.object({ results: z.array(bulkUserResultSchema) });
export type AdminUsersBulkResult = z.infer<typeof adminUsersBulkResultSchema>;

// ─── Outlets, stores, items ──────────────────────────────────────────────────────────────────────
export const ADMIN_OUTLET_SORTS = ['id', 'name', 'code', 'city', 'state', 'active', 'board'] as const;
export const adminOutletsListQuerySchema = adminOutletsQuerySchema.extend({
  boardId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  /** Outlets linked to this store. */
  storeId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  active: booleanQuery.optional(),
  sort: sortQuery(ADMIN_OUTLET_SORTS),
});
export type AdminOutletsListQuery = z.output<typeof adminOutletsListQuerySchema>;

export const ADMIN_STORE_SORTS = ['id', 'name', 'city', 'board', 'delivery', 'active'] as const;
export const adminStoresListQuerySchema = adminStoresQuerySchema.extend({
  boardId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  deliveryEnabled: booleanQuery.optional(),
  /** false: the stores without payment credentials. */
  hasCredentials: booleanQuery.optional(),
  sort: sortQuery(ADMIN_STORE_SORTS),
});
export type AdminStoresListQuery = z.output<typeof adminStoresListQuerySchema>;

export const ADMIN_ITEM_SORTS = ['code', 'name', 'category', 'size', 'retail', 'active'] as const;
export const adminItemsListQuerySchema = adminItemsQuerySchema.extend({
  category: z.string().trim().max(100).optional(),
  bottleSizeMl: z.coerce.number().int().min(0).max(100_000).optional(),
  sort: sortQuery(ADMIN_ITEM_SORTS),
});
export type AdminItemsListQuery = z.output<typeof adminItemsListQuerySchema>;

/** The settings PATCH /admin/stores/bulk may set on many stores at once: delivery, CC emails, the split-case policy (issue 27) and the ordering calendar, minimums and emergency allowance (issue 28). */
const bulkStoreSettingsSchema = updateStoreBodySchema
  .pick({ deliveryEnabled: true, deliveryCharge: true, orderconfCcemails: true, splitCasePolicy: true, splitCaseFee: true })
  .extend(storeOrderingPatchSchema.shape);
/** The names of the settings a stores bulk edit may carry. */
export const BULK_STORE_SETTINGS = Object.keys(bulkStoreSettingsSchema.shape) as (keyof typeof bulkStoreSettingsSchema.shape)[];

/** PATCH /admin/stores/bulk: settings of up to ADMIN_BULK_MAX stores (at least one id and one field), each store as if edited alone. */
export const adminStoresBulkBodySchema = bulkStoreSettingsSchema
  .extend({ storeIds: z.array(z.number().int().positive()).min(1, 'Select at least one store').max(ADMIN_BULK_MAX) })
  .strict()
  .refine((b) => BULK_STORE_SETTINGS.some((k) => b[k] !== undefined), {
    message: 'Choose a setting to change',
    path: ['deliveryEnabled'],
  });
export type AdminStoresBulkBody = z.input<typeof adminStoresBulkBodySchema>;

export const bulkStoreResultSchema = z.object({
  storeId: z.number().int(),
  ok: z.boolean(),
  code: z.string().optional(),
  message: z.string().optional(),
});
export const adminStoresBulkResultSchema = z.object({ results: z.array(bulkStoreResultSchema) });
export type AdminStoresBulkResult = z.infer<typeof adminStoresBulkResultSchema>;

/** GET /admin/stores/ids: the stores list's filters without paging or sort. */
export const adminStoresFilterSchema = adminStoresListQuerySchema.omit({ page: true, pageSize: true, sort: true });
/** The ids of every store matching the filters (at most ADMIN_SELECT_ALL_MAX), for "select all N matching". */
export const adminStoreIdsSchema = z.object({ ids: z.array(z.number().int()), total: z.number().int(), truncated: z.boolean() });
