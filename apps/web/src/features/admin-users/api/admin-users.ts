import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import {
  ADMIN_USERS_PAGE_SIZE,
  adminUserDetailSchema,
  adminUsersListSchema,
  assignableRolesSchema,
  manageableOutletsSchema,
  type AdminUserDetail,
  type GrantRef,
  type AdminUserProfileBody,
  type AdminUsersList,
} from '@portal/contracts';
import { api, getJson, type ApiError } from '@/lib/api';
import { cursorPages } from '@/lib/cursor-pages';

/**
 * Admin users API (ARCHITECTURE §5 Administration; spec 002 §7, §9): the list stays cached (shown at once when
 * the tab is opened again, then revalidated, so a saved edit is there) and is not refetched on refocus; a
 * failure is retried once, except an expired session (401), which is not retried.
 */

const listKey =
  (search: string) =>
  (index: number, previous: AdminUsersList | null): string | null => {
    if (previous && !previous.nextCursor) return null;
    const q = new URLSearchParams({ limit: String(ADMIN_USERS_PAGE_SIZE) });
    if (search.trim()) q.set('search', search.trim());
    if (index > 0 && previous?.nextCursor) q.set('cursor', previous.nextCursor);
    return `/admin/users?${q.toString()}`;
  };

/** GET /admin/users, 50 a page: `loadMore()` fetches the next 50 (spec 002 §2 Load More). */
export function useAdminUsers(search: string) {
  const swr = useSWRInfinite<AdminUsersList, ApiError>(listKey(search), (p: string) => getJson(p, adminUsersListSchema), {
    revalidateOnFocus: false,
    onErrorRetry: (err, _key, _config, revalidate, { retryCount }) => {
      if (err.status === 401 || retryCount >= 1) return;
      setTimeout(() => {
        void revalidate({ retryCount });
      }, 1000);
    },
  });
  const { pages, items, ...state } = cursorPages(swr);
  return { users: items, meta: pages[0]?.meta, ...state };
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
  return adminUserDetailSchema.parse((await api.patch(`/admin/users/${userId}/profile`, body)).data);
}
/** PUT /admin/users/{id}/outlets with only the difference. */
export async function updateUserOutlets(userId: string, add: number[], remove: number[]): Promise<AdminUserDetail> {
  return adminUserDetailSchema.parse((await api.put(`/admin/users/${userId}/outlets`, { add, remove })).data);
}
/** Where a role is granted (ARCHITECTURE §11): outlet roles at outlets, store roles at stores, board roles at boards. */
export interface GrantPlaces {
  outletIds?: number[];
  storeIds?: number[];
  boardIds?: number[];
}
/** POST /admin/users/{id}/roles { roleId, outletIds | storeIds | boardIds }. */
export async function addUserRole(userId: string, roleId: number, places: GrantPlaces = {}): Promise<AdminUserDetail> {
  return adminUserDetailSchema.parse((await api.post(`/admin/users/${userId}/roles`, { roleId, ...places })).data);
}
/** DELETE /admin/users/{id}/roles/{roleId}?scopeType=&scopeId=: one grant (a role at one place). */
export async function removeUserGrant(userId: string, grant: Pick<GrantRef, 'roleId' | 'scopeType' | 'scopeId'>): Promise<AdminUserDetail> {
  const q = new URLSearchParams({ scopeType: grant.scopeType });
  if (grant.scopeId !== null) q.set('scopeId', String(grant.scopeId));
  return adminUserDetailSchema.parse((await api.delete(`/admin/users/${userId}/roles/${grant.roleId}?${q.toString()}`)).data);
}
/** DELETE /admin/users/{id} (super administrators). */
export async function deleteUser(userId: string): Promise<void> {
  await api.delete(`/admin/users/${userId}`);
}
