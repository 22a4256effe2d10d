import { z } from 'zod';
import { api, useApi } from '@/lib/api';

/** Why a line is claimed (issue 28 §4). */
export const CLAIM_REASONS = ['damaged', 'leaking', 'wrong_item', 'short'] as const;
export type ClaimReason = (typeof CLAIM_REASONS)[number];
export const CLAIM_REASON_LABELS: Record<ClaimReason, string> = {
  damaged: 'Damaged',
  leaking: 'Leaking',
  wrong_item: 'Wrong item',
  short: 'Short (missing)',
};
/** How the store settles a claim. */
export const CLAIM_OUTCOMES = ['credit', 'replace', 'rejected'] as const;
export type ClaimOutcome = (typeof CLAIM_OUTCOMES)[number];
export const CLAIM_OUTCOME_LABELS: Record<ClaimOutcome, string> = { credit: 'Credit', replace: 'Replace', rejected: 'Rejected' };

const claimLineSchema = z.object({
  itemCode: z.string(),
  itemName: z.string().nullable().optional(),
  quantity: z.number().int(),
  reason: z.string(),
  outcome: z.string().nullable().optional(),
  creditAmount: z.string().nullable().optional(),
});

/**
 * A claim on an order (issue 28 §4; GET /orders/{id}/claims): its lines, the buyer's note, open or resolved, and
 * the store's outcome and reason. Read leniently (id or claimId; outcome on the claim or per line).
 */
export const claimSchema = z
  .object({
    id: z.number().int().optional(),
    claimId: z.number().int().optional(),
    status: z.string(),
    note: z.string().nullable().optional(),
    lines: z.array(claimLineSchema),
    outcome: z.string().nullable().optional(),
    resolutionNote: z.string().nullable().optional(),
    creditAmount: z.string().nullable().optional(),
    createdAt: z.string().nullable().optional(),
    openedAt: z.string().nullable().optional(),
    resolvedAt: z.string().nullable().optional(),
  })
  .transform((c) => ({ ...c, id: c.id ?? c.claimId ?? 0, openedAt: c.openedAt ?? c.createdAt ?? null }));
export type Claim = z.output<typeof claimSchema>;

/** The list answer: { items } (or a bare array). */
export const claimListSchema = z.union([z.array(claimSchema), z.object({ items: z.array(claimSchema) }).transform((l) => l.items)]);

/** GET /orders/{id}/claims; null skips. */
export const useOrderClaims = (orderId: number | null) => useApi(orderId ? `/orders/${orderId}/claims` : null, claimListSchema);

/** POST /orders/{id}/claims body (issue 28 §4). */
export interface OpenClaimBody {
  lines: { itemCode: string; quantity: number; reason: ClaimReason }[];
  note?: string;
}

/** POST /orders/{id}/claims → 201 the claim. Throws ApiError (422 over-quantity, 409 after the 48 h window). */
export async function openClaim(orderId: number, body: OpenClaimBody): Promise<Claim> {
  return claimSchema.parse((await api.post(`/orders/${orderId}/claims`, body)).data);
}

/** POST /claims/{id}/resolve { outcome, note? } (store staff). Throws ApiError. */
export async function resolveClaim(claimId: number, body: { outcome: ClaimOutcome; note?: string }): Promise<void> {
  await api.post(`/claims/${claimId}/resolve`, body);
}
