import { outletRequestBodySchema, type OutletRequestBody } from '@portal/contracts';
import { api } from '@/lib/api';

/** POST /me/outlet-requests { outletId }: asks the administrators for access to an outlet. */
export async function requestOutlet(body: OutletRequestBody): Promise<void> {
  await api.post('/me/outlet-requests', { json: outletRequestBodySchema.parse(body) });
}
