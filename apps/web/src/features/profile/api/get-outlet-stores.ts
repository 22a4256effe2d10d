import { outletStoresSchema } from '@portal/contracts';
import { useApi } from '@/lib/api';

/** GET /outlets/{outletId}/stores: the outlet's active stores (SWR). */
export function useOutletStores(outletId: number) {
  return useApi(`/outlets/${outletId}/stores`, outletStoresSchema);
}
