import { z } from 'zod';
import { CART_MESSAGES, checkoutSessionSchema, checkoutTokenSchema, createCheckoutSessionBodySchema } from '@portal/contracts';
import { route } from '../../http/route';
import * as checkout from './checkout-sessions.service';

const session = checkoutSessionSchema.meta({ id: 'CheckoutSession' });
const tags = ['checkout'];
const permissions = checkout.CHECKOUT_CODES;

/** /api/v1/checkout-sessions: start and validate server-side checkout sessions (spec 001 §4, ARCHITECTURE §9). */
export const checkoutSessionsRoutes = [
  route({
    method: 'post',
    path: '/checkout-sessions',
    keepsPrincipals: true,
    scope: { row: 'cart', id: (i) => i.body.cartId, fromBody: true, notFound: CART_MESSAGES.cartNotFound, inService: true },
    tags,
    permissions,
    body: createCheckoutSessionBodySchema,
    summary: "Start checkout of the caller's active cart: a 30-minute session whose total is computed on the server",
    response: { status: 201, description: 'Session started; the token is shown only here', schema: session },
    errors: {
      409: 'An item is no longer sold by the store (checkout_items_unavailable)',
      422: 'Delivery chosen but the store does not deliver (delivery_unavailable), or Delivery (card only) at a store without card payments (payment_setup)',
    },
    handler: async (actor, { body }, { ctx, req }) => {
      const s = await checkout.startCheckout(ctx, actor, body);
      req.log.info({ cartId: body.cartId, total: s.total }, 'checkout session started');
      return s;
    },
  }),
  route({
    method: 'get',
    path: '/checkout-sessions/{token}',
    scope: 'self',
    tags,
    permissions,
    params: z.object({ token: checkoutTokenSchema }),
    summary:
      'Validate a checkout session for the payment page. 404 No checkout session found / User mismatch in checkout session; ' +
      '410 Checkout session expired; 409 used or cart changed',
    response: { description: 'The session with testMode and cardPaymentsAvailable', schema: session },
    errors: {
      409: 'Already used (checkout_session_used) or the cart changed since (checkout_cart_changed)',
      410: 'Checkout session expired (checkout_session_expired)',
    },
    handler: (actor, { params }, { ctx }) => checkout.getSession(ctx, actor, params),
  }),
];
