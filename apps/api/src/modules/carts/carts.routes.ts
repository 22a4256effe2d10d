import { z } from 'zod';
import {
  CART_MESSAGES,
  addCartItemBodySchema,
  cartSchema,
  currentCartQuerySchema,
  fulfillmentBodySchema,
  intIdSchema,
  updateCartItemBodySchema,
} from '@portal/contracts';
import { route } from '../../http/route';
import * as carts from './carts.service';

const cartParams = z.strictObject({ cartId: intIdSchema });
const lineParams = z.strictObject({ cartId: intIdSchema, itemId: intIdSchema });
const response = { description: 'The cart', schema: cartSchema.meta({ id: 'Cart' }) };
const tags = ['carts'];
const permissions = carts.SHOP_CODES;

/** /api/v1/carts (ARCHITECTURE §5, spec 001 §4): the cart, its lines and fulfillment; permission bcc.carts.use. */
export const cartsRoutes = [
  route({
    method: 'get',
    path: '/carts/current',
    scope: { row: 'shop', id: (i) => i.query, notFound: 'Store not found', inService: true },
    tags,
    permissions,
    query: currentCartQuerySchema,
    response,
    summary: 'The active cart of user × outlet × store (created when absent)',
    handler: (actor, { query }, { ctx }) => carts.openCurrentCart(ctx.db, actor, query),
  }),
  route({
    method: 'post',
    path: '/carts/{cartId}/items',
    keepsPrincipals: true,
    scope: { row: 'cart', id: (i) => i.params.cartId, notFound: CART_MESSAGES.cartNotFound, inService: true },
    tags,
    permissions,
    params: cartParams,
    body: addCartItemBodySchema,
    response,
    summary:
      "Add an item code: a new code enters at its first valid quantity (its rule's min; 1 without a rule) at the current price, an existing one grows by one increment",
    errors: { 422: "Past the item's max quantity (quantity_rule, with rule and nearestValid)" },
    handler: (actor, { params, body }, { ctx }) => carts.addItem(ctx.db, actor, { ...params, ...body }),
  }),
  route({
    method: 'patch',
    path: '/carts/{cartId}/items/{itemId}',
    keepsPrincipals: true,
    scope: { row: 'cart', id: (i) => i.params.cartId, notFound: CART_MESSAGES.cartNotFound, inService: true },
    tags,
    permissions,
    params: lineParams,
    body: updateCartItemBodySchema,
    response,
    summary: "Set a line quantity (0 or less removes it; at most 999; on the item's quantity rule)",
    errors: {
      422: "A quantity off the item's quantity rule (quantity_rule: the detail names the rule; members rule, nearestValid, itemCode)",
    },
    handler: (actor, { params, body }, { ctx }) => carts.setItemQuantity(ctx.db, actor, { ...params, ...body }),
  }),
  route({
    method: 'delete',
    path: '/carts/{cartId}/items/{itemId}',
    keepsPrincipals: true,
    scope: { row: 'cart', id: (i) => i.params.cartId, notFound: CART_MESSAGES.cartNotFound, inService: true },
    tags,
    permissions,
    params: lineParams,
    response,
    summary: 'Remove a line',
    handler: (actor, { params }, { ctx }) => carts.removeItem(ctx.db, actor, params),
  }),
  route({
    method: 'delete',
    path: '/carts/{cartId}',
    keepsPrincipals: true,
    scope: { row: 'cart', id: (i) => i.params.cartId, notFound: CART_MESSAGES.cartNotFound, inService: true },
    tags,
    permissions,
    params: cartParams,
    summary: 'Clear the cart: delete its lines, then the cart',
    response: { status: 204, description: 'Cleared' },
    handler: async (actor, { params }, { ctx }) => {
      await carts.clearCart(ctx.db, actor, params);
    },
  }),
  route({
    method: 'put',
    path: '/carts/{cartId}/fulfillment',
    keepsPrincipals: true,
    scope: { row: 'cart', id: (i) => i.params.cartId, notFound: CART_MESSAGES.cartNotFound, inService: true },
    tags,
    permissions,
    params: cartParams,
    body: fulfillmentBodySchema,
    response,
    summary: 'Choose Pickup or Delivery and an optional date (not before today)',
    errors: { 422: 'Delivery is not available from this store (delivery_unavailable)' },
    handler: (actor, { params, body }, { ctx }) => carts.setFulfillment(ctx.db, actor, { ...params, ...body }),
  }),
];
