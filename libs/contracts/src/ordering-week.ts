import { z } from 'zod';
import { cartSchema } from './carts';
import { moneySchema } from './common';
import { SPLIT_CASE_POLICIES, quantityRuleSchema, quantityInputSchema as qty } from './quantity-rule';

/**
 * The licensee's ordering week (ARCHITECTURE §5, issue 27): case packs and quantity rules, order guides
 * with par levels, quick order by item code, suggested orders. Quantities are bottles (whole numbers).
 */

/** Limits: guide names, lines per guide and per quick-order paste, weeks of history for a suggestion. */
export const ORDERING_LIMITS = {
  maxGuideName: 100,
  maxGuideLines: 500,
  maxQuickOrderLines: 1000,
  maxQuantity: 999,
  minWeeks: 1,
  maxWeeks: 52,
  defaultWeeks: 8,
} as const;

/** The store settings of split cases (PATCH /admin/stores/{storeId}; GET returns them). */
export const splitCaseSettingsSchema = z.object({
  splitCasePolicy: z.enum(SPLIT_CASE_POLICIES),
  /** Dollars per bottle of an incomplete case, charged under `split_fee`. */
  splitCaseFee: moneySchema,
});

/** Texts the API answers with. */
export const ORDERING_MESSAGES = {
  guideNotFound: 'Order guide not found',
  guideNameTaken: 'This outlet already has an order guide with this name.',
  duplicateCode: 'An item code may appear only once in a guide',
  storeNotLinked: 'This store does not serve the outlet',
} as const;

/** The 422 `quantity_rule` problem's extension members: the rule broken, the nearest valid quantity and the line. */
export const quantityRuleProblemSchema = z.object({
  code: z.literal('quantity_rule'),
  detail: z.string(),
  itemCode: z.string(),
  quantity: z.number().int(),
  nearestValid: z.number().int().nullable(),
  rule: quantityRuleSchema,
});

// ---------------------------------------------------------------------------------------------------------
// Order guides
// ---------------------------------------------------------------------------------------------------------

const guideName = z
  .string()
  .trim()
  .min(1, 'Give the guide a name')
  .max(ORDERING_LIMITS.maxGuideName, `A guide name has at most ${ORDERING_LIMITS.maxGuideName} characters`);
const itemCode = z.string().trim().min(1, 'Enter an item code').max(32, 'An item code has at most 32 characters');

/** A line of a guide as written: the code and its par (bottles the outlet wants on its shelf). Order = position. */
export const orderGuideLineInputSchema = z.strictObject({ itemCode, parQuantity: qty('parQuantity') });
const guideLines = z
  .array(orderGuideLineInputSchema)
  .max(ORDERING_LIMITS.maxGuideLines, `A guide has at most ${ORDERING_LIMITS.maxGuideLines} lines`)
  .refine((ls) => new Set(ls.map((l) => l.itemCode)).size === ls.length, ORDERING_MESSAGES.duplicateCode);

/** POST /outlets/{outletId}/order-guides */
export const createOrderGuideBodySchema = z.strictObject({
  name: guideName,
  storeId: z.number().int().positive(),
  lines: guideLines.default([]),
});
export type CreateOrderGuideBody = z.input<typeof createOrderGuideBodySchema>;
export type CreateOrderGuide = z.output<typeof createOrderGuideBodySchema>;

/** PATCH /order-guides/{guideId}: a new name and/or the whole line list (its order is the new position order). */
export const updateOrderGuideBodySchema = z
  .strictObject({ name: guideName.optional(), lines: guideLines.optional() })
  .refine((b) => b.name !== undefined || b.lines !== undefined, 'Send a name or lines');
export type UpdateOrderGuideBody = z.input<typeof updateOrderGuideBodySchema>;
export type UpdateOrderGuide = z.output<typeof updateOrderGuideBodySchema>;

/**
 * A guide line as read: with the item's name, whether the guide's store still carries it (active item in the
 * store's inventory), its store on-hand (`stock`, null when unreported), bottles per case and quantity rule.
 */
export const orderGuideLineSchema = z.object({
  itemCode: z.string(),
  parQuantity: z.number().int(),
  position: z.number().int(),
  name: z.string().nullable(),
  carried: z.boolean(),
  stock: z.number().int().nullable(),
  bottlesPerCase: z.number().int(),
  quantityRule: quantityRuleSchema,
});
export type OrderGuideLine = z.infer<typeof orderGuideLineSchema>;

/** A guide (GET /order-guides/{guideId}, POST and PATCH answers). `guideId` = `id`. */
export const orderGuideSchema = z
  .object({
    id: z.number().int(),
    guideId: z.number().int(),
    outletId: z.number().int(),
    storeId: z.number().int(),
    storeName: z.string(),
    name: z.string(),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    lines: z.array(orderGuideLineSchema),
  })
  .meta({ id: 'OrderGuide' });
export type OrderGuide = z.infer<typeof orderGuideSchema>;

/** GET /outlets/{outletId}/order-guides: the outlet's guides (every store), by name. */
export const orderGuideSummarySchema = z.object({
  id: z.number().int(),
  guideId: z.number().int(),
  outletId: z.number().int(),
  storeId: z.number().int(),
  storeName: z.string(),
  name: z.string(),
  lineCount: z.number().int(),
  updatedAt: z.string(),
});
export type OrderGuideSummary = z.infer<typeof orderGuideSummarySchema>;
export const orderGuideListSchema = z.object({ items: z.array(orderGuideSummarySchema) });
export type OrderGuideList = z.infer<typeof orderGuideListSchema>;

