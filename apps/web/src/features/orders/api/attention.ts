import type { SWRConfiguration } from 'swr';
import { attentionListSchema, checkPaymentResultSchema, type AttentionList, type CheckPaymentResult } from '@portal/contracts';
import { api, preloadApi, useApi, type ApiError } from '@/lib/api';

/** The SWR key (and path) of GET /orders/attention; without a store: every store the caller reaches (all for super administrators). */
export function attentionKey(storeId?: number | null): string {
  return storeId ? `/orders/attention?storeId=${storeId}` : '/orders/attention';
}

/** GET /orders/attention: card orders whose payment is unsettled and cancel_pending orders, oldest first (issue 8 §4). */
export function useAttentionOrders(storeId: number | null | undefined, enabled = true, config?: SWRConfiguration<AttentionList, ApiError>) {
  return useApi(enabled ? attentionKey(storeId) : null, attentionListSchema, config);
}

/** Starts GET /orders/attention for the store now; useAttentionOrders takes the answer (SWR preload). */
export function preloadAttentionOrders(storeId: number): void {
  preloadApi(attentionKey(storeId), attentionListSchema);
}

/** POST /orders/{id}/check-payment ("Check again"): asks the gateway now and settles the order with its answer. */
export async function checkOrderPayment(orderId: number): Promise<CheckPaymentResult> {
  return checkPaymentResultSchema.parse(await api.post(`/orders/${orderId}/check-payment`));
}
