import { z } from 'zod';

/**
 * Shapes of the ordering-week API (ARCHITECTURE §5 "The licensee's ordering week"), as the web reads them.
 * Lenient on purpose (extra keys pass, optional extras): the server's contract lives in libs/contracts.
 */
export const quantityRuleSchema = z.object({
  min: z.number().int(),
  max: z.number().int().nullable(),
  increment: z.number().int(),
});

/** A guide line: item code and par (bottles wanted on the shelf), with what the server knows of the item. */
export const guideLineSchema = z
  .object({
    itemCode: z.string(),
    parQuantity: z.number().int(),
    name: z.string().nullish(),
    bottlesPerCase: z.number().int().nullish(),
    quantityRule: quantityRuleSchema.nullish(),
    stock: z.number().int().nullish(),
    carried: z.boolean().nullish(),
  })
  .passthrough();
export type GuideLine = z.infer<typeof guideLineSchema>;

export const orderGuideSchema = z
  .object({
    id: z.number().int().optional(),
    guideId: z.number().int().optional(),
    name: z.string(),
    storeId: z.number().int(),
    outletId: z.number().int().optional(),
    lines: z.array(guideLineSchema).default([]),
    updatedAt: z.string().nullish(),
  })
  .passthrough()
  .transform((g) => ({ ...g, id: (g.id ?? g.guideId) as number }));
export type OrderGuide = z.infer<typeof orderGuideSchema>;

export const orderGuideListSchema = z
  .union([z.object({ items: z.array(orderGuideSchema) }).passthrough(), z.array(orderGuideSchema)])
  .transform((v) => (Array.isArray(v) ? v : v.items));

/** The body of POST /outlets/{outletId}/order-guides and PATCH /order-guides/{guideId}. */
export interface GuideBody {
  name: string;
  storeId: number;
  lines: { itemCode: string; parQuantity: number }[];
}

/** POST /order-guides/{guideId}/to-cart answer: what went in, what was skipped and why. */
export const toCartResultSchema = z
  .object({
    added: z.array(z.object({ itemCode: z.string(), quantity: z.number().int(), name: z.string().nullish() }).passthrough()).default([]),
    skipped: z
      .array(
        z.object({ itemCode: z.string(), reason: z.string(), name: z.string().nullish(), message: z.string().nullish() }).passthrough(),
      )
      .default([]),
  })
  .passthrough();
export type ToCartResult = z.infer<typeof toCartResultSchema>;

/** One row's result of POST /carts/{cartId}/lines/bulk (row counts from 1). */
export const bulkResultSchema = z
  .object({
    row: z.number().int(),
    itemCode: z.string(),
    ok: z.boolean(),
    quantity: z.number().int().nullish(),
    code: z.string().nullish(),
    message: z.string().nullish(),
    nearestValid: z.number().int().nullish(),
  })
  .passthrough();
export type BulkResult = z.infer<typeof bulkResultSchema>;
export const bulkResultsSchema = z.object({ results: z.array(bulkResultSchema) }).passthrough();

/** A suggested line: what to order and why ("≈ 6 a week over 8 weeks"). */
export const suggestedLineSchema = z
  .object({
    itemCode: z.string(),
    name: z.string(),
    suggested: z.number(),
    basis: z.string(),
    weeklyAverage: z.number().nullish(),
  })
  .passthrough();
export type SuggestedLine = z.infer<typeof suggestedLineSchema>;
export const suggestedOrderSchema = z.object({ lines: z.array(suggestedLineSchema) }).passthrough();
