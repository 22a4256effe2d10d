import { paymentReadinessSchema } from '@portal/contracts';
import { useApi } from '@/lib/api';

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
