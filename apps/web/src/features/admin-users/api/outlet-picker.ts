import { manageableOutletsPageSchema, type ManageableOutlet } from '@portal/contracts';
import { api } from '@/lib/api';

/** How many matches the Edit User outlet picker shows at once (type to narrow). */
export const OUTLET_PICKER_LIMIT = 20;

/**
 * GET /admin/users/{id}/manageable-outlets?search=&limit=20 (issue 26 §4): the first outlets by name matching
 * `search` (name or code) that the caller manages or the user holds, with canManage and assigned, and the total.
 * Throws ApiError.
 */
export async function searchManageableOutlets(
  userId: string,
  search: string,
  signal?: AbortSignal,
): Promise<{ items: ManageableOutlet[]; total: number }> {
  const q = new URLSearchParams({ limit: String(OUTLET_PICKER_LIMIT) });
  if (search) q.set('search', search);
  return manageableOutletsPageSchema.parse(await api.get(`/admin/users/${userId}/manageable-outlets?${q.toString()}`, { signal }));
}
