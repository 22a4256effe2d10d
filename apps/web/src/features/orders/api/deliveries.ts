import { deliveryListSchema } from '@portal/contracts';
import { preloadApi, useApi } from '@/lib/api';

/**
 * GET /stores/{storeId}/deliveries?date= (issue 28 §1): the orders to deliver on a day (null: tomorrow in the
 * store's time zone, the server's default), refreshed every minute; null storeId skips.
 */
export function useStoreDeliveries(storeId: number | null | undefined, date: string | null = null) {
  return useApi(storeId ? `/stores/${storeId}/deliveries${date ? `?date=${date}` : ''}` : null, deliveryListSchema, {
    refreshInterval: 60_000,
  });
}

/** Starts GET /stores/{storeId}/deliveries (tomorrow) now; useStoreDeliveries takes the answer (SWR preload). */
export function preloadStoreDeliveries(storeId: number): void {
  preloadApi(`/stores/${storeId}/deliveries`, deliveryListSchema);
}
