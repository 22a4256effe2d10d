import { z } from 'zod';
import { moneySchema, pageOf } from './common';

/** Catalog query (spec 001 §2 product listing): search by name or item code, size filter, page size 30 (≤ 100). */
export const productsQuerySchema = z.strictObject({
  search: z.string().trim().max(100).optional(),
  size: z.coerce.number().int().positive().optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(30),
});
export type ProductsQuery = z.infer<typeof productsQuerySchema>;

/** A product of a store's inventory. price: dollars as a decimal string; volumeMl null when unknown. */
export const productSchema = z.object({
  code: z.string(),
  name: z.string(),
  category: z.string(),
  price: moneySchema,
  bottleSizeId: z.number().int().nullable(),
  bottleSize: z.string(),
  volumeMl: z.number().int().nullable(),
  bottlesPerCase: z.number().int().nullable(),
  stock: z.number().int().nullable(),
});
export type Product = z.infer<typeof productSchema>;
export const productPageSchema = pageOf(productSchema);
export type ProductPage = z.infer<typeof productPageSchema>;

export const bottleSizeSchema = z.object({ id: z.number().int(), name: z.string(), volumeMl: z.number().int() });
export type BottleSize = z.infer<typeof bottleSizeSchema>;

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
});
export type StoreDetail = z.infer<typeof storeDetailSchema>;
