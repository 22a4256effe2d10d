import { z } from 'zod';
import { FULFILLMENT_TYPES, isoDateSchema, moneySchema } from './common';

/** Card rules of spec 002 §5, messages verbatim. */
export const CARD_MESSAGES = {
  holderRequired: 'Card holder name is required',
  number: 'Invalid card number',
  expiration: 'Invalid expiration date (use MM/YY format)',
  zip: 'ZIP code must be 5 digits',
  securityCode: 'Invalid security code',
} as const;

/** Checkout, payment and order texts (spec 001 §8, spec 002 §4 and §8), verbatim where the spec gives them. */
export const CHECKOUT_MESSAGES = {
  noSession: 'No checkout session found',
  invalidToken: 'Invalid checkout token',
  expired: 'Checkout session expired',
  userMismatch: 'User mismatch in checkout session',
  cartEmpty: 'Please add items to your cart before checking out.',
  inStoreDelivery: 'Pay in-store is not available for Delivery orders. Please pay by card.',
  sessionUsed: 'This checkout session has already been used. Please restart the checkout process.',
  paymentInProgress: 'A payment for this checkout is already being processed.',
  cartChanged: 'Your cart changed since checkout started. Please restart the checkout process.',
  itemsUnavailable: 'Some items in your cart are no longer available. Please review your cart.',
  paymentError: 'The payment could not be processed. Please restart the checkout process and try again.',
  paymentProcessedOrderFailing: 'Payment processed but order creation failing. Please contact support.',
  idempotencyInProgress: 'A request with this Idempotency-Key is still being processed.',
  idempotencyMismatch: 'This Idempotency-Key was already used for a different request.',
  /** A card order of this cart awaits the gateway's outcome: the cart is locked until it settles. */
  paymentBeingConfirmed:
    'Payment being confirmed. Your card payment for this cart is still being confirmed; see My Orders before trying again.',
} as const;

export const ORDER_MESSAGES = {
  notFound: 'Order not found',
  notReserved: 'Only new (reserved) orders can be marked ready.',
  awaitingPayment: 'This order has not been paid yet.',
  markedReady: 'The order status has been updated to ready for pickup.',
  noItemsToReorder: 'No items to reorder',
  /** '{n} item(s) from this order have been added to your cart.' with n filled in. */
  reorderAdded: (n: number) => `${n} item(s) from this order have been added to your cart.`,
} as const;

/** Checkout session lifetime (spec 001 §9). */
export const CHECKOUT_SESSION_MINUTES = 30;

/** Is MM/YY a real month not in the past (relative to `now`)? */
export function isExpirationValid(exp: string, now: Date = new Date()): boolean {
  const m = /^(0[1-9]|1[0-2])\/(\d{2})$/.exec(exp);
  if (!m) return false;
  const month = Number(m[1]);
  const year = 2000 + Number(m[2]);
  return year > now.getFullYear() || (year === now.getFullYear() && month >= now.getMonth() + 1);
}

/** Card form of the payment page (spec 002 §5). cardNumber: spaces are removed before the 13–19 digit check. */
export const cardSchema = z.strictObject({
  cardName: z.string(CARD_MESSAGES.holderRequired).trim().min(1, CARD_MESSAGES.holderRequired).max(50, CARD_MESSAGES.holderRequired),
  cardNumber: z
    .string(CARD_MESSAGES.number)
    .transform((s) => s.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{13,19}$/, CARD_MESSAGES.number)),
  expiration: z
    .string(CARD_MESSAGES.expiration)
    .trim()
    .refine((e) => isExpirationValid(e), CARD_MESSAGES.expiration),
  securityCode: z
    .string(CARD_MESSAGES.securityCode)
    .trim()
    .regex(/^\d{3,4}$/, CARD_MESSAGES.securityCode),
  zipCode: z
    .string(CARD_MESSAGES.zip)
    .trim()
    .regex(/^\d{5}$/, CARD_MESSAGES.zip),
});
export type CardInput = z.input<typeof cardSchema>;
export type Card = z.output<typeof cardSchema>;

