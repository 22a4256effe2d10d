import { requestableOutletsSchema } from '@portal/contracts';
import { useApi } from '@/lib/api';

/** GET /me/requestable-outlets: active outlets not yet assigned to the user; fetched only when `enabled`. */
export function useRequestableOutlets(enabled: boolean) {
  return useApi(enabled ? '/me/requestable-outlets' : null, requestableOutletsSchema);
}
