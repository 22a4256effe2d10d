import { z } from 'zod';
import { FULFILLMENT_TYPES, isoDateSchema, moneySchema } from './common';
import { SPLIT_CASE_POLICIES, quantityRuleSchema } from './quantity-rule';

/** Limits of a cart line (spec 001 §5 and §9): quantity 1–999, at most 3 digits. */
export const CART_LIMITS = { maxQuantity: 999 } as const;

/** Texts the API answers with (and the web may show); the delivery text is the spec's verbatim. */
export const CART_MESSAGES = {
  quantityRange: 'Quantity must be a whole number from 0 to 999',
  quantityLimit: 'You can order at most 999 of one item.',
  deliveryUnavailable: 'Delivery is not available from this store.',
  pastDate: 'The date cannot be in the past',
  invalidDate: 'Use a real calendar date in the format YYYY-MM-DD',
  itemUnavailable: 'This item is not available from this store.',
  cartNotFound: 'Cart not found',
  lineNotFound: 'This item is not in the cart',
} as const;

/** GET /carts/current?outletId=&storeId= */
export const currentCartQuerySchema = z.strictObject({
  outletId: z.coerce.number().int().positive(),
  storeId: z.coerce.number().int().positive(),
});
export type CurrentCartQuery = z.infer<typeof currentCartQuerySchema>;

/** POST /carts/{cartId}/items: adds 1 of the code (a new code enters with quantity 1 at the current price). */
export const addCartItemBodySchema = z.strictObject({ itemCode: z.string().trim().min(1).max(32) });
export type AddCartItemBody = z.infer<typeof addCartItemBodySchema>;

/** PATCH /carts/{cartId}/items/{itemId}: quantity 0 or less removes the line (spec 001 §4); more than 999 or not whole → 400. */
export const updateCartItemBodySchema = z.strictObject({
  quantity: z
    .number({ error: CART_MESSAGES.quantityRange })
    .int(CART_MESSAGES.quantityRange)
    .max(CART_LIMITS.maxQuantity, CART_MESSAGES.quantityRange),
});
export type UpdateCartItemBody = z.infer<typeof updateCartItemBodySchema>;

/** A real calendar date YYYY-MM-DD (2026-02-30 is refused). */
export const calendarDateSchema = isoDateSchema.refine((s) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}, CART_MESSAGES.invalidDate);

/** PUT /carts/{cartId}/fulfillment: Pickup or Delivery, optional date not before today (checked by the server). */
export const fulfillmentBodySchema = z.strictObject({
  type: z.enum(FULFILLMENT_TYPES),
  date: calendarDateSchema.nullable().default(null),
});
export type FulfillmentBody = z.infer<typeof fulfillmentBodySchema>;

/**
 * One cart line: `id` is the line id (cart_items.id) used in PATCH/DELETE; money as decimal strings.
 * unitPrice is the item's price now (what checkout charges); `available` is false when the item is inactive
 * or no longer in the store's inventory (checkout then refuses until the line is removed).
 */
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
  /** Always sent by the API; optional in the type so older fixtures stay valid (absent = available). */
  available: z.boolean().optional(),
  /** The store's on-hand (null when unreported), bottles per case and the quantity rule at this store (issue 27); always sent. */
  stock: z.number().int().nullable().optional(),
  bottlesPerCase: z.number().int().optional(),
  quantityRule: quantityRuleSchema.optional(),
  /** The split-case fee of this line (bottles of an incomplete case × the store's fee; "0.00" unless split_fee). */
  splitCaseFee: moneySchema.optional(),
});
export type CartLine = z.infer<typeof cartLineSchema>;

/**
 * The active cart of a user × outlet × store. `itemCount` = number of lines (products);
 * `totalQuantity` = sum of quantities; `total` = subtotal + split-case fee + delivery charge (the store's charge, only for
 * Delivery). Priced as checkout prices it, so the cart page shows what will be charged.
 */
export const cartSchema = z.object({
  id: z.number().int(),
  outletId: z.number().int(),
  storeId: z.number().int(),
  outlet: z.object({ name: z.string(), code: z.string() }),
  store: z.object({
    name: z.string(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    deliveryEnabled: z.boolean(),
    deliveryCharge: moneySchema,
    splitCasePolicy: z.enum(SPLIT_CASE_POLICIES).optional(),
    splitCaseFee: moneySchema.optional(),
  }),
  items: z.array(cartLineSchema),
  fulfillment: z.object({ type: z.enum(FULFILLMENT_TYPES), date: isoDateSchema.nullable(), deliveryCharge: moneySchema }),
  itemCount: z.number().int(),
  totalQuantity: z.number().int(),
  subtotal: moneySchema,
  /** The split-case fees of all lines (issue 27; always sent, "0.00" unless the store's policy is split_fee). */
  splitCaseFee: moneySchema.optional(),
  total: moneySchema,
});
export type Cart = z.infer<typeof cartSchema>;
