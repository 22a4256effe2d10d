import { z } from 'zod';
import { moneySchema, pageOf } from './common';
import { SPLIT_CASE_POLICIES, quantityRuleSchema } from './quantity-rule';

/** Limits of the catalog listing (spec 001 §9: page size 30; ARCHITECTURE §5: at most 100). */
export const CATALOG_LIMITS = { defaultPageSize: 30, maxPageSize: 100, maxSearchLength: 100 } as const;

/** An empty query value (`?search=` or `?size=`) counts as absent. */
const blankAsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/**
 * GET /stores/{storeId}/products query (spec 001 §2 product listing): `search` matches name or item code
 * (case-insensitive, ranked), `size` is a bottle size id, `page` 1-based, `pageSize` default 30, at most 100.
 */
export const productsQuerySchema = z.strictObject({
  search: z.preprocess(
    blankAsAbsent,
    z.string().trim().max(CATALOG_LIMITS.maxSearchLength, `search must be at most ${CATALOG_LIMITS.maxSearchLength} characters`).optional(),
  ),
  size: z.preprocess(
    blankAsAbsent,
    z.coerce
      .number({ error: 'size must be a bottle size id' })
      .int('size must be a bottle size id')
      .positive('size must be a bottle size id')
      .optional(),
  ),
  page: z.coerce
    .number({ error: 'page must be a whole number from 1' })
    .int('page must be a whole number from 1')
    .min(1, 'page must be a whole number from 1')
    .max(100_000, 'page is too large')
    .default(1),
  pageSize: z.coerce
    .number({ error: `pageSize must be a whole number from 1 to ${CATALOG_LIMITS.maxPageSize}` })
    .int(`pageSize must be a whole number from 1 to ${CATALOG_LIMITS.maxPageSize}`)
    .min(1, `pageSize must be a whole number from 1 to ${CATALOG_LIMITS.maxPageSize}`)
    .max(CATALOG_LIMITS.maxPageSize, `pageSize must be a whole number from 1 to ${CATALOG_LIMITS.maxPageSize}`)
    .default(CATALOG_LIMITS.defaultPageSize),
});
export type ProductsQuery = z.infer<typeof productsQuerySchema>;

/**
 * A product of a store's inventory (ARCHITECTURE §5). price: dollars as a decimal string; category
 * 'Uncategorized' when absent; bottleSize 'Unknown Size' when absent; volumeMl null when unknown;
 * stock null when the warehouse has not reported it; bottlesPerCase 1 when unknown; quantityRule the rule the
 * cart enforces at this store (issue 27).
 */
export const productSchema = z.object({
  code: z.string(),
  name: z.string(),
  category: z.string(),
  price: moneySchema,
  bottleSizeId: z.number().int().nullable(),
  bottleSize: z.string(),
  volumeMl: z.number().int().nullable(),
  bottlesPerCase: z.number().int().min(1),
  stock: z.number().int().nullable(),
  quantityRule: quantityRuleSchema,
});
export type Product = z.infer<typeof productSchema>;
export const productPageSchema = pageOf(productSchema);
export type ProductPage = z.infer<typeof productPageSchema>;

/** A bottle size a store carries; volumeMl 0 for 'Unknown Size'. */
export const bottleSizeSchema = z.object({ id: z.number().int(), name: z.string(), volumeMl: z.number().int() });
export type BottleSize = z.infer<typeof bottleSizeSchema>;
export const bottleSizeListSchema = z.object({ items: z.array(bottleSizeSchema) });
export type BottleSizeList = z.infer<typeof bottleSizeListSchema>;

/** Store details with delivery settings (spec 001 §3 warehouse/store). */
export const storeDetailSchema = z.object({
  id: z.number().int(),
  warehouseId: z.number().int(),
  name: z.string(),
  warehouseCode: z.string(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zipCode: z.string().nullable(),
  phone: z.string().nullable(),
  boardNumber: z.number().int(),
  boardName: z.string().nullable(),
  active: z.boolean(),
  deliveryEnabled: z.boolean(),
  deliveryCharge: moneySchema,
  /** Split cases (issue 27): the policy and the fee per bottle of an incomplete case under `split_fee`. */
  splitCasePolicy: z.enum(SPLIT_CASE_POLICIES),
  splitCaseFee: moneySchema,
});
export type StoreDetail = z.infer<typeof storeDetailSchema>;
