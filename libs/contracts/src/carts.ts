import { z } from 'zod';
import { isoDateSchema, moneySchema } from './common';

export const CART_MESSAGES = {
  quantityRange: 'Quantity must be a whole number from 0 to 999',
  deliveryUnavailable: 'Delivery is not available from this store.',
  pastDate: 'The date cannot be in the past',
} as const;

export const currentCartQuerySchema = z.strictObject({
  outletId: z.coerce.number().int().positive(),
  storeId: z.coerce.number().int().positive(),
});
export const addCartItemBodySchema = z.strictObject({ itemCode: z.string().trim().min(1).max(32) });
/** Quantity 0 or less removes the line (spec 001 §4); more than 999 or not whole → 400. */
export const updateCartItemBodySchema = z.strictObject({
  quantity: z.number({ error: CART_MESSAGES.quantityRange }).int(CART_MESSAGES.quantityRange).max(999, CART_MESSAGES.quantityRange),
});
export const FULFILLMENT_TYPES = ['Pickup', 'Delivery'] as const;
export type FulfillmentType = (typeof FULFILLMENT_TYPES)[number];
export const fulfillmentBodySchema = z.strictObject({
  type: z.enum(FULFILLMENT_TYPES),
  date: isoDateSchema.nullable().default(null),
});
export type FulfillmentBody = z.infer<typeof fulfillmentBodySchema>;

export const cartLineSchema = z.object({
  id: z.number().int(),
  itemCode: z.string(),
  name: z.string(),
  category: z.string(),
  quantity: z.number().int(),
  unitPrice: moneySchema,
  lineTotal: moneySchema,
  bottleSizeId: z.number().int().nullable(),
  bottleSize: z.string(),
  volumeMl: z.number().int().nullable(),
});
export type CartLine = z.infer<typeof cartLineSchema>;

export const cartSchema = z.object({
  id: z.number().int(),
  outletId: z.number().int(),
  storeId: z.number().int(),
  items: z.array(cartLineSchema),
  fulfillment: z.object({ type: z.enum(FULFILLMENT_TYPES), date: isoDateSchema.nullable(), deliveryCharge: moneySchema }),
  itemCount: z.number().int(),
  subtotal: moneySchema,
  total: moneySchema,
});
export type Cart = z.infer<typeof cartSchema>;
