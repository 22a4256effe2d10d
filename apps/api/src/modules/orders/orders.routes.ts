import { Router } from 'express';
import { z } from 'zod';
import {
  PERMISSIONS, createOrderBodySchema, idempotencyKeySchema, intIdSchema, listOrdersQuerySchema, orderDetailSchema,
  orderListSchema, reorderResultSchema,
} from '@portal/contracts';
import type { AppContext } from '../../context';
import { authenticate, principalOf, requirePermission } from '../../http/auth';
import { documentRoute, jsonBody, jsonResponse, problemResponse } from '../../http/openapi';
import * as orders from './orders.service';

const detail = orderDetailSchema.meta({ id: 'OrderDetail' });
const orderIdParams = z.object({ orderId: intIdSchema });
documentRoute({
  method: 'post', path: '/orders', tags: ['orders'],
  summary: 'Place the order of a checkout session: pay in-store (not for Delivery) or by card (needs bcc.carts.checkout). Send Idempotency-Key to make retries safe',
  request: { headers: z.object({ 'idempotency-key': idempotencyKeySchema.optional() }), body: jsonBody(createOrderBodySchema) },
  responses: {
    201: jsonResponse('Order placed (a retry with the same Idempotency-Key answers the first result, with Idempotent-Replayed: true)', detail),
    402: problemResponse('Card declined (payment_declined): the gateway\'s message; the cart and the session are kept for another try'),
    409: problemResponse('Session used, payment in progress, cart changed, items unavailable, or the key still in progress'),
    410: problemResponse('Checkout session expired'),
    422: problemResponse('Pay in-store for a Delivery order (in_store_not_for_delivery), or an Idempotency-Key reused for another request'),
    502: problemResponse('Payment processing error (payment_error)'),
  },
});
documentRoute({
  method: 'get', path: '/orders', tags: ['orders'],
  summary: 'Placed orders, newest first: one\'s own; with bcc.orders.store.manage every order of the stores one reaches',
  request: { query: listOrdersQuerySchema },
  responses: { 200: jsonResponse('Orders with lines, the scope label and tab counts', orderListSchema) },
});
documentRoute({
  method: 'get', path: '/orders/latest', tags: ['orders'], summary: 'The caller\'s newest placed order',
  responses: { 200: jsonResponse('The order', detail) },
});
documentRoute({
  method: 'get', path: '/orders/{orderId}', tags: ['orders'],
  summary: 'One order with lines, store details and delivery block (own, or of a store one manages)',
  request: { params: orderIdParams },
  responses: { 200: jsonResponse('The order', detail) },
});
documentRoute({
  method: 'post', path: '/orders/{orderId}/ready', tags: ['orders'],
  summary: 'Mark a reserved order ready (needs bcc.orders.store.manage for the order\'s store)',
  request: { params: orderIdParams },
  responses: { 200: jsonResponse('The order, now ready', detail), 409: problemResponse('Not reserved (order_not_reserved) or not paid (order_awaiting_payment)') },
});
documentRoute({
  method: 'post', path: '/orders/{orderId}/reorder', tags: ['orders'],
  summary: 'Add each line\'s quantity of one\'s own order to the active cart for its outlet and store (needs bcc.carts.use)',
  request: { params: orderIdParams },
  responses: { 200: jsonResponse('Lines added and skipped', reorderResultSchema), 422: problemResponse('No items to reorder (nothing_to_reorder)') },
});

/** /api/v1/orders: place, list, read, mark ready, reorder (issue 5 §2, §5). */
export function ordersRoutes(ctx: AppContext) {
  const r = Router();
  r.use(authenticate(ctx.db, ctx.config.jwtSecret));

  r.post('/', requirePermission(PERMISSIONS.cartsCheckout), async (req, res) => {
    const input = createOrderBodySchema.parse(req.body);
    const rawKey = req.get('idempotency-key');
    const key = rawKey === undefined ? undefined : idempotencyKeySchema.parse(rawKey);
    const { order, replayed } = await orders.placeOrder({ db: ctx.db, config: ctx.config, mailer: ctx.mailer, logger: req.log }, principalOf(req), input, key);
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(201).json(order);
  });

  r.get('/', async (req, res) => {
    const q = listOrdersQuerySchema.parse(req.query);
    res.json(await orders.listOrders(ctx.db, principalOf(req), q));
  });

  r.get('/latest', async (req, res) => {
    res.json(await orders.latestOrder(ctx.db, principalOf(req)));
  });

  r.get('/:orderId', async (req, res) => {
    const { orderId } = orderIdParams.parse(req.params);
    res.json(await orders.getOrder(ctx.db, principalOf(req), orderId));
  });

  r.post('/:orderId/ready', requirePermission(PERMISSIONS.ordersStoreManage), async (req, res) => {
    const { orderId } = orderIdParams.parse(req.params);
    const order = await orders.markReady(ctx.db, principalOf(req), orderId);
    req.log.info({ orderId }, 'order marked ready');
    res.json(order);
  });

  r.post('/:orderId/reorder', requirePermission(PERMISSIONS.cartsUse), async (req, res) => {
    const { orderId } = orderIdParams.parse(req.params);
    res.json(await orders.reorder(ctx.db, principalOf(req), orderId));
  });
  return r;
}
