import { z } from 'zod';
import type { CreateClaimBody } from '@portal/contracts';
import { CLAIM_OUTCOMES, CLAIM_REASON_LABELS, type ClaimReason } from '../../api/claims';

const REASONS = Object.keys(CLAIM_REASON_LABELS) as [ClaimReason, ...ClaimReason[]];

/** Validation texts of the claim forms (issue 28 §4). */
export const CLAIM_FORM_MESSAGES = {
  noLine: 'Pick at least one line to report.',
  quantity: (max: number) => `Enter a whole number from 1 to ${max}.`,
  reason: 'Choose a reason.',
  noteTooLong: 'Keep the note under 1000 characters.',
  rejectReason: 'Give the reason for rejecting the claim.',
} as const;

/** Longest note a claim or a resolution carries. */
export const NOTE_MAX = 1000;

/**
 * The "Report a problem" form: one row per order line (picked or not, quantity up to the ordered bottles,
 * reason) and a note. Picked rows need a whole quantity from 1 to `ordered` and a reason; at least one row.
 */
export const claimFormSchema = z
  .object({
    lines: z.array(
      z.object({
        itemCode: z.string(),
        ordered: z.number().int(),
        picked: z.boolean(),
        quantity: z.string(),
        reason: z.union([z.enum(REASONS), z.literal('')]),
      }),
    ),
    note: z.string().max(NOTE_MAX, CLAIM_FORM_MESSAGES.noteTooLong),
  })
  .superRefine((v, ctx) => {
    if (!v.lines.some((l) => l.picked)) ctx.addIssue({ code: 'custom', path: ['lines', 'root'], message: CLAIM_FORM_MESSAGES.noLine });
    v.lines.forEach((l, i) => {
      if (!l.picked) return;
      const q = Number(l.quantity);
      if (!/^\d+$/.test(l.quantity.trim()) || q < 1 || q > l.ordered)
        ctx.addIssue({ code: 'custom', path: ['lines', i, 'quantity'], message: CLAIM_FORM_MESSAGES.quantity(l.ordered) });
      if (!l.reason) ctx.addIssue({ code: 'custom', path: ['lines', i, 'reason'], message: CLAIM_FORM_MESSAGES.reason });
    });
  });
export type ClaimFormValues = z.infer<typeof claimFormSchema>;

/** The form's starting values for an order's lines (nothing picked, quantity 1). */
export function claimFormDefaults(items: readonly { itemCode: string; quantity: number }[]): ClaimFormValues {
  return { lines: items.map((i) => ({ itemCode: i.itemCode, ordered: i.quantity, picked: false, quantity: '1', reason: '' })), note: '' };
}

/** The POST /orders/{id}/claims body from valid form values: picked lines only, the note when written. */
export function toClaimBody(v: ClaimFormValues): CreateClaimBody {
  const note = v.note.trim();
  return {
    lines: v.lines
      .filter((l) => l.picked && l.reason)
      .map((l) => ({ itemCode: l.itemCode, quantity: Number(l.quantity), reason: l.reason as ClaimReason })),
    ...(note ? { note } : {}),
  };
}

/** The store's resolution: an outcome and a note, required when the claim is rejected. */
export const resolveFormSchema = z
  .object({ outcome: z.enum(CLAIM_OUTCOMES), note: z.string().max(NOTE_MAX, CLAIM_FORM_MESSAGES.noteTooLong) })
  .superRefine((v, ctx) => {
    if (v.outcome === 'rejected' && !v.note.trim())
      ctx.addIssue({ code: 'custom', path: ['note'], message: CLAIM_FORM_MESSAGES.rejectReason });
  });
export type ResolveFormValues = z.infer<typeof resolveFormSchema>;
