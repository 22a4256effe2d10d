import { z } from 'zod';
import {
  apiKeyListSchema,
  createApiKeyBodySchema,
  createWebhookBodySchema,
  createdApiKeySchema,
  createdWebhookSchema,
  idempotencyKeySchema,
  inventoryRowSchema,
  itemRowSchema,
  orderDetailSchema,
  testEventBodySchema,
  testEventSchema,
  upsertResultSchema,
  updateWebhookBodySchema,
  webhookDeliveryListSchema,
  webhookListSchema,
  webhookSchema,
} from '@portal/contracts';
import { readBulkRows } from '../../http/bulk-body';
import { route } from '../../http/route';
import type { AppContext } from '../../context';
import type { ApiKeyPrincipal } from '../../http/api-key-auth';
import { withApiKeyIdempotency } from '../idempotency/idempotency.service';
import * as svc from './integrations.service';
import { emitTestEvent } from './test-events.service';
import * as hooks from '../webhooks/webhooks.service';

const adminPermissions = svc.INTEGRATION_ADMIN_CODES;
const uuidParams = z.object({ id: z.uuid() });
/** OpenAPI request bodies of the bulk upserts: a JSON array of rows, or CSV with a header line. */
const bulkBody = (rows: z.ZodType, csvColumns: string, example: string) => ({
  description: `A JSON array of rows, or text/csv with the columns ${csvColumns} (at most 50,000 rows).`,
  content: {
    'application/json': { schema: z.array(rows).max(50_000) },
    'text/csv': { schema: z.string().meta({ description: `CSV with a header line: ${csvColumns}` }), example },
  },
});
const idemHeaders = z.object({ 'idempotency-key': idempotencyKeySchema.optional() });
/** The query of a bulk upsert: merge or replace, dry run, and the consent replace needs to remove more than half. */
const upsertQuery = z.object({
  mode: z.enum(['merge', 'replace']).default('merge'),
  dryRun: z.enum(['true', 'false']).optional(),
  allowMassRemoval: z.enum(['true', 'false']).optional(),
});
const INVENTORY_SHAPE = { required: ['itemCode', 'onHand'], example: 'Item Number,On Hand' };
const ITEMS_SHAPE = { required: ['itemCode', 'name', 'retail'], example: 'Item Number,Item Description,State Bottle Retail' };
const BULK_ERRORS = {
  400: 'Zero rows (bulk_body_empty), a CSV header without the needed columns (csv_header_unknown), bytes that are not their Content-Encoding (body_undecodable) or not text (body_binary), invalid JSON (malformed_json)',
  401: 'No valid API key',
  413: 'More than 50,000 rows, or more than 16 MB of JSON / 64 MB of CSV once decoded',
  409: 'A request with this Idempotency-Key is still running (idempotency_in_progress)',
  415: 'Neither JSON nor CSV, or a Content-Encoding other than gzip, br, deflate',
  429: 'Rate limited',
} as const;
const ip = (req: { ip?: string }) => req.ip ?? null;
/** The Idempotency-Key of an API-key write, with the lease its request holds it for. */
const keyOf = (ctx: AppContext, key: ApiKeyPrincipal, idempotencyKey: string | undefined) => ({
  apiKeyId: key.apiKeyId,
  key: idempotencyKey,
  leaseSeconds: ctx.config.idempotencyLeaseSeconds,
});

