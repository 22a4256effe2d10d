import { z } from 'zod';
import { isoDateSchema, moneySchema } from './common';
import { FULFILLMENT_TYPES } from './carts';

/** Card rules of spec 002 §5, messages verbatim. */
export const CARD_MESSAGES = {
  holderRequired: 'Card holder name is required',
  number: 'Invalid card number',
  expiration: 'Invalid expiration date (use MM/YY format)',
  zip: 'ZIP code must be 5 digits',
  securityCode: 'Invalid security code',
} as const;

export const CHECKOUT_MESSAGES = {
  noSession: 'No checkout session found',
  invalidToken: 'Invalid checkout token',
  expired: 'Checkout session expired',
  userMismatch: 'User mismatch in checkout session',
  cartEmpty: 'Please add items to your cart before checking out.',
  inStoreDelivery: 'Pay in-store is not available for Delivery orders. Please pay by card.',
} as const;

/** Is MM/YY a real month not in the past (relative to `now`)? */
export function isExpirationValid(exp: string, now: Date = new Date()): boolean {
  const m = /^(0[1-9]|1[0-2])\/(\d{2})$/.exec(exp);
  if (!m) return false;
  const month = Number(m[1]);
  const year = 2000 + Number(m[2]);
  return year > now.getFullYear() || (year === now.getFullYear() && month >= now.getMonth() + 1);
}

export const cardSchema = z.strictObject({
  cardName: z.string().trim().min(1, CARD_MESSAGES.holderRequired).max(50, CARD_MESSAGES.holderRequired),
  cardNumber: z.string().transform((s) => s.replace(/\s+/g, '')).pipe(z.string().regex(/^\d{13,19}$/, CARD_MESSAGES.number)),
  expiration: z.string().trim().refine((e) => isExpirationValid(e), CARD_MESSAGES.expiration),
  securityCode: z.string().trim().regex(/^\d{3,4}$/, CARD_MESSAGES.securityCode),
  zipCode: z.string().trim().regex(/^\d{5}$/, CARD_MESSAGES.zip),
});
export type CardInput = z.input<typeof cardSchema>;

export const createCheckoutSessionBodySchema = z.strictObject({ cartId: z.number().int().positive() });
export const checkoutSessionSchema = z.object({
  token: z.string(),
  expiresAt: z.string(),
  total: moneySchema,
  cartId: z.number().int(),
  fulfillmentType: z.enum(FULFILLMENT_TYPES),
  fulfillmentDate: isoDateSchema.nullable(),
  testMode: z.boolean(),
});
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

export const PAYMENT_METHODS = ['card', 'in_store'] as const;
export const createOrderBodySchema = z.discriminatedUnion('paymentMethod', [
  z.strictObject({ checkoutToken: z.string().regex(/^[0-9a-f]{64}$/, CHECKOUT_MESSAGES.invalidToken), paymentMethod: z.literal('card'), card: cardSchema }),
  z.strictObject({ checkoutToken: z.string().regex(/^[0-9a-f]{64}$/, CHECKOUT_MESSAGES.invalidToken), paymentMethod: z.literal('in_store') }),
]);
export type CreateOrderBody = z.input<typeof createOrderBodySchema>;

export const ORDER_STATUSES = ['reserved', 'ready', 'completed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const PAYMENT_STATUSES = ['not_required', 'pending', 'paid', 'failed', 'error'] as const;

export const orderLineSchema = z.object({
  id: z.number().int(),
  itemCode: z.string(),
  itemName: z.string(),
  bottleSizeId: z.number().int().nullable(),
  bottleSizeText: z.string().nullable(),
  quantity: z.number().int(),
  unitPrice: moneySchema,
  totalPrice: moneySchema,
});
export const orderSchema = z.object({
  id: z.number().int(),
  orderNumber: z.string(),
  status: z.enum(ORDER_STATUSES),
  paymentMethod: z.enum(PAYMENT_METHODS),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  orderDate: z.string(),
  storeId: z.number().int(),
  storeName: z.string(),
  outletId: z.number().int(),
  outletName: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  customerPhone: z.string().nullable(),
  fulfillmentType: z.enum(FULFILLMENT_TYPES),
  fulfillmentDate: isoDateSchema.nullable(),
  deliveryCharge: moneySchema,
  subtotal: moneySchema,
  total: moneySchema,
  notes: z.string().nullable(),
  itemCount: z.number().int(),
  items: z.array(orderLineSchema),
});
export type Order = z.infer<typeof orderSchema>;

export const listOrdersQuerySchema = z.strictObject({
  storeId: z.coerce.number().int().positive().optional(),
  status: z.enum(ORDER_STATUSES).optional(),
  search: z.string().trim().max(100).optional(),
});
