import useSWR from 'swr';
import { adminPermissionsSchema, adminRoleSchema, adminRolesSchema, type AdminRole } from '@portal/contracts';
import { api, getJson, type ApiError } from '@/lib/api';

/** GET /admin/roles (roles with permission codes); SWR key `/admin/roles`. */
export const useRoles = () =>
  useSWR('/admin/roles', (p: string) => getJson(p, adminRolesSchema), { revalidateOnFocus: false, shouldRetryOnError: false });
/** GET /admin/permissions (every code with its description). */
export const usePermissions = () =>
  useSWR('/admin/permissions', (p: string) => getJson(p, adminPermissionsSchema), { revalidateOnFocus: false, shouldRetryOnError: false });
export type { ApiError };

/** PUT (grant) or DELETE (revoke) /admin/roles/{roleId}/permissions/{code}; answers the role. */
export async function setRolePermission(roleId: number, code: string, granted: boolean): Promise<AdminRole> {
  const path = `/admin/roles/${roleId}/permissions/${encodeURIComponent(code)}`;
  const res = granted ? await api.put(path) : await api.delete(path);
  return adminRoleSchema.parse(res);
}