/** /admin/api-keys and /admin/webhooks (ARCHITECTURE §5, §10): managed by board or store administrators. */
export const integrationsAdminRoutes = [
  route({
    method: 'get',
    path: '/admin/api-keys',
    scope: 'reach',
    tags: ['admin: integrations'],
    permissions: adminPermissions,
    summary: "API keys of the caller's stores and boards (prefix and last use, never the key)",
    response: { description: 'Keys', schema: apiKeyListSchema },
    handler: (actor, _i, { ctx }) => svc.listApiKeys(ctx.db, actor),
  }),
  route({
    method: 'post',
    path: '/admin/api-keys',
    scope: { row: 'storeOrBoard', id: (i) => i.body, fromBody: true, notFound: 'Store not found' },
    tags: ['admin: integrations'],
    permissions: adminPermissions,
    body: createApiKeyBodySchema,
    summary: 'Create an API key scoped to a store or a board; the whole key is in this answer only',
    response: { status: 201, description: 'The key, with `key` shown once', schema: createdApiKeySchema },
    errors: { 404: "Store or board not in the caller's reach", 400: 'Neither a store nor a board (validation_failed)' },
    handler: (actor, { body }, { ctx, req }) => svc.createApiKey(ctx.db, actor, body, ip(req)),
  }),
  route({
    method: 'delete',
    path: '/admin/api-keys/{id}',
    scope: { row: 'apiKey', id: (i) => i.params.id, notFound: 'API key not found' },
    tags: ['admin: integrations'],
    permissions: adminPermissions,
    params: uuidParams,
    summary: 'Revoke an API key at once',
    errors: { 404: "Not found (or not in the caller's reach)" },
    handler: (actor, { params }, { ctx, req }) => svc.revokeApiKey(ctx.db, actor, params.id, ip(req)),
  }),
  route({
    method: 'get',
    path: '/admin/webhooks',
    scope: 'reach',
    tags: ['admin: integrations'],
    permissions: adminPermissions,
    summary: "Webhook endpoints of the caller's stores and boards (never the secret)",
    response: { description: 'Endpoints', schema: webhookListSchema },
    handler: (actor, _i, { ctx }) => hooks.listWebhooks(ctx.db, actor),
  }),
  route({
    method: 'post',
    path: '/admin/webhooks',
    scope: 'reach',
    tags: ['admin: integrations'],
    permissions: adminPermissions,
    body: createWebhookBodySchema,
    summary: 'Register a webhook endpoint for a store or board; the signing secret is in this answer only',
    response: { status: 201, description: 'The endpoint with its `secret`', schema: createdWebhookSchema },
    errors: {
      404: "Store or board not in the caller's reach",
      400: 'Bad or private URL (production), or no store/board (validation_failed)',
    },
    handler: (actor, { body }, { ctx, req }) => hooks.createWebhook(ctx.db, actor, body, ctx.config.production, ip(req)),
  }),
  route({
    method: 'patch',
    path: '/admin/webhooks/{id}',
    scope: { row: 'webhook', id: (i) => i.params.id, notFound: 'Webhook not found' },
    tags: ['admin: integrations'],
    permissions: adminPermissions,
    params: uuidParams,
    body: updateWebhookBodySchema,
    summary: "Change a webhook endpoint's URL, events or active flag",
    response: { description: 'The endpoint', schema: webhookSchema },
    errors: { 404: "Not found (or not in the caller's reach)" },
    handler: (actor, { params, body }, { ctx, req }) => hooks.updateWebhook(ctx.db, actor, params.id, body, ctx.config.production, ip(req)),
  }),
  route({
    method: 'delete',
    path: '/admin/webhooks/{id}',
    scope: { row: 'webhook', id: (i) => i.params.id, notFound: 'Webhook not found' },
    tags: ['admin: integrations'],
    permissions: adminPermissions,
    params: uuidParams,
    summary: 'Remove a webhook endpoint',
    errors: { 404: "Not found (or not in the caller's reach)" },
    handler: (actor, { params }, { ctx, req }) => hooks.deleteWebhook(ctx.db, actor, params.id, ip(req)),
  }),
  route({
    method: 'get',
    path: '/admin/webhooks/{id}/deliveries',
    scope: { row: 'webhook', id: (i) => i.params.id, notFound: 'Webhook not found' },
    tags: ['admin: integrations'],
    permissions: adminPermissions,
    params: uuidParams,
    summary: "The endpoint's delivery log, newest first (status, attempts, last HTTP status and duration)",
    response: { description: 'Deliveries', schema: webhookDeliveryListSchema },
    errors: { 404: "Not found (or not in the caller's reach)" },
    handler: (actor, { params }, { ctx }) => hooks.listDeliveries(ctx.db, actor, params.id),
  }),
  route({
    method: 'post',
    path: '/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    scope: { row: 'webhook', id: (i) => i.params.id, notFound: 'Webhook not found' },
    tags: ['admin: integrations'],
    permissions: adminPermissions,
    params: z.object({ id: z.uuid(), deliveryId: z.uuid() }),
    summary: 'Queue a delivery again',
    errors: { 404: "Not found (or not in the caller's reach)" },
    handler: (actor, { params }, { ctx, req }) => hooks.redeliver(ctx.db, actor, params.id, params.deliveryId, ip(req)),
  }),
];

