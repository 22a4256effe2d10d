import { z } from 'zod';
import {
  bottleSizeListSchema,
  intIdSchema,
  productPageSchema,
  productSchema,
  productsQuerySchema,
  storeDetailSchema,
} from '@portal/contracts';
import { route } from '../../http/route';
import { sendSerializedJson } from '../../http/cached-json';
import * as stores from './stores.service';

const storeParams = z.strictObject({ storeId: intIdSchema });
const productParams = z.strictObject({ storeId: intIdSchema, code: z.string().trim().min(1).max(32) });
const tags = ['stores'];
const permissions = stores.BROWSE_CODES;
/** The catalog is read-only: a user's permissions are reused for CATALOG_PRINCIPAL_CACHE_MS (2 s: a revocation applies within 2 s). */
const cachePrincipal = true;
/** Their params and query schemas are pure (contracts): a repeated request reuses its parsed input. */
const memoInput = true;

/**
 * /api/v1/stores (ARCHITECTURE §5, spec 001 §2): a reachable store and its catalog. Browsing needs bcc.carts.use
 * or bcc.items.view / bcc.item.view (a role that may view items but not use carts still browses,
 * with Add to Cart disabled); adding to a cart is the carts routes' bcc.carts.use.
 */
export const storesRoutes = [
  route({
    method: 'get',
    path: '/stores/{storeId}',
    scope: { row: 'browse', id: (i) => i.params.storeId, notFound: 'Store not found', inService: true },
    tags,
    permissions,
    cachePrincipal,
    memoInput,
    params: storeParams,
    summary: "A store's address, phone and delivery settings",
    response: { description: 'The store', schema: storeDetailSchema.meta({ id: 'StoreDetail' }) },
    handler: (actor, { params }, { ctx }) => stores.getStore(ctx.db, actor, params),
  }),
  route({
    method: 'get',
    path: '/stores/{storeId}/products',
    scope: { row: 'browse', id: (i) => i.params.storeId, notFound: 'Store not found', inService: true },
    tags,
    permissions,
    cachePrincipal,
    memoInput,
    params: storeParams,
    query: productsQuerySchema,
    summary: "A page of the store's catalog: search by name or item code (ranked), size filter, pageSize ≤ 100",
    response: { description: 'A page of products', schema: productPageSchema.meta({ id: 'ProductPage' }) },
    description:
      'The answer is serialized once per page and catalog version and kept with the page cache: it carries a strong ETag ' +
      '(Cache-Control: private, no-cache), and a request whose If-None-Match names it is answered 304 Not Modified, ' +
      'after the same authentication and reach checks.',
    // The page's body as kept with its page cache entry (stores.service listProductsJson), sent as it is.
    handler: async (actor, { params, query }, { ctx, req, res }) =>
      sendSerializedJson(req, res, await stores.listProductsJson(ctx.db, actor, { ...params, ...query })),
  }),
  route({
    method: 'get',
    path: '/stores/{storeId}/products/{code}',
    scope: { row: 'browse', id: (i) => i.params.storeId, notFound: 'Store not found', inService: true },
    tags,
    permissions,
    cachePrincipal,
    memoInput,
    params: productParams,
    summary: 'One product of the store by item code',
    response: { description: 'The product', schema: productSchema.meta({ id: 'Product' }) },
    handler: (actor, { params }, { ctx }) => stores.getProduct(ctx.db, actor, params),
  }),
  route({
    method: 'get',
    path: '/stores/{storeId}/bottle-sizes',
    scope: { row: 'browse', id: (i) => i.params.storeId, notFound: 'Store not found', inService: true },
    tags,
    permissions,
    cachePrincipal,
    memoInput,
    params: storeParams,
    summary: 'The bottle sizes the store carries',
    response: { description: 'Bottle sizes', schema: bottleSizeListSchema.meta({ id: 'BottleSizeList' }) },
    handler: (actor, { params }, { ctx }) => stores.listBottleSizes(ctx.db, actor, params),
  }),
];