/** GET /outlets/{outletId}/order-guides?storeId= (optional store filter). */
export const orderGuideListQuerySchema = z.strictObject({ storeId: z.coerce.number().int().positive().optional() });

/**
 * POST /order-guides/{guideId}/to-cart: what is on the shelf per code (a code left out, or null, counts 0).
 * The cart gets par − on hand, rounded UP to the item's rule.
 */
export const guideToCartBodySchema = z.strictObject({
  onHand: z
    .array(
      z.strictObject({
        itemCode,
        onHand: z.number().int('onHand must be a whole number').min(0, 'onHand cannot be negative').max(99_999).nullable(),
      }),
    )
    .max(ORDERING_LIMITS.maxGuideLines)
    .optional(),
});
export type GuideToCartBody = z.infer<typeof guideToCartBodySchema>;

/** Why a guide line put nothing in the cart. */
export const GUIDE_SKIP_REASONS = ['not_carried', 'inactive', 'nothing_needed'] as const;
export type GuideSkipReason = (typeof GUIDE_SKIP_REASONS)[number];

/** The answer of to-cart: lines added (their new cart quantity), lines skipped with the reason, and the cart. */
export const guideToCartResultSchema = z.object({
  cartId: z.number().int(),
  added: z.array(z.object({ itemCode: z.string(), name: z.string(), needed: z.number().int(), quantity: z.number().int() })),
  skipped: z.array(z.object({ itemCode: z.string(), name: z.string().nullable(), reason: z.enum(GUIDE_SKIP_REASONS) })),
  cart: cartSchema,
});
export type GuideToCartResult = z.infer<typeof guideToCartResultSchema>;

// ---------------------------------------------------------------------------------------------------------
// Quick order
// ---------------------------------------------------------------------------------------------------------

/** POST /carts/{cartId}/lines/bulk (JSON); CSV bodies have the columns `Item Number,Quantity`. Checked per row. */
export const quickOrderBodySchema = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        itemCode: z.union([z.string().max(64), z.number()]),
        quantity: z.union([z.number(), z.string().max(16)]),
      }),
    )
    .min(1, 'Send at least one line')
    .max(ORDERING_LIMITS.maxQuickOrderLines, `At most ${ORDERING_LIMITS.maxQuickOrderLines} lines at once`),
});
export type QuickOrderBody = z.input<typeof quickOrderBodySchema>;

/** Per-row refusal codes of a quick order. */
export const QUICK_ORDER_ROW_CODES = ['unknown_code', 'not_carried', 'inactive', 'quantity_rule', 'invalid_quantity'] as const;
export type QuickOrderRowCode = (typeof QUICK_ORDER_ROW_CODES)[number];

/**
 * One row's result: `row` from 1 (JSON index + 1; the CSV line number for CSV bodies, the header being line 1).
 * ok rows carry the quantity added (`quantity`); refused rows a `code` and `message` (and for `quantity_rule`
 * the `nearestValid` quantity and the `rule`).
 */
export const quickOrderRowResultSchema = z.object({
  row: z.number().int(),
  itemCode: z.string(),
  ok: z.boolean(),
  quantity: z.number().int().optional(),
  name: z.string().optional(),
  code: z.enum(QUICK_ORDER_ROW_CODES).optional(),
  message: z.string().optional(),
  nearestValid: z.number().int().nullable().optional(),
  rule: quantityRuleSchema.optional(),
});
export type QuickOrderRowResult = z.infer<typeof quickOrderRowResultSchema>;
export const quickOrderResultSchema = z.object({
  results: z.array(quickOrderRowResultSchema),
  /** Lines written (valid rows; one transaction). */
  addedCount: z.number().int(),
  cart: cartSchema,
});
export type QuickOrderResult = z.infer<typeof quickOrderResultSchema>;

// ---------------------------------------------------------------------------------------------------------
// Suggested order
// ---------------------------------------------------------------------------------------------------------

/** GET /outlets/{outletId}/stores/{storeId}/suggested-order?weeks=8 (1–52). */
export const suggestedOrderQuerySchema = z.strictObject({
  weeks: z.coerce
    .number({ error: 'weeks must be a whole number from 1 to 52' })
    .int('weeks must be a whole number from 1 to 52')
    .min(ORDERING_LIMITS.minWeeks, 'weeks must be a whole number from 1 to 52')
    .max(ORDERING_LIMITS.maxWeeks, 'weeks must be a whole number from 1 to 52')
    .default(ORDERING_LIMITS.defaultWeeks),
});
export type SuggestedOrderQuery = z.infer<typeof suggestedOrderQuerySchema>;

/**
 * A suggested line: `weeklyAverage` bottles a week (2 decimals), `suggested` = the average × 1 week of cover,
 * rounded UP to the item's quantity rule; `basis` says where the average comes from ("≈ 6 a week over 8 weeks",
 * "store average ≈ 6 a week (2022)").
 */
export const suggestedLineSchema = z.object({
  itemCode: z.string(),
  name: z.string(),
  suggested: z.number().int(),
  basis: z.string(),
  weeklyAverage: z.number(),
  stock: z.number().int().nullable(),
  bottlesPerCase: z.number().int(),
  quantityRule: quantityRuleSchema,
});
export type SuggestedLine = z.infer<typeof suggestedLineSchema>;
export const SUGGESTION_SOURCES = ['own_history', 'store_history', 'none'] as const;
export const suggestedOrderSchema = z.object({
  outletId: z.number().int(),
  storeId: z.number().int(),
  weeks: z.number().int(),
  source: z.enum(SUGGESTION_SOURCES),
  lines: z.array(suggestedLineSchema),
});
export type SuggestedOrder = z.infer<typeof suggestedOrderSchema>;
