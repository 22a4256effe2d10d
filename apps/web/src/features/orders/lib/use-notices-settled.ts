import { PERMISSIONS } from '@portal/contracts';
import { useSession } from '@/lib/session';
import { useAttentionOrders } from '../api/attention';
import { usePaymentReadiness } from '../api/get-payment-readiness';
import { useStoreDeliveries } from '../api/deliveries';

/**
 * Have the notices above Store Orders' list answered — the store's payment warning, Needs attention and Tomorrow's
 * deliveries (the same SWR keys they read, so nothing is fetched twice)? Until they have, the page shows its list
 * skeleton in their place: a notice that arrives later would push the search, the tabs and the orders down (issue 26:
 * layout shift as data arrives). While the selection is loading a store manager's page is not settled either: the
 * store it brings decides which notices show. Not a store manager (`enabled` false): settled.
 */
export function useNoticesSettled(storeId: number | undefined, enabled: boolean, selecting: boolean): boolean {
  const { hasPermission } = useSession();
  const superAdmin = hasPermission(PERMISSIONS.usersSuperAdmin);
  const active = enabled && !selecting;
  const readiness = usePaymentReadiness(active ? storeId : undefined);
  const attention = useAttentionOrders(superAdmin ? null : storeId, active);
  const deliveries = useStoreDeliveries(active ? storeId : undefined);
  if (!enabled) return true;
  if (selecting) return false;
  return !(storeId !== undefined && (readiness.isLoading || deliveries.isLoading)) && !attention.isLoading;
}
