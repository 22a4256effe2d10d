import { z } from 'zod';
import { quantityRuleInputSchema } from './quantity-rule';

/** Warehouse integrations (ARCHITECTURE §10): API keys and webhook endpoints as the admin area manages them. */

/** Scopes an API key may hold. */
export const API_KEY_SCOPES = ['inventory:write', 'catalog:write', 'stores:write', 'orders:read', 'orders:write'] as const;
/** Event types of the order feed and webhooks. */
export const ORDER_EVENT_TYPES = ['order.created', 'order.ready', 'order.completed', 'order.cancelled'] as const;

const scopeFields = {
  storeId: z.coerce.number().int().positive().nullish(),
  boardId: z.coerce.number().int().positive().nullish(),
};

/** POST /admin/api-keys: a name, a store or a board, and at least one scope. */
export const createApiKeyBodySchema = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(100),
  ...scopeFields,
  scopes: z.array(z.enum(API_KEY_SCOPES)).min(1, 'Choose at least one scope'),
  /** May make synthetic test events (POST /integrations/test-events) in production too. */
  sandbox: z.boolean().optional(),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

/** An API key as listed: prefix and last use, never the key. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  storeId: z.number().nullable(),
  boardId: z.number().nullable(),
  scopes: z.array(z.string()),
  sandbox: z.boolean(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;
export const apiKeyListSchema = z.object({ items: z.array(apiKeySchema) });
/** The 201 answer: the whole key, shown once. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });

/** POST /admin/webhooks: an http(s) URL, a store or a board, the event types. */
export const createWebhookBodySchema = z.object({
  url: z.string().trim().url('Enter a valid URL').max(2000),
  ...scopeFields,
  events: z.array(z.enum(ORDER_EVENT_TYPES)).min(1, 'Choose at least one event'),
});
export type CreateWebhookBody = z.infer<typeof createWebhookBodySchema>;
/** PATCH /admin/webhooks/{id}: at least one of url, events, active (an empty body changes nothing: 400). */
export const updateWebhookBodySchema = z
  .object({
    url: z.string().trim().url('Enter a valid URL').max(2000).optional(),
    events: z.array(z.enum(ORDER_EVENT_TYPES)).min(1).optional(),
    active: z.boolean().optional(),
  })
  .refine((b) => b.url !== undefined || b.events !== undefined || b.active !== undefined, {
    message: 'Send at least one of url, events or active',
  });
export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  storeId: z.number().nullable(),
  boardId: z.number().nullable(),
  events: z.array(z.string()),
  active: z.boolean(),
  createdAt: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;
export const webhookListSchema = z.object({ items: z.array(webhookSchema) });
/** The 201 answer: the signing secret, shown once. */
export const createdWebhookSchema = webhookSchema.extend({ secret: z.string() });
export const webhookDeliverySchema = z.object({
  id: z.string(),
  seq: z.number(),
  type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastDurationMs: z.number().int().nullable(),
  /** Why the last attempt failed: `HTTP <status> <text>: <start of the receiver's body>`, or the network error; null once delivered. */
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryListSchema = z.object({ items: z.array(webhookDeliverySchema) });

/**
 * One row of PUT /integrations/stores/{warehouseId}/inventory (JSON; CSV columns `Item Number,On Hand[,Price]`):
 * the board's item code, bottles on hand (null: unknown), an optional price (informational, checked only).
 * The server validates every row itself and answers 422 rows_invalid with each refused row.
 */
export const inventoryRowSchema = z.object({
  itemCode: z.string().min(1).meta({ example: '38176' }),
  onHand: z.number().int().min(0).max(2_000_000_000).nullable(),
  price: z.union([z.string(), z.number()]).optional().meta({ description: 'A non-negative amount with up to 2 decimals' }),
});
/** One row of PUT /integrations/items (JSON; CSV columns of db:import's products.csv or these names). */
export const itemRowSchema = z.object({
  itemCode: z.union([z.string(), z.number()]).meta({ example: '38176' }),
  name: z.string().min(1).max(300),
  retail: z.union([z.string(), z.number()]).meta({ description: 'Bottle retail price, up to 2 decimals (a leading $ is allowed)' }),
  category: z.string().max(100).optional(),
  bottlesPerCase: z.union([z.number().int().positive(), z.string()]).optional(),
  active: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  /** The item's quantity rule (issue 27; JSON rows): null removes it, left out keeps it. */
  quantityRule: quantityRuleInputSchema.nullable().optional(),
});
/** The answer of a bulk upsert: what changed (or would, with dryRun). */
export const upsertResultSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  removed: z.number().int(),
  dryRun: z.boolean(),
  errors: z.array(z.unknown()),
});

/** POST /integrations/test-events: the store of a board key (a store key's own store is taken when left out). */
export const testEventBodySchema = z.strictObject({ storeId: z.number().int().positive().optional() });
/** The synthetic event as it was put on the feed and sent to the webhooks. */
export const testEventSchema = z.object({
  seq: z.number().int(),
  type: z.literal('order.created'),
  test: z.literal(true),
  order: z.unknown(),
});
