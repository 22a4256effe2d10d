import { z } from 'zod';
import { isoDateSchema, moneySchema } from './common';

/**
 * The licensee's ordering week II (ARCHITECTURE §5, issue 28): order schedules and cut-offs, delivery
 * minimums, emergency orders, the store's deliveries, invoice and statement PDFs, claims after delivery.
 */

/** Weekdays as numbers: 0 = Sunday … 6 = Saturday (JavaScript's getDay). */
export const weekdaySchema = z.number().int().min(0).max(6);
/** A local wall-clock time "HH:MM" (24 h). */
export const localTimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use the time format HH:MM (24 hours)');
/** An IANA time zone name the server knows (e.g. America/Chicago). */
export const timeZoneSchema = z
  .string()
  .min(1)
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'Unknown time zone');

/** The schedule defaults every store has until an administrator sets its own (keeps the demo store usable any day). */
export const DEFAULT_STORE_SCHEDULE = {
  orderDays: [0, 1, 2, 3, 4, 5, 6],
  cutoffLocalTime: '14:00',
  timeZone: 'America/Chicago',
  deliveryLeadDays: 1,
  emergencyAllowance: 12,
  emergencyFee: '0.00',
} as const;

/** A money input ≥ 0 with at most 2 decimals, as a string or number; null clears it. */
const amountOrNull = z
  .union([z.string(), z.number()])
  .nullable()
  .transform((v, ctx) => {
    if (v === null || String(v).trim() === '') return null;
    const s = String(v).trim();
    if (!/^\d+(\.\d{1,2})?$/.test(s) || Number(s) > 9_999_999_999.99) {
      ctx.addIssue({ code: 'custom', message: 'Enter an amount of 0 or more with at most 2 decimals' });
      return z.NEVER;
    }
    return Number(s).toFixed(2);
  });

/**
 * The ordering settings a store carries (GET /admin/stores/{id}); PATCH /admin/stores/{id} takes any of them
 * (storeOrderingPatchSchema). Minimums null = none; the emergency fee is added to an emergency order's total.
 */
export const storeOrderingSettingsSchema = z.object({
  orderDays: z.array(weekdaySchema),
  cutoffLocalTime: localTimeSchema,
  timeZone: z.string(),
  deliveryLeadDays: z.number().int(),
  deliveryMinimumMl: z.number().int().nullable(),
  deliveryMinimumAmount: moneySchema.nullable(),
  emergencyAllowance: z.number().int(),
  emergencyFee: moneySchema,
});
export type StoreOrderingSettings = z.infer<typeof storeOrderingSettingsSchema>;

/** The ordering fields PATCH /admin/stores/{id} accepts (each optional; DB CHECKs enforce the same ranges). */
export const storeOrderingPatchSchema = z.object({
  orderDays: z
    .array(weekdaySchema)
    .min(1, 'Choose at least one order day')
    .max(7)
    .refine((d) => new Set(d).size === d.length, 'Each day once')
    .optional(),
  cutoffLocalTime: localTimeSchema.optional(),
  timeZone: timeZoneSchema.optional(),
  deliveryLeadDays: z.number().int().min(0).max(14).optional(),
  deliveryMinimumMl: z.number().int().min(0, 'The minimum cannot be negative').max(10_000_000).nullable().optional(),
  deliveryMinimumAmount: amountOrNull.optional(),
  emergencyAllowance: z.number().int().min(0).max(365).optional(),
  emergencyFee: amountOrNull.optional(),
});
export type StoreOrderingPatch = z.output<typeof storeOrderingPatchSchema>;

/** GET /outlets/{outletId}/stores/{storeId}/schedule: the outlet's ordering calendar at this store. */
export const orderScheduleSchema = z.object({
  outletId: z.number().int(),
  storeId: z.number().int(),
  orderDays: z.array(weekdaySchema),
  cutoffLocalTime: localTimeSchema,
  timeZone: z.string(),
  deliveryLeadDays: z.number().int(),
  /** The next cut-off (an order placed before it is delivered on nextDeliveryDate), ISO instant. */
  nextCutoffAt: z.string(),
  /** The delivery date of a delivery order placed now (store-local calendar date). */
  nextDeliveryDate: isoDateSchema,
  deliveryMinimumMl: z.number().int().nullable(),
  deliveryMinimumAmount: moneySchema.nullable(),
  emergencyAllowance: z.number().int(),
  emergencyOrdersUsed: z.number().int(),
  emergencyOrdersLeft: z.number().int(),
  emergencyFee: moneySchema,
  /** What the cart shows, e.g. "Order by Tue 2 pm for delivery Thu Dec 3". */
  summary: z.string(),
});
export type OrderSchedule = z.infer<typeof orderScheduleSchema>;

