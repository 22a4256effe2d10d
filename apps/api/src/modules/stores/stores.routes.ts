import { Router } from 'express';
import { z } from 'zod';
import {
  PERMISSIONS, bottleSizeListSchema, intIdSchema, productPageSchema, productSchema, productsQuerySchema, storeDetailSchema,
} from '@portal/contracts';
import type { AppContext } from '../../context';
import { authenticate, principalOf, requirePermission } from '../../http/auth';
import { documentRoute, jsonResponse } from '../../http/openapi';
import * as stores from './stores.service';

const storeParams = z.strictObject({ storeId: intIdSchema });
const productParams = z.strictObject({ storeId: intIdSchema, code: z.string().trim().min(1).max(32) });
const tags = ['stores'];
/** The catalog is read-only: a user's permissions are reused for 2 s (a revocation applies within 2 s). */
const PRINCIPAL_CACHE_MS = 2000;

documentRoute({
  method: 'get', path: '/stores/{storeId}', tags, summary: "A store's address, phone and delivery settings",
  request: { params: storeParams }, responses: { 200: jsonResponse('The store', storeDetailSchema.meta({ id: 'StoreDetail' })) },
});
documentRoute({
  method: 'get', path: '/stores/{storeId}/products', tags,
  summary: "A page of the store's catalog: search by name or item code (ranked), size filter, pageSize ≤ 100",
  request: { params: storeParams, query: productsQuerySchema }, responses: { 200: jsonResponse('A page of products', productPageSchema.meta({ id: 'ProductPage' })) },
});
documentRoute({
  method: 'get', path: '/stores/{storeId}/products/{code}', tags, summary: 'One product of the store by item code',
  request: { params: productParams }, responses: { 200: jsonResponse('The product', productSchema.meta({ id: 'Product' })) },
});
documentRoute({
  method: 'get', path: '/stores/{storeId}/bottle-sizes', tags, summary: 'The bottle sizes the store carries',
  request: { params: storeParams }, responses: { 200: jsonResponse('Bottle sizes', bottleSizeListSchema.meta({ id: 'BottleSizeList' })) },
});

/** /api/v1/stores (ARCHITECTURE §5, spec 001 §2): a reachable store and its catalog; permission bcc.carts.use. */
export function storesRoutes(ctx: AppContext) {
  const r = Router();
  r.use(authenticate(ctx.db, ctx.config.jwtSecret, { principalCacheMs: PRINCIPAL_CACHE_MS }), requirePermission(PERMISSIONS.cartsUse));

  r.get('/:storeId', async (req, res) => {
    const { storeId } = storeParams.parse(req.params);
    res.json(await stores.getStore(ctx.db, principalOf(req).userId, storeId));
  });
  r.get('/:storeId/products', async (req, res) => {
    const { storeId } = storeParams.parse(req.params);
    const q = productsQuerySchema.parse(req.query);
    res.json(await stores.listProducts(ctx.db, principalOf(req).userId, storeId, q));
  });
  r.get('/:storeId/products/:code', async (req, res) => {
    const { storeId, code } = productParams.parse(req.params);
    res.json(await stores.getProduct(ctx.db, principalOf(req).userId, storeId, code));
  });
  r.get('/:storeId/bottle-sizes', async (req, res) => {
    const { storeId } = storeParams.parse(req.params);
    res.json(await stores.listBottleSizes(ctx.db, principalOf(req).userId, storeId));
  });
  return r;
}
