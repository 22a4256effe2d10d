import { z } from 'zod';

/**
 * A store's split-case policy (issue 27): `any` (any quantity), `full_cases` (whole cases only: the effective
 * increment becomes the item's bottles per case), `split_fee` (any quantity; each bottle of an incomplete case
 * costs the store's `splitCaseFee` more).
 */
export const SPLIT_CASE_POLICIES = ['any', 'full_cases', 'split_fee'] as const;
export type SplitCasePolicy = (typeof SPLIT_CASE_POLICIES)[number];

/**
 * The quantity rule of an item at a store (what the cart, checkout and POST /orders enforce): a valid
 * quantity q has min ≤ q ≤ (max ?? 999) and q a multiple of `increment`. Always present on products
 * (defaults { min: 1, max: null, increment: 1 }); at a `full_cases` store the increment is the least common
 * multiple of the item's own increment and its bottles per case.
 */
export const quantityRuleSchema = z
  .object({
    min: z.number().int().min(1),
    /** null = no maximum beyond the cart's 999. */
    max: z.number().int().min(1).nullable(),
    increment: z.number().int().min(1),
  })
  .meta({ id: 'QuantityRule' });
export type QuantityRule = z.infer<typeof quantityRuleSchema>;

/** A whole number of bottles 1–999 whose messages name the field `what`. */
export const quantityInputSchema = (what: string) =>
  z
    .number({ error: `${what} must be a whole number from 1 to 999` })
    .int(`${what} must be a whole number from 1 to 999`)
    .min(1, `${what} must be a whole number from 1 to 999`)
    .max(999, `${what} must be a whole number from 1 to 999`);

/** An item's quantity rule as an administrator or an integration sets it (PATCH /admin/items/{itemId}, PUT /integrations/items). */
export const quantityRuleInputSchema = z
  .strictObject({
    min: quantityInputSchema('min').default(1),
    max: quantityInputSchema('max').nullable().default(null),
    increment: quantityInputSchema('increment').default(1),
  })
  .refine((r) => r.max === null || r.max >= r.min, { message: 'max must be at least min', path: ['max'] });
export type QuantityRuleInput = z.input<typeof quantityRuleInputSchema>;
