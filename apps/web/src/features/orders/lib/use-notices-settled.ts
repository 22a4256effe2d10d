import { PERMISSIONS } from '@portal/contracts';
import { useSession } from '@/lib/session';
import { useAttentionOrders } from '../api/attention';
import { usePaymentReadiness } from '../api/get-payment-readiness';

/**
 * Have the notices above Store Orders' list answered — the store's payment warning and Needs attention (the same
 * SWR keys they read, so nothing is fetched twice)? Until they have, the page shows its list skeleton in their
 * place: a notice that arrives later would push the search, the tabs and the orders down (issue 26: layout
 * shift as data arrives). `enabled` false (no store manager, or the selection still loading): settled.
 */
export function useNoticesSettled(storeId: number | undefined, enabled: boolean): boolean {
  const { hasPermission } = useSession();
  const superAdmin = hasPermission(PERMISSIONS.usersSuperAdmin);
  const readiness = usePaymentReadiness(enabled ? storeId : undefined);
  const attention = useAttentionOrders(superAdmin ? null : storeId, enabled);
  if (!enabled) return true;
  return !(storeId !== undefined && readiness.isLoading) && !attention.isLoading;
}