/** A checkout token: 32 random bytes as 64 lower-case hex characters. */
export const checkoutTokenSchema = z.string().regex(/^[0-9a-f]{64}$/, CHECKOUT_MESSAGES.invalidToken);

export const createCheckoutSessionBodySchema = z.strictObject({
  cartId: z.number().int().positive(),
  /** An emergency order (issue 28): skips the order calendar, uses one of the outlet's yearly allowance, adds the store's fee. */
  emergency: z.boolean().optional(),
});
export type CreateCheckoutSessionBody = z.infer<typeof createCheckoutSessionBodySchema>;

/**
 * A server-side checkout session (ARCHITECTURE §9). `token` is only returned by POST (the server keeps a
 * hash); GET echoes the token it was asked with. total = subtotal + deliveryCharge (Delivery only), in
 * dollars as decimal strings, computed on the server. testMode: the payment page shows 'TEST MODE'.
 */
export const checkoutSessionSchema = z.object({
  token: z.string(),
  expiresAt: z.string(),
  total: moneySchema,
  subtotal: moneySchema,
  deliveryCharge: moneySchema,
  /** Split-case fees (issue 27), part of total; "0.00" unless the store charges for incomplete cases. */
  splitCaseFee: moneySchema.optional(),
  cartId: z.number().int(),
  storeId: z.number().int(),
  outletId: z.number().int(),
  itemCount: z.number().int(),
  fulfillmentType: z.enum(FULFILLMENT_TYPES),
  fulfillmentDate: isoDateSchema.nullable(),
  testMode: z.boolean(),
  /** Whether the store takes card payments now; false: only Pay In-Store (the SETUP message shows). */
  cardPaymentsAvailable: z.boolean().optional(),
  /** Issue 28: an emergency order's session, and the fee included in `total`. */
  emergency: z.boolean().optional(),
  emergencyFee: moneySchema.optional(),
});
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

export const PAYMENT_METHODS = ['card', 'in_store'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** POST /orders body; send an `Idempotency-Key` header (1–255 visible characters) to make retries safe. */
export const createOrderBodySchema = z.discriminatedUnion('paymentMethod', [
  z.strictObject({ checkoutToken: checkoutTokenSchema, paymentMethod: z.literal('card'), card: cardSchema }),
  z.strictObject({ checkoutToken: checkoutTokenSchema, paymentMethod: z.literal('in_store') }),
]);
export type CreateOrderBody = z.input<typeof createOrderBodySchema>;
export const idempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{1,255}$/, 'Idempotency-Key must be 1-255 visible ASCII characters');

