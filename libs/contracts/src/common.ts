import { z } from 'zod';

/** Wraps an item schema into `{ items, page, pageSize, total }`. */
export const pageOf = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ items: z.array(item), page: z.number().int(), pageSize: z.number().int(), total: z.number().int() });

/** Money in dollars as a decimal string with 2 decimals, e.g. "23.87" (never a float). */
export const moneySchema = z.string().regex(/^-?\d+\.\d{2}$/);

/**
 * How an order reaches the outlet (carts and orders). Here, not in carts.ts, so the order schemas do not import the
 * cart's: the web bundle builds each screen's schemas only (apps/web/vite.config.ts, issue 26).
 */
export const FULFILLMENT_TYPES = ['Pickup', 'Delivery'] as const;
export type FulfillmentType = (typeof FULFILLMENT_TYPES)[number];

/** ISO calendar date YYYY-MM-DD. */
export const isoDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the date format YYYY-MM-DD');

export const healthSchema = z.object({ status: z.string() });
export const readinessSchema = z.object({ status: z.string(), database: z.string(), migrations: z.string() });

/** Positive integer id from a path parameter. */
export const intIdSchema = z.coerce.number().int().positive();
