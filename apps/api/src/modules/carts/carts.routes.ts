import { Router } from 'express';
import { z } from 'zod';
import {
  PERMISSIONS, addCartItemBodySchema, cartSchema, currentCartQuerySchema, fulfillmentBodySchema, intIdSchema, updateCartItemBodySchema,
} from '@portal/contracts';
import type { AppContext } from '../../context';
import { authenticate, principalOf, requirePermission } from '../../http/auth';
import { documentRoute, jsonBody, jsonResponse, problemResponse } from '../../http/openapi';
import * as carts from './carts.service';

const cartParams = z.strictObject({ cartId: intIdSchema });
const lineParams = z.strictObject({ cartId: intIdSchema, itemId: intIdSchema });
const cart = cartSchema.meta({ id: 'Cart' });
const tags = ['carts'];

documentRoute({
  method: 'get', path: '/carts/current', tags, summary: 'The active cart of user × outlet × store (created when absent)',
  request: { query: currentCartQuerySchema }, responses: { 200: jsonResponse('The cart', cart) },
});
documentRoute({
  method: 'post', path: '/carts/{cartId}/items', tags, summary: 'Add one of an item code (a new code enters with quantity 1 at the current price)',
  request: { params: cartParams, body: jsonBody(addCartItemBodySchema) }, responses: { 200: jsonResponse('The cart', cart) },
});
documentRoute({
  method: 'patch', path: '/carts/{cartId}/items/{itemId}', tags, summary: 'Set a line quantity (0 or less removes it; at most 999)',
  request: { params: lineParams, body: jsonBody(updateCartItemBodySchema) }, responses: { 200: jsonResponse('The cart', cart) },
});
documentRoute({
  method: 'delete', path: '/carts/{cartId}/items/{itemId}', tags, summary: 'Remove a line',
  request: { params: lineParams }, responses: { 200: jsonResponse('The cart', cart) },
});
documentRoute({
  method: 'delete', path: '/carts/{cartId}', tags, summary: 'Clear the cart: delete its lines, then the cart',
  request: { params: cartParams }, responses: { 204: { description: 'Cleared' } },
});
documentRoute({
  method: 'put', path: '/carts/{cartId}/fulfillment', tags, summary: 'Choose Pickup or Delivery and an optional date (not before today)',
  request: { params: cartParams, body: jsonBody(fulfillmentBodySchema) },
  responses: { 200: jsonResponse('The cart', cart), 422: problemResponse('Delivery is not available from this store') },
});

/** /api/v1/carts (ARCHITECTURE §5, spec 001 §4): the cart, its lines and fulfillment; permission bcc.carts.use. */
export function cartsRoutes(ctx: AppContext) {
  const r = Router();
  r.use(authenticate(ctx.db, ctx.config.jwtSecret), requirePermission(PERMISSIONS.cartsUse));

  r.get('/current', async (req, res) => {
    const q = currentCartQuerySchema.parse(req.query);
    res.json(await carts.openCurrentCart(ctx.db, principalOf(req).userId, q.outletId, q.storeId));
  });
  r.post('/:cartId/items', async (req, res) => {
    const { cartId } = cartParams.parse(req.params);
    const body = addCartItemBodySchema.parse(req.body);
    res.json(await carts.addItem(ctx.db, principalOf(req).userId, cartId, body.itemCode));
  });
  r.patch('/:cartId/items/:itemId', async (req, res) => {
    const { cartId, itemId } = lineParams.parse(req.params);
    const body = updateCartItemBodySchema.parse(req.body);
    res.json(await carts.setItemQuantity(ctx.db, principalOf(req).userId, cartId, itemId, body.quantity));
  });
  r.delete('/:cartId/items/:itemId', async (req, res) => {
    const { cartId, itemId } = lineParams.parse(req.params);
    res.json(await carts.removeItem(ctx.db, principalOf(req).userId, cartId, itemId));
  });
  r.delete('/:cartId', async (req, res) => {
    const { cartId } = cartParams.parse(req.params);
    await carts.clearCart(ctx.db, principalOf(req).userId, cartId);
    res.status(204).end();
  });
  r.put('/:cartId/fulfillment', async (req, res) => {
    const { cartId } = cartParams.parse(req.params);
    const body = fulfillmentBodySchema.parse(req.body);
    res.json(await carts.setFulfillment(ctx.db, principalOf(req).userId, cartId, body));
  });
  return r;
}