export const ORDER_STATUSES = ['reserved', 'ready', 'completed', 'cancelled', 'cancel_pending'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/**
 * not_required: pay in-store; pending: a card charge awaits its outcome; paid; failed / error: not charged;
 * refund_pending: the store cancelled and the refund is on its way to the gateway (or its answer is being
 * confirmed); refunded: the whole charge was returned (ARCHITECTURE §6, §10).
 */
export const PAYMENT_STATUSES = ['not_required', 'pending', 'paid', 'failed', 'error', 'refund_pending', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** An order line: a snapshot of name, size and price at order time. */
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
export type OrderLine = z.infer<typeof orderLineSchema>;

/**
 * An order as lists and screens show it (spec 001 §3 order view model). subtotal = total − deliveryCharge.
 * itemCount: number of lines; unitCount: bottles (Σ quantity). storeId is the order's store (warehouse).
 */
export const orderSchema = z.object({
  id: z.number().int(),
  orderNumber: z.string(),
  status: z.enum(ORDER_STATUSES),
  paymentMethod: z.enum(PAYMENT_METHODS),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  orderDate: z.string(),
  readyAt: z.string().nullable(),
  /** Why the store cancelled the order; null otherwise. */
  cancelReason: z.string().nullable().optional(),
  /** Dollars returned to the card ("25.01") once the refund is approved (paymentStatus refunded); null otherwise. */
  refundedAmount: moneySchema.nullable().optional(),
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
  /** Split-case fees charged (issue 27), part of total. */
  splitCaseFee: moneySchema.optional(),
  total: moneySchema,
  notes: z.string().nullable(),
  itemCount: z.number().int(),
  unitCount: z.number().int(),
  items: z.array(orderLineSchema),
});
export type Order = z.infer<typeof orderSchema>;

const addressBlock = {
  name: z.string(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zipCode: z.string().nullable(),
  phone: z.string().nullable(),
};
/**
 * One money movement of an order (a `payments` row): the card charge, or its refund. reference: the
 * merchant reference sent to the gateway (the order number for the charge, `<order number>-refund` for
 * the refund, the same on every attempt so the gateway never pays twice); gatewayReference: the gateway's
 * own transaction id once it answered; status pending (sent, outcome not known yet), approved, declined or
 * error; attemptedAt: when it was last sent.
 */
export const orderPaymentSchema = z.object({
  kind: z.enum(['charge', 'refund']),
  amount: moneySchema,
  status: z.enum(['pending', 'approved', 'declined', 'error']),
  reference: z.string().nullable(),
  gatewayReference: z.string().nullable(),
  gateway: z.string(),
  message: z.string().nullable(),
  attemptedAt: z.string(),
});
export type OrderPayment = z.infer<typeof orderPaymentSchema>;

/**
 * GET /orders/{id} and the POST /orders answer: the order plus the store's details, the delivery block
 * (the outlet's address, Delivery orders only), the card used (brand and last 4 only) and every charge and
 * refund of it (`payments`, oldest first; empty for pay in-store).
 */
export const orderDetailSchema = orderSchema.extend({
  store: z.object({ id: z.number().int(), ...addressBlock }),
  delivery: z.object(addressBlock).nullable(),
  payment: z.object({ cardBrand: z.string().nullable(), cardLast4: z.string().nullable() }).nullable(),
  payments: z.array(orderPaymentSchema).optional(),
  /** Issue 28: present (true) on an emergency order only, with its fee (included in `total`). */
  emergency: z.literal(true).optional(),
  emergencyFee: moneySchema.optional(),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

/**
 * GET /orders query. storeId narrows to one store; status filters; search matches order number,
 * customer name or email (case-insensitive). limit caps the list (newest first).
 */
export const listOrdersQuerySchema = z.strictObject({
  storeId: z.coerce.number().int().positive().optional(),
  status: z.enum(ORDER_STATUSES).optional(),
  search: z.string().trim().max(100).optional(),
  /** true: only the caller's own orders, even for store managers (My Orders). */
  mine: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});
export type ListOrdersQuery = z.infer<typeof listOrdersQuerySchema>;

/**
 * Whose orders the list holds (spec 001 §2 subtitle): 'store' = every order of the stores one reaches
 * (bcc.orders.store.manage), 'outlet' = the outlet-manager label (bcc.orders.outlet.manage; still one's
 * own orders), 'own' = one's own orders.
 */
export const ORDER_SCOPES = ['store', 'outlet', 'own'] as const;
export const orderListSchema = z.object({
  items: z.array(orderSchema),
  scope: z.enum(ORDER_SCOPES),
  /** Orders per status in the scope and store filter (before status and search): the tab counts. */
  counts: z.object({
    reserved: z.number().int(),
    ready: z.number().int(),
    completed: z.number().int(),
    cancelled: z.number().int(),
    all: z.number().int(),
  }),
});
export type OrderList = z.infer<typeof orderListSchema>;

/**
 * POST /orders/{id}/reorder body: the outlet × store whose cart the person is looking at.
 * Both or neither; without them the order's own outlet × store cart is filled.
 */
export const reorderBodySchema = z
  .strictObject({
    outletId: z.number().int().positive().optional(),
    storeId: z.number().int().positive().optional(),
  })
  .refine((b) => (b.outletId === undefined) === (b.storeId === undefined), {
    message: 'Send both outletId and storeId, or neither',
    path: ['storeId'],
  });
export type ReorderBody = z.infer<typeof reorderBodySchema>;

/** POST /orders/{id}/reorder answer: lines added to the caller's active cart (which outlet × store), and those skipped. */
export const reorderResultSchema = z.object({
  cartId: z.number().int(),
  outletId: z.number().int(),
  storeId: z.number().int(),
  added: z.number().int(),
  skipped: z.array(z.object({ itemCode: z.string(), itemName: z.string(), reason: z.string() })),
  message: z.string(),
});
export type ReorderResult = z.infer<typeof reorderResultSchema>;

/**
 * Why an order needs an operator: `payment_unconfirmed` = a card order whose gateway
 * outcome is not known yet (payment_status pending); `cancel_pending` = a cancellation whose refund failed.
 */
export const ATTENTION_REASONS = ['payment_unconfirmed', 'cancel_pending'] as const;
export type AttentionReason = (typeof ATTENTION_REASONS)[number];

/**
 * An order in Store Orders' "Needs attention" view: who, how much, since when, and what the gateway
 * knows it by. merchantReference = the order number sent with the charge (what lookups use);
 * gatewayReference = the gateway's own transaction id when it answered.
 */
export const attentionOrderSchema = z.object({
  id: z.number().int(),
  orderNumber: z.string(),
  reason: z.enum(ATTENTION_REASONS),
  status: z.string(),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  orderDate: z.string(),
  storeId: z.number().int(),
  storeName: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  total: moneySchema,
  gateway: z.string().nullable(),
  merchantReference: z.string(),
  gatewayReference: z.string().nullable(),
  cardLast4: z.string().nullable(),
  lastCheckedAt: z.string().nullable(),
});
export type AttentionOrder = z.infer<typeof attentionOrderSchema>;

/** GET /orders/attention?storeId=: the orders needing an operator, oldest first. */
export const attentionListQuerySchema = z.strictObject({ storeId: z.coerce.number().int().positive().optional() });
export const attentionListSchema = z.object({ items: z.array(attentionOrderSchema) });
export type AttentionList = z.infer<typeof attentionListSchema>;

/**
 * POST /orders/{id}/check-payment ("Check again"): the gateway was asked now. outcome: paid (finalised),
 * failed (declined or unknown to the gateway: the cart is unlocked), error, or still pending (the gateway
 * could not be reached, or the charge is too recent to call unknown).
 */
export const checkPaymentResultSchema = z.object({
  orderId: z.number().int(),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  outcome: z.enum(['paid', 'failed', 'error', 'pending']),
  message: z.string(),
});
export type CheckPaymentResult = z.infer<typeof checkPaymentResultSchema>;

/** POST /orders/{id}/cancel body: why the store cancels, shown to the buyer. */
export const cancelOrderBodySchema = z.object({ reason: z.string().trim().min(1, 'Enter a reason').max(500) });
export type CancelOrderBody = z.infer<typeof cancelOrderBodySchema>;

/**
 * /outlets/{outletId}/statements/{yyyy-mm}.pdf: the month, YYYY-MM (issue 28). With the order schemas, which My Orders
 * loads anyway, not with the ordering schedule's (apps/web/vite.config.ts: each screen builds only its own schemas).
 */
export const statementMonthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Use the month format YYYY-MM');

/**
 * GET /stores/{storeId}/deliveries?date=YYYY-MM-DD (default: tomorrow in the store's time zone; issue 28): the day's
 * delivery orders of a store. Here with the orders (Store Orders reads it on load), not with the ordering schedule.
 */
export const deliveriesQuerySchema = z.object({ date: isoDateSchema.optional() });
export const deliverySchema = z.object({
  orderId: z.number().int(),
  orderNumber: z.string(),
  status: z.string(),
  outletId: z.number().int(),
  outletName: z.string(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  customerName: z.string(),
  customerPhone: z.string().nullable(),
  itemCount: z.number().int(),
  total: moneySchema,
  emergency: z.boolean(),
});
export const deliveryListSchema = z.object({ storeId: z.number().int(), date: isoDateSchema, items: z.array(deliverySchema) });
export type DeliveryList = z.infer<typeof deliveryListSchema>;