/** /integrations (ARCHITECTURE §5, §10): API-key principals only (a user JWT → 401). */
export const integrationsRoutes = [
  route({
    method: 'put',
    path: '/integrations/stores/{warehouseId}/inventory',
    keepsPrincipals: true,
    // Checked before the body is read: a store out of the key's reach is a 404 whatever the body holds.
    scope: { row: 'keyStore', id: (i) => i.params.warehouseId, notFound: 'Store not found' },
    tags: ['integrations'],
    auth: 'apiKey',
    scopes: ['inventory:write'],
    params: z.object({ warehouseId: z.coerce.number().int().positive() }),
    query: upsertQuery,
    headers: idemHeaders,
    bodyDoc: bulkBody(inventoryRowSchema, 'Item Number, On Hand[, Price]', 'Item Number,On Hand\n38176,24\n43337,6\n'),
    summary:
      "Upsert the store's inventory (JSON array of { itemCode, onHand, price? } or text/csv with Item Number, On Hand[, Price], ≤ 50,000 rows, streamed, optionally gzip / br encoded): validated whole, dryRun, mode=replace (removing more than half of the store's items needs allowMassRemoval=true), idempotent",
    response: { description: 'Counts: created / updated / unchanged / removed', schema: upsertResultSchema },
    errors: {
      ...BULK_ERRORS,
      403: 'The key lacks inventory:write',
      404: "Store not in the key's reach",
      422: "Row errors (rows_invalid): `errors` lists every refused row as { row, field, message }; nothing written. Or mode=replace would remove more than half of the store's items (mass_removal_refused, naming the count), dry run too",
    },
    handler: async (key, { params, query, headers }, { ctx, req, res }) => {
      const rows = await readBulkRows(req, res, INVENTORY_SHAPE);
      const opts = { mode: query.mode, dryRun: query.dryRun === 'true', allowMassRemoval: query.allowMassRemoval === 'true', ip: ip(req) };
      const { value, replayed } = await withApiKeyIdempotency(
        ctx.db,
        req.log,
        keyOf(ctx, key, headers['idempotency-key']),
        { params, query, rows },
        () => svc.upsertInventory(ctx.db, key, params.warehouseId, rows, opts),
      );
      if (replayed) res.setHeader('Idempotent-Replayed', 'true');
      return value;
    },
  }),
  route({
    method: 'put',
    path: '/integrations/items',
    keepsPrincipals: true,
    scope: { row: 'keyBoard', id: () => null, notFound: 'Not found', inService: true },
    tags: ['integrations'],
    auth: 'apiKey',
    scopes: ['catalog:write'],
    query: upsertQuery,
    headers: idemHeaders,
    bodyDoc: bulkBody(
      itemRowSchema,
      'Item Number, Item Description, State Bottle Retail[, Category Name, Pack] (db:import products.csv names) or itemCode, name, retail, category, bottlesPerCase, active',
      'Item Number,Item Description,State Bottle Retail,Category Name,Pack\n38176,Titos Handmade Vodka,19.49,American Vodkas,12\n',
    ),
    summary:
      "Upsert the key's board catalog (JSON array of { itemCode, name, retail, category?, bottlesPerCase?, active? } or products.csv columns, ≤ 50,000 rows, optionally gzip / br encoded): validated whole, dryRun, mode=replace deactivates items not sent (more than half needs allowMassRemoval=true), idempotent",
    response: { description: 'Counts: created / updated / unchanged / removed (deactivated)', schema: upsertResultSchema },
    errors: {
      ...BULK_ERRORS,
      403: 'The key lacks catalog:write or is a store key',
      422: "Row errors (rows_invalid): `errors` lists every refused row as { row, field, message }; nothing written. Or mode=replace would deactivate more than half of the board's items (mass_removal_refused)",
    },
    handler: async (key, { query, headers }, { ctx, req, res }) => {
      svc.assertCatalogKey(key); // a store's key is refused before its body is read
      const rows = await readBulkRows(req, res, ITEMS_SHAPE);
      const opts = { mode: query.mode, dryRun: query.dryRun === 'true', allowMassRemoval: query.allowMassRemoval === 'true', ip: ip(req) };
      const { value, replayed } = await withApiKeyIdempotency(
        ctx.db,
        req.log,
        keyOf(ctx, key, headers['idempotency-key']),
        { path: 'items', query, rows },
        () => svc.upsertItems(ctx.db, key, rows, opts),
      );
      if (replayed) res.setHeader('Idempotent-Replayed', 'true');
      return value;
    },
  }),
  route({
    method: 'get',
    path: '/integrations/order-events',
    scope: 'reach',
    tags: ['integrations'],
    auth: 'apiKey',
    scopes: ['orders:read'],
    query: z.object({
      after: z.coerce.number().int().min(0).default(0),
      limit: z.coerce.number().int().min(1).max(1000).default(100),
      feedId: z.uuid().optional(),
    }),
    summary:
      "The order event feed of the key's stores after a seq (gap-free, ordered): order.created / ready / completed / cancelled with the order snapshot. Send the page's feedId back with after: a cursor of another feed (the database was restored) → 409 feed_reset",
    response: {
      description: 'Events, the cursor to resume from (nextAfter) and the feed it belongs to (feedId)',
      schema: z.object({
        items: z.array(z.object({ seq: z.number(), type: z.string(), occurredAt: z.string(), order: z.unknown() })),
        nextAfter: z.number(),
        feedId: z.uuid(),
      }),
    },
    errors: {
      400: 'after is past the newest event (cursor_ahead, with newestSeq)',
      401: 'No valid API key',
      403: 'The key lacks orders:read',
      409: 'feedId is not this feed: the database was restored or recreated (feed_reset, with the current feedId and newestSeq)',
      429: 'Rate limited',
    },
    handler: async (key, { query }, { ctx, res }) => {
      // The page comes as the stored event texts' bytes; they go out as they are, in one corked write
      // (never copied into one buffer: ≈ 125 KB per page of 100).
      const { parts, length } = await svc.orderEvents(ctx.db, key, query.after, query.limit, ctx.feedReader, query.feedId);
      res.status(200).set({ 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(length) });
      res.cork();
      for (const part of parts) res.write(part);
      res.end();
      res.uncork();
    },
  }),
  route({
    method: 'post',
    path: '/integrations/orders/{orderNumber}/status',
    keepsPrincipals: true,
    scope: { row: 'keyOrder', id: (i) => i.params.orderNumber, notFound: 'Order not found', inService: true },
    tags: ['integrations'],
    auth: 'apiKey',
    scopes: ['orders:write'],
    params: z.object({ orderNumber: z.string().min(1).max(64) }),
    headers: idemHeaders,
    body: z.object({ status: z.enum(['ready', 'completed', 'cancelled']), reason: z.string().trim().min(1).max(500).optional() }),
    summary: "Move an order of the key's stores like the Store Orders buttons (ready, completed, cancelled with a reason)",
    response: { description: 'The order', schema: orderDetailSchema },
    errors: {
      401: 'No valid API key',
      403: 'The key lacks orders:write',
      404: "Order not in the key's stores",
      409: 'Illegal transition (naming the status), a refund on its way (refund_in_progress), or a request with this Idempotency-Key still running (idempotency_in_progress)',
      502: 'Refund refused (refund_failed: cancel_pending) or its answer lost (refund_unconfirmed: settled by the reconciler)',
    },
    handler: async (key, { params, body, headers }, { ctx, req, res }) => {
      const { value, replayed } = await withApiKeyIdempotency(
        ctx.db,
        req.log,
        keyOf(ctx, key, headers['idempotency-key']),
        { params, body },
        () =>
          svc.setOrderStatus(
            { db: ctx.db, config: ctx.config, mailer: ctx.mailer, logger: req.log },
            key,
            params.orderNumber,
            body.status,
            body.reason,
            ip(req),
          ),
      );
      if (replayed) res.setHeader('Idempotent-Replayed', 'true');
      return value;
    },
  }),
  route({
    method: 'post',
    path: '/integrations/test-events',
    keepsPrincipals: true,
    scope: { row: 'keyStore', id: (i) => i.body.storeId, fromBody: true, notFound: 'Store not found', inService: true },
    tags: ['integrations'],
    auth: 'apiKey',
    scopes: ['orders:read'],
    body: testEventBodySchema,
    summary:
      "Emit a synthetic order.created for the key's store (a board key names one: storeId) to the feed and the webhooks, marked test: true",
    description:
      'For trying a feed reader or webhook receiver without a real order: the event has `"test": true` and an order snapshot of the store with no order behind it (id 0, orderNumber TEST-…). Allowed in test and development, elsewhere only for a key created with `sandbox: true`.',
    response: { status: 201, description: 'The event as the feed and webhooks carry it', schema: testEventSchema },
    errors: {
      400: 'A board key without storeId (validation_failed)',
      403: 'The key lacks orders:read (api_key_scope_missing), or test events are off here for a key without sandbox (test_events_unavailable)',
      404: "Store not in the key's reach",
    },
    handler: (key, { body }, { ctx, req }) => emitTestEvent(ctx.db, ctx.config, key, body, ip(req)),
  }),
];
