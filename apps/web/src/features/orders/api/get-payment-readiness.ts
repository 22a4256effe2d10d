import { paymentReadinessSchema } from '@portal/contracts';
import { preloadApi, useApi } from '@/lib/api';

/**
 * GET /stores/{storeId}/payment-readiness (issue 16 §5): whether the store takes card payments now.
 * `storeId` undefined skips the request; a failed check shows nothing (no retry).
 */
export function usePaymentReadiness(storeId: number | undefined) {
  return useApi(storeId ? `/stores/${storeId}/payment-readiness` : null, paymentReadinessSchema, {
    shouldRetryOnError: false,
    revalidateOnFocus: false,
  });
}

/** Starts GET /stores/{storeId}/payment-readiness now; usePaymentReadiness takes the answer (SWR preload). */
export function preloadPaymentReadiness(storeId: number): void {
  preloadApi(`/stores/${storeId}/payment-readiness`, paymentReadinessSchema);
}
