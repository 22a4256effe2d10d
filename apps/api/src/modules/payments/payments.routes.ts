import { z } from 'zod';
import { PERMISSIONS, intIdSchema, paymentReadinessSchema } from '@portal/contracts';
import { route } from '../../http/route';
import { NotFoundError } from '../../http/errors';
import { canReachStore } from '../access/access.service';
import { storeInScope } from '../boards/board-scope';
import { cardPaymentReadiness } from './readiness';

const params = z.strictObject({ storeId: intIdSchema });

/**
 * /api/v1/stores/{storeId}/payment-readiness: whether a store takes card payments, for the
 * payment page, Store Orders (a manager's warning) and the store's admin Settings. Any signed-in person
 * who shops, manages store orders or administers stores or credentials may ask about a store they reach
 * through their outlets or administer; any other store answers 404.
 */
export const paymentsRoutes = [
  route({
    method: 'get',
    path: '/stores/{storeId}/payment-readiness',
    tags: ['payments'],
    params,
    permissions: [
      PERMISSIONS.cartsUse,
      PERMISSIONS.ordersStoreManage,
      PERMISSIONS.storesAdmin,
      PERMISSIONS.storesSuperAdmin,
      PERMISSIONS.adminCredentialsManage,
    ],
    summary: 'Whether the store takes card payments now (test mode, gateway, readable credentials), and why not',
    response: { description: 'Card payment readiness', schema: paymentReadinessSchema.meta({ id: 'PaymentReadiness' }) },
    errors: { 404: 'Store not found (or not yours)' },
    handler: async (actor, { params: p }, { ctx }) => {
      const mine = (await canReachStore(ctx.db, actor.userId, p.storeId)) || (await storeInScope(ctx.db, actor, p.storeId));
      if (!mine || !(await ctx.db('stores').where({ id: p.storeId }).first('id'))) throw new NotFoundError('Store not found');
      return cardPaymentReadiness(ctx.db, ctx.config, p.storeId);
    },
  }),
];
