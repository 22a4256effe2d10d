import { z } from 'zod';
import { PERMISSIONS, deliveriesQuerySchema, deliveryListSchema, intIdSchema, orderScheduleSchema } from '@portal/contracts';
import { route } from '../../http/route';
import * as schedules from './schedules.service';

const tags = ['ordering'];

/** The order schedule and the store's deliveries (issue 28 §1, ARCHITECTURE §5 "The licensee's ordering week"). */
export const schedulesRoutes = [
  route({
    method: 'get',
    path: '/outlets/{outletId}/stores/{storeId}/schedule',
    scope: { row: 'shop', id: (i) => ({ outletId: i.params.outletId, storeId: i.params.storeId }), notFound: 'Store not found' },
    tags,
    params: z.object({ outletId: intIdSchema, storeId: intIdSchema }),
    permissions: [PERMISSIONS.cartsUse],
    summary:
      "The outlet's ordering calendar at a store: order days, cut-off (store time zone), the next cut-off and delivery date, minimums, emergency orders left",
    response: { description: 'The schedule', schema: orderScheduleSchema.meta({ id: 'OrderSchedule' }) },
    errors: { 404: 'The outlet × store is not one the caller shops at' },
    handler: (_actor, { params }, { ctx }) => schedules.getSchedule(ctx.db, params.outletId, params.storeId),
  }),
  route({
    method: 'get',
    path: '/stores/{storeId}/deliveries',
    scope: { row: 'store', id: (i) => i.params.storeId, notFound: 'Store not found' },
    tags,
    params: z.object({ storeId: intIdSchema }),
    query: deliveriesQuerySchema,
    permissions: [PERMISSIONS.ordersStoreManage],
    summary: "The store's Delivery orders due on a date (default tomorrow in the store's time zone), by outlet",
    response: { description: 'Deliveries of the day', schema: deliveryListSchema.meta({ id: 'DeliveryList' }) },
    errors: { 404: "The store is not in the caller's reach" },
    handler: (_actor, { params, query }, { ctx }) => schedules.listDeliveries(ctx.db, params.storeId, query.date),
  }),
];
