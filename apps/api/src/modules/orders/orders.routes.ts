import { z } from 'zod';
import {
  ORDER_MESSAGES,
  PERMISSIONS,
  attentionListQuerySchema,
  cancelOrderBodySchema,
  attentionListSchema,
  checkPaymentResultSchema,
  createOrderBodySchema,
  idempotencyKeySchema,
  intIdSchema,
  listOrdersQuerySchema,
  orderDetailSchema,
  orderListSchema,
  reorderBodySchema,
  reorderResultSchema,
} from '@portal/contracts';
import type { Request } from 'express';
import type { AppContext } from '../../context';
import { route } from '../../http/route';
import * as attention from './attention.service';
import * as orders from './orders.service';

const detail = orderDetailSchema.meta({ id: 'OrderDetail' });
const orderIdParams = z.object({ orderId: intIdSchema });
const tags = ['orders'];

/** The collaborators placing and settling an order use, bound once per request (its logger). */
const depsOf = (ctx: AppContext, req: Request) => ({ db: ctx.db, config: ctx.config, mailer: ctx.mailer, logger: req.log });

/** /api/v1/orders: place, list, read, mark ready, reorder (ARCHITECTURE §5, spec 001 Store Orders, spec 002 payment). */
export const ordersRoutes = [
  route({
    method: 'post',
    path: '/orders',
    keepsPrincipals: true,
    scope: 'self',
    tags,
    permissions: [PERMISSIONS.cartsCheckout],
    summary: 'Place the order of a checkout session: pay in-store (not for Delivery) or by card. Send Idempotency-Key to make retries safe',
    headers: z.object({ 'idempotency-key': idempotencyKeySchema.optional() }),
    body: createOrderBodySchema,
    response: {
      status: 201,
      description: 'Order placed (a retry with the same Idempotency-Key answers the first result, with Idempotent-Replayed: true)',
      schema: detail,
    },
    errors: {
      402: "Card declined (payment_declined): the gateway's message; the cart and the session are kept for another try",
      409: 'Session used, cart changed, items unavailable, the key still in progress (idempotency_in_progress), or a card payment of this cart being confirmed (payment_being_confirmed)',
      410: 'Checkout session expired',
      422: 'Pay in-store for a Delivery order (in_store_not_for_delivery), or an Idempotency-Key reused for another request (idempotency_key_reused)',
      502: 'Payment processing error (payment_error)',
    },
    handler: async (actor, { body, headers }, { ctx, req, res }) => {
      const { order, replayed } = await orders.placeOrder(depsOf(ctx, req), actor, { ...body, idempotencyKey: headers['idempotency-key'] });
      if (replayed) res.setHeader('Idempotent-Replayed', 'true');
      return order;
    },
  }),
  route({
    method: 'get',
    path: '/orders',
    scope: 'reach',
    tags,
    query: listOrdersQuerySchema,
    summary: "Placed orders, newest first: one's own; with bcc.orders.store.manage every order of the stores one reaches",
    response: { description: 'Orders with lines, the scope label and tab counts', schema: orderListSchema },
    handler: (actor, { query }, { ctx }) => orders.listOrders(ctx.db, actor, query),
  }),
  route({
    method: 'get',
    path: '/orders/attention',
    scope: 'reach',
    tags,
    query: attentionListQuerySchema,
    permissions: [PERMISSIONS.ordersStoreManage],
    summary:
      'Needs attention: card orders whose payment is unsettled and cancel_pending orders of the stores one reaches (every store for super administrators)',
    response: {
      description: 'Orders needing an operator, oldest first, with the merchant and gateway references',
      schema: attentionListSchema,
    },
    errors: { 404: "The store is not in the caller's reach" },
    handler: (actor, { query }, { ctx }) => attention.listAttention(ctx.db, actor, query),
  }),
  route({
    method: 'post',
    path: '/orders/{orderId}/check-payment',
    keepsPrincipals: true,
    scope: { row: 'storeOrder', id: (i) => i.params.orderId, notFound: ORDER_MESSAGES.notFound },
    tags,
    params: orderIdParams,
    permissions: [PERMISSIONS.ordersStoreManage],
    summary: 'Check again: ask the gateway about a pending card order by its order number and settle it with the answer',
    response: { description: 'The outcome: paid, failed, error, or still pending', schema: checkPaymentResultSchema },
    errors: { 404: "Order not found (or not in the caller's reach)" },
    handler: (actor, { params }, { ctx, req }) => attention.checkPayment(depsOf(ctx, req), actor, params.orderId, req.ip ?? null),
  }),
  route({
    method: 'get',
    path: '/orders/latest',
    scope: 'self',
    tags,
    summary: "The caller's newest placed order",
    response: { description: 'The order', schema: detail },
    handler: (actor, _input, { ctx }) => orders.latestOrder(ctx.db, actor),
  }),
  route({
    method: 'get',
    path: '/orders/{orderId}',
    scope: { row: 'order', id: (i) => i.params.orderId, notFound: ORDER_MESSAGES.notFound },
    tags,
    params: orderIdParams,
    summary: 'One order with lines, store details and delivery block (own, or of a store one manages)',
    response: { description: 'The order', schema: detail },
    handler: (actor, { params }, { ctx }) => orders.getOrder(ctx.db, actor, params.orderId),
  }),
  route({
    method: 'post',
    path: '/orders/{orderId}/ready',
    keepsPrincipals: true,
    scope: { row: 'storeOrder', id: (i) => i.params.orderId, notFound: ORDER_MESSAGES.notFound },
    tags,
    params: orderIdParams,
    permissions: [PERMISSIONS.ordersStoreManage],
    summary: "Mark a reserved order ready (for the order's store)",
    response: { description: 'The order, now ready', schema: detail },
    errors: { 409: 'Not reserved (order_not_reserved) or not paid (order_awaiting_payment)' },
    handler: async (actor, { params }, { ctx, req }) => {
      const order = await orders.markReady(ctx.db, actor, params.orderId, depsOf(ctx, req));
      req.log.info({ orderId: params.orderId }, 'order marked ready');
      return order;
    },
  }),
  route({
    method: 'post',
    path: '/orders/{orderId}/complete',
    keepsPrincipals: true,
    scope: { row: 'storeOrder', id: (i) => i.params.orderId, notFound: ORDER_MESSAGES.notFound },
    tags,
    params: orderIdParams,
    permissions: [PERMISSIONS.ordersStoreManage],
    summary: "Mark a ready order completed (picked up or delivered), for the order's store; the buyer is mailed",
    response: { description: 'The order, now completed', schema: detail },
    errors: {
      404: "Order not found (or not in the caller's reach)",
      409: 'Not ready (order_transition_illegal, naming the status) or not paid (order_awaiting_payment)',
    },
    handler: (actor, { params }, { ctx, req }) => orders.completeOrder(depsOf(ctx, req), actor, params.orderId, req.ip ?? null),
  }),
  route({
    method: 'post',
    path: '/orders/{orderId}/cancel',
    keepsPrincipals: true,
    scope: { row: 'storeOrder', id: (i) => i.params.orderId, notFound: ORDER_MESSAGES.notFound },
    tags,
    params: orderIdParams,
    permissions: [PERMISSIONS.ordersStoreManage],
    body: cancelOrderBodySchema,
    summary:
      'Cancel a reserved or ready order with a reason (a card payment is refunded first; cancel a cancel_pending order again to retry its refund); the buyer is mailed',
    response: { description: 'The order, now cancelled', schema: detail },
    errors: {
      404: "Order not found (or not in the caller's reach)",
      409: 'Completed or cancelled already (order_transition_illegal, naming the status)',
      502: 'The gateway refused the refund (refund_failed): the order is cancel_pending',
    },
    handler: (actor, { params, body }, { ctx, req }) =>
      orders.cancelOrder(depsOf(ctx, req), actor, params.orderId, body.reason, req.ip ?? null),
  }),
  route({
    method: 'post',
    path: '/orders/{orderId}/reorder',
    keepsPrincipals: true,
    scope: { row: 'ownOrder', id: (i) => i.params.orderId, notFound: ORDER_MESSAGES.notFound },
    tags,
    params: orderIdParams,
    permissions: [PERMISSIONS.cartsUse],
    body: reorderBodySchema,
    summary:
      "Add each line's quantity of one's own order to the active cart of the outlet and store sent (the one the person is looking at), else of the order's own outlet and store",
    response: { description: 'Lines added and skipped, and whose cart (outlet and store) got them', schema: reorderResultSchema },
    errors: {
      404: "Not one's order, or the outlet × store sent is not one's (not_found)",
      422: 'No items to reorder (nothing_to_reorder)',
    },
    handler: (actor, { params, body }, { ctx }) => orders.reorder(ctx.db, actor, params.orderId, body),
  }),
];
