import { z } from 'zod';
import {
  PERMISSIONS,
  deliveriesQuerySchema,
  deliveryListSchema,
  intIdSchema,
  orderScheduleSchema,
  outletScheduleOverrideBodySchema,
  outletScheduleOverrideSchema,
} from '@portal/contracts';
import { route } from '../../http/route';
import * as overrides from './overrides.service';
import * as schedules from './schedules.service';

const tags = ['ordering'];
// The outlet id is read by the service after the store's scope check (a refusal says nothing of the input).
const storeOutlet = z.object({ storeId: intIdSchema, outletId: z.string().meta({ description: 'Outlet id' }) });
const override = outletScheduleOverrideSchema.meta({ id: 'OutletScheduleOverride' });

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
  route({
    method: 'get',
    path: '/admin/stores/{storeId}/outlets/{outletId}/schedule',
    scope: { row: 'store', id: (i) => i.params.storeId, notFound: 'Store not found or access denied' },
    tags,
    params: storeOutlet,
    permissions: [PERMISSIONS.storesAdmin, PERMISSIONS.storesSuperAdmin],
    summary: "An outlet's overrides of the store's order schedule (null: the store's value)",
    response: { description: 'The overrides', schema: override },
    errors: { 404: "Store not in the caller's scope, or the outlet does not order from it" },
    handler: (_actor, { params }, { ctx }) => overrides.getOverride(ctx.db, params.storeId, params.outletId),
  }),
  route({
    method: 'put',
    path: '/admin/stores/{storeId}/outlets/{outletId}/schedule',
    scope: { row: 'store', id: (i) => i.params.storeId, notFound: 'Store not found or access denied' },
    tags,
    params: storeOutlet,
    permissions: [PERMISSIONS.storesSuperAdmin],
    body: outletScheduleOverrideBodySchema,
    summary: "Set an outlet's overrides of the store's order days, cut-off, lead days or emergency allowance (null clears one). Audited",
    response: { description: 'The overrides now', schema: override },
    errors: { 404: "Store not in the caller's scope, or the outlet does not order from it" },
    handler: (actor, { params, body }, { ctx, req }) =>
      overrides.setOverride(ctx.db, { ...actor, ip: req.ip ?? null }, params.storeId, params.outletId, body),
  }),
];
