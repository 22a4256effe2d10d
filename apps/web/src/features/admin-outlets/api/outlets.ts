import type { z } from 'zod';
import { adminBoardListSchema, adminOutletPageSchema, createOutletBodySchema } from '@portal/contracts';
import { api, useApi } from '@/lib/api';

/** Admin outlets API (spec 002 §2, §5): the paged, searchable list, the board choices, create and update. */

/** GET /admin/outlets?page=&pageSize=20&search=; keeps the previous page while the next one loads. */
export function useAdminOutlets(query: string) {
  return useApi(`/admin/outlets?${query}`, adminOutletPageSchema, { keepPreviousData: true });
}

/** GET /admin/boards: the board choices of the outlet form. */
export const useOutletBoardOptions = () => useApi('/admin/boards', adminBoardListSchema);

/** The outlet form's body, as parsed by createOutletBodySchema. */
export type OutletFormBody = z.output<typeof createOutletBodySchema>;

/** POST /admin/outlets (no `outletId`) or PATCH /admin/outlets/{id}. Throws ApiError (`outlet_code_taken`…). */
export async function saveOutlet(outletId: number | null, body: OutletFormBody): Promise<void> {
  if (outletId) await api.patch(`/admin/outlets/${outletId}`, { json: body });
  else await api.post('/admin/outlets', { json: body });
}
