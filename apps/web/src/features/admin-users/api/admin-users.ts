import useSWR from 'swr';
import {
  ADMIN_BULK_MAX,
  adminRolesSchema,
  adminUserDetailSchema,
  adminUserIdsSchema,
  adminUsersBulkResultSchema,
  adminUsersPageSchema,
  assignableRolesSchema,
  manageableOutletsSchema,
  type AdminUserDetail,
  type AdminUsersBulkBody,
  type BulkUserResult,
  type GrantRef,
  type AdminUserProfileBody,
  type AdminUsersPage,
} from '@portal/contracts';
import { api, getJson, useApi, type ApiError } from '@/lib/api';

/**
 * Admin users API (ARCHITECTURE §5 Administration and "Administration at scale"; spec 002 §7, §9): the list's
 * page (kept while the next one loads, not refetched on refocus; a failure is retried once, except an expired
 * session (401), which is not retried), the ids of every matching row, the bulk actions and the CSV export.
 */

/** GET /admin/users?<query> (page, pageSize, search, sort, role, outletId, storeId, status). */
export function useAdminUsersPage(query: string) {
  return useSWR<AdminUsersPage, ApiError>(`/admin/users?${query}`, (p: string) => getJson(p, adminUsersPageSchema), {
    revalidateOnFocus: false,
    keepPreviousData: true,
    onErrorRetry: (err, _key, _config, revalidate, { retryCount }) => {
      if (err.status === 401 || retryCount >= 1) return;
      setTimeout(() => {
        void revalidate({ retryCount });
      }, 1000);
    },
  });
}

/** GET /admin/roles: the role filter's and the grant form's choices (empty when the caller may not read roles). */
export const useRoleChoices = () => useApi('/admin/roles', adminRolesSchema, { revalidateOnFocus: false, shouldRetryOnError: false });

/** GET /admin/users/ids?<filters>: every matching row's id ("select all N matching"). */
export async function fetchUserIds(filters: string) {
  return getJson(`/admin/users/ids?${filters}`, adminUserIdsSchema);
}

/** POST /admin/users/bulk, in chunks of ADMIN_BULK_MAX ids; answers every item's result in order. */
export async function runUserBulk(body: AdminUsersBulkBody): Promise<BulkUserResult[]> {
  const out: BulkUserResult[] = [];
  for (let i = 0; i < body.userIds.length; i += ADMIN_BULK_MAX) {
    out.push(
      ...adminUsersBulkResultSchema.parse(
        await api.post('/admin/users/bulk', { json: { ...body, userIds: body.userIds.slice(i, i + ADMIN_BULK_MAX) } }),
      ).results,
    );
  }
  return out;
}

/** GET /admin/users/export.csv?<filters>, saved as users.csv (the request carries the bearer token). */
export async function downloadUsersCsv(filters: string): Promise<void> {
  const url = URL.createObjectURL(await api.blob(`/admin/users/export.csv?${filters}`, { headers: { Accept: 'text/csv' } }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'users.csv';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** SWR keys of one user's screens, so a save can refresh them. */
export const userKeys = (userId: string) => ({
  detail: `/admin/users/${userId}`,
  // Only the user's own outlets load with the screen; the picker searches the rest (issue 26 §4).
  outlets: `/admin/users/${userId}/manageable-outlets?assigned=true`,
  roles: `/admin/users/${userId}/assignable-roles`,
});

const once = { revalidateOnFocus: false, shouldRetryOnError: false } as const;
export const useAdminUser = (userId: string | null) =>
  useSWR<AdminUserDetail, ApiError>(userId ? userKeys(userId).detail : null, (p: string) => getJson(p, adminUserDetailSchema), once);
export const useManageableOutlets = (userId: string | null) =>
  useSWR(userId ? userKeys(userId).outlets : null, (p: string) => getJson(p, manageableOutletsSchema), once);
export const useAssignableRoles = (userId: string | null) =>
  useSWR(userId ? userKeys(userId).roles : null, (p: string) => getJson(p, assignableRolesSchema), once);

/** PATCH /admin/users/{id}/profile. */
export async function updateUserProfile(userId: string, body: AdminUserProfileBody): Promise<AdminUserDetail> {
  return adminUserDetailSchema.parse(await api.patch(`/admin/users/${userId}/profile`, { json: body }));
}
/** PUT /admin/users/{id}/outlets with only the difference. */
export async function updateUserOutlets(userId: string, add: number[], remove: number[]): Promise<AdminUserDetail> {
  return adminUserDetailSchema.parse(await api.put(`/admin/users/${userId}/outlets`, { json: { add, remove } }));
}
/** Where a role is granted (ARCHITECTURE §11): outlet roles at outlets, store roles at stores, board roles at boards. */
export interface GrantPlaces {
  outletIds?: number[];
  storeIds?: number[];
  boardIds?: number[];
}
/** POST /admin/users/{id}/roles { roleId, outletIds | storeIds | boardIds }. */
export async function addUserRole(userId: string, roleId: number, places: GrantPlaces = {}): Promise<AdminUserDetail> {
  return adminUserDetailSchema.parse(await api.post(`/admin/users/${userId}/roles`, { json: { roleId, ...places } }));
}
/** DELETE /admin/users/{id}/roles/{roleId}?scopeType=&scopeId=: one grant (a role at one place). */
export async function removeUserGrant(userId: string, grant: Pick<GrantRef, 'roleId' | 'scopeType' | 'scopeId'>): Promise<AdminUserDetail> {
  const q = new URLSearchParams({ scopeType: grant.scopeType });
  if (grant.scopeId !== null) q.set('scopeId', String(grant.scopeId));
  return adminUserDetailSchema.parse(await api.delete(`/admin/users/${userId}/roles/${grant.roleId}?${q.toString()}`));
}
/** DELETE /admin/users/{id} (super administrators). */
export async function deleteUser(userId: string): Promise<void> {
  await api.delete(`/admin/users/${userId}`);
}
