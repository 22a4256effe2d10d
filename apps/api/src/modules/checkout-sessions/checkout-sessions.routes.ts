import { z } from 'zod';
import { PERMISSIONS, checkoutSessionSchema, checkoutTokenSchema, createCheckoutSessionBodySchema, type CheckoutSession } from '@portal/contracts';
import type { AppContext } from '../../context';
import type { Db } from '../../db/knex';
import { route } from '../../http/route';
import { assertCardPaymentsReady, cardPaymentReadiness } from '../payments/readiness';
import * as checkout from './checkout-sessions.service';

/**
 * The session with whether its store takes cards (issue 16 §5), so the payment page shows the SETUP
 * message on its first load instead of a card form that cannot work.
 */
async function withCardReadiness(db: Db, ctx: AppContext, s: CheckoutSession): Promise<CheckoutSession> {
  return { ...s, cardPaymentsAvailable: (await cardPaymentReadiness(db, ctx.config, s.storeId)).cardPaymentsAvailable };
}

const session = checkoutSessionSchema.meta({ id: 'CheckoutSession' });
const tags = ['checkout'];
const permissions = [PERMISSIONS.cartsCheckout];

/** /api/v1/checkout-sessions: start and validate server-side checkout sessions (spec 001 §4, ARCHITECTURE §9). */
export const checkoutSessionsRoutes = [
  route({
    method: 'post', path: '/checkout-sessions', tags, permissions, body: createCheckoutSessionBodySchema,
    summary: 'Start checkout of the caller\'s active cart: a 30-minute session whose total is computed on the server',
    response: { status: 201, description: 'Session started; the token is shown only here', schema: session },
    errors: {
      409: 'An item is no longer sold by the store (checkout_items_unavailable)',
      422: 'Delivery chosen but the store does not deliver (delivery_unavailable), or Delivery (card only) at a store without card payments (payment_setup)',
    },
    handler: async (actor, { body }, { ctx, req }) => {
      // Delivery is paid by card only: at a store that cannot take cards it is refused here, up front
      // (issue 16 §5), and the session is not kept.
      const s = await ctx.db.transaction(async (trx) => {
        const started = await checkout.startCheckout(trx, actor.userId, body.cartId, ctx.config.paymentTestMode);
        if (started.fulfillmentType === 'Delivery') await assertCardPaymentsReady(trx, ctx.config, started.storeId, { delivery: true });
        return withCardReadiness(trx, ctx, started);
      });
      req.log.info({ cartId: body.cartId, total: s.total }, 'checkout session started');
      return s;
    },
  }),
  route({
    method: 'get', path: '/checkout-sessions/{token}', tags, permissions, params: z.object({ token: checkoutTokenSchema }),
    summary: 'Validate a checkout session for the payment page. 404 No checkout session found / User mismatch in checkout session; '
      + '410 Checkout session expired; 409 used or cart changed',
    response: { description: 'The session with testMode and cardPaymentsAvailable', schema: session },
    errors: {
      409: 'Already used (checkout_session_used) or the cart changed since (checkout_cart_changed)',
      410: 'Checkout session expired (checkout_session_expired)',
    },
    handler: async (actor, { params }, { ctx }) => withCardReadiness(ctx.db, ctx, await checkout.getSession(ctx.db, actor.userId, params.token, ctx.config.paymentTestMode)),
  }),
];