/** Why a line is claimed, and how the store settles it. */
export const CLAIM_REASONS = ['damaged', 'wrong_item', 'short', 'leaking'] as const;
export const CLAIM_OUTCOMES = ['credit', 'replace', 'rejected'] as const;
export const CLAIM_STATUSES = ['open', 'resolved'] as const;
export type ClaimReason = (typeof CLAIM_REASONS)[number];
export type ClaimOutcome = (typeof CLAIM_OUTCOMES)[number];
/** Hours after completion within which a claim may be opened. */
export const CLAIM_WINDOW_HOURS = 48;

/** POST /orders/{orderId}/claims. */
export const createClaimBodySchema = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        itemCode: z.string().trim().min(1).max(50),
        quantity: z.number().int().positive('Claim at least one bottle').max(999),
        reason: z.enum(CLAIM_REASONS),
      }),
    )
    .min(1, 'Claim at least one line')
    .max(100),
  note: z.string().trim().max(1000).optional(),
});
export type CreateClaimBody = z.infer<typeof createClaimBodySchema>;

/** POST /claims/{claimId}/resolve: the outcome of every line of the claim, with an optional reason. */
export const resolveClaimBodySchema = z.strictObject({
  outcome: z.enum(CLAIM_OUTCOMES),
  note: z.string().trim().max(1000).optional(),
});
export type ResolveClaimBody = z.infer<typeof resolveClaimBodySchema>;

export const claimLineSchema = z.object({
  id: z.number().int(),
  itemCode: z.string(),
  itemName: z.string().nullable(),
  quantity: z.number().int(),
  reason: z.enum(CLAIM_REASONS),
  outcome: z.enum(CLAIM_OUTCOMES).nullable(),
  /** The credit of the line (unit price × quantity) when credited, else null. */
  creditAmount: moneySchema.nullable(),
});
export const claimSchema = z.object({
  id: z.number().int(),
  claimId: z.number().int(),
  orderId: z.number().int(),
  orderNumber: z.string(),
  status: z.enum(CLAIM_STATUSES),
  note: z.string().nullable(),
  openedBy: z.string().nullable(),
  openedAt: z.string(),
  outcome: z.enum(CLAIM_OUTCOMES).nullable(),
  resolutionNote: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  /** Σ credited lines, "0.00" until credited. */
  creditAmount: moneySchema,
  lines: z.array(claimLineSchema),
});
export type Claim = z.infer<typeof claimSchema>;
export const claimListSchema = z.object({ items: z.array(claimSchema) });

/**
 * PUT /admin/stores/{storeId}/outlets/{outletId}/schedule: an outlet's overrides of the store's schedule (each
 * null or left out = the store's own value).
 */
export const outletScheduleOverrideBodySchema = z.strictObject({
  orderDays: z
    .array(weekdaySchema)
    .min(1, 'Choose at least one order day')
    .max(7)
    .refine((d) => new Set(d).size === d.length, 'Each day once')
    .nullable()
    .optional(),
  cutoffLocalTime: localTimeSchema.nullable().optional(),
  deliveryLeadDays: z.number().int().min(0).max(14).nullable().optional(),
  emergencyAllowance: z.number().int().min(0).max(365).nullable().optional(),
});
export type OutletScheduleOverrideBody = z.infer<typeof outletScheduleOverrideBodySchema>;
export const outletScheduleOverrideSchema = z.object({
  outletId: z.number().int(),
  storeId: z.number().int(),
  orderDays: z.array(weekdaySchema).nullable(),
  cutoffLocalTime: localTimeSchema.nullable(),
  deliveryLeadDays: z.number().int().nullable(),
  emergencyAllowance: z.number().int().nullable(),
});
export type OutletScheduleOverride = z.infer<typeof outletScheduleOverrideSchema>;
