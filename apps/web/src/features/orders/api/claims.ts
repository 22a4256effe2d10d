import {
  CLAIM_OUTCOMES,
  CLAIM_REASONS,
  claimListSchema,
  claimSchema,
  type Claim,
  type ClaimOutcome,
  type ClaimReason,
  type CreateClaimBody,
  type ResolveClaimBody,
} from '@portal/contracts';
import { api, useApi } from '@/lib/api';

export { CLAIM_OUTCOMES, CLAIM_REASONS, claimListSchema, claimSchema };
export type { Claim, ClaimOutcome, ClaimReason };

/** The reasons in the order the form offers them, with their labels (issue 28 §4). */
export const CLAIM_REASON_LABELS: Record<ClaimReason, string> = {
  damaged: 'Damaged',
  leaking: 'Leaking',
  wrong_item: 'Wrong item',
  short: 'Short (missing)',
};
export const CLAIM_OUTCOME_LABELS: Record<ClaimOutcome, string> = { credit: 'Credit', replace: 'Replace', rejected: 'Rejected' };

/** GET /orders/{id}/claims (oldest first); null skips. */
export const useOrderClaims = (orderId: number | null) => useApi(orderId ? `/orders/${orderId}/claims` : null, claimListSchema);

/** POST /orders/{id}/claims → 201 the claim. Throws ApiError (422 claim_quantity_exceeded, 409 claim_window_closed …). */
export async function openClaim(orderId: number, body: CreateClaimBody): Promise<Claim> {
  return claimSchema.parse(await api.post(`/orders/${orderId}/claims`, { json: body }));
}

/** POST /claims/{id}/resolve { outcome, note? } (store staff of the order's store). Throws ApiError. */
export async function resolveClaim(claimId: number, body: ResolveClaimBody): Promise<void> {
  await api.post(`/claims/${claimId}/resolve`, { json: body });
}
