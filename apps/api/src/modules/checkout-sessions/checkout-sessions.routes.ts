import { Router } from 'express';
import { z } from 'zod';
import { PERMISSIONS, checkoutSessionSchema, checkoutTokenSchema, createCheckoutSessionBodySchema } from '@portal/contracts';
import type { AppContext } from '../../context';
import { authenticate, principalOf, requirePermission } from '../../http/auth';
import { documentRoute, jsonBody, jsonResponse, problemResponse } from '../../http/openapi';
import * as checkout from './checkout-sessions.service';

const session = checkoutSessionSchema.meta({ id: 'CheckoutSession' });
documentRoute({
  method: 'post', path: '/checkout-sessions', tags: ['checkout'],
  summary: 'Start checkout of the caller\'s active cart (needs bcc.carts.checkout): a 30-minute session whose total is computed on the server',
  request: { body: jsonBody(createCheckoutSessionBodySchema) },
  responses: {
    201: jsonResponse('Session started; the token is shown only here', session),
    409: problemResponse('An item is no longer sold by the store (checkout_items_unavailable)'),
    422: problemResponse('Delivery chosen but the store does not deliver (delivery_unavailable)'),
  },
});
documentRoute({
  method: 'get', path: '/checkout-sessions/{token}', tags: ['checkout'],
  summary: 'Validate a checkout session for the payment page (needs bcc.carts.checkout). 404 No checkout session found / User mismatch in checkout session; 410 Checkout session expired; 409 used or cart changed',
  request: { params: z.object({ token: checkoutTokenSchema }) },
  responses: {
    200: jsonResponse('The session with testMode', session),
    409: problemResponse('Already used (checkout_session_used) or the cart changed since (checkout_cart_changed)'),
    410: problemResponse('Checkout session expired (checkout_session_expired)'),
  },
});

/** /api/v1/checkout-sessions: start and validate server-side checkout sessions (spec 001 §4, ARCHITECTURE §9). */
export function checkoutSessionsRoutes(ctx: AppContext) {
  const r = Router();
  r.use(authenticate(ctx.db, ctx.config.jwtSecret), requirePermission(PERMISSIONS.cartsCheckout));
  r.post('/', async (req, res) => {
    const { cartId } = createCheckoutSessionBodySchema.parse(req.body);
    const s = await checkout.startCheckout(ctx.db, principalOf(req).userId, cartId, ctx.config.paymentTestMode);
    req.log.info({ cartId, total: s.total }, 'checkout session started');
    res.status(201).json(s);
  });
  r.get('/:token', async (req, res) => {
    const token = checkoutTokenSchema.parse(req.params.token);
    res.json(await checkout.getSession(ctx.db, principalOf(req).userId, token, ctx.config.paymentTestMode));
  });
  return r;
}
