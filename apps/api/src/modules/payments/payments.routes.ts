import { z } from 'zod';
import { PERMISSIONS, intIdSchema, paymentReadinessSchema } from '@portal/contracts';
import { route } from '../../http/route';
import { cardPaymentReadiness } from './readiness';

const params = z.strictObject({ storeId: intIdSchema });

/**
 * /api/v1/stores/{storeId}/payment-readiness: whether a store takes card payments, for the
 * payment page, Store Orders (a manager's warning) and the store's admin Settings. Any signed-in person
 * who shops at the store (a member of an outlet it serves) or holds one of the store codes there (ARCHITECTURE
 * §11) may ask; any other store answers 404 (the route's declared `browse` scope).
 */
export const paymentsRoutes = [
  route({
    method: 'get',
    path: '/stores/{storeId}/payment-readiness',
    tags: ['payments'],
    params,
    scope: { row: 'browse', id: (i) => i.params.storeId, notFound: 'Store not found' },
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
    handler: (_actor, { params: p }, { ctx }) => cardPaymentReadiness(ctx.db, ctx.config, p.storeId),
  }),
];
