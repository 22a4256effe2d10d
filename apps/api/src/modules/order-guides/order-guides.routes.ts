import { z } from 'zod';
import {
  ORDERING_MESSAGES,
  createOrderGuideBodySchema,
  guideToCartBodySchema,
  guideToCartResultSchema,
  intIdSchema,
  orderGuideListQuerySchema,
  orderGuideListSchema,
  orderGuideSchema,
  suggestedOrderQuerySchema,
  suggestedOrderSchema,
  updateOrderGuideBodySchema,
} from '@portal/contracts';
import { route } from '../../http/route';
import * as guides from './order-guides.service';
import { suggestedOrder } from './suggestions.service';

const tags = ['order-guides'];
const permissions = guides.GUIDE_CODES;
const outletParams = z.strictObject({ outletId: intIdSchema });
const guideParams = z.strictObject({ guideId: intIdSchema });
const guideScope = {
  row: 'orderGuide' as const,
  id: (i: { params: { guideId: number } }) => i.params.guideId,
  notFound: ORDERING_MESSAGES.guideNotFound,
};
const guide = { description: 'The guide with its lines by position', schema: orderGuideSchema };

/**
 * Order guides and the suggested order (ARCHITECTURE §5 "The licensee's ordering week", issue 27): the outlet's
 * members holding bcc.carts.use there read and write its guides; another outlet's guide answers 404.
 */
export const orderGuidesRoutes = [
  route({
    method: 'get',
    path: '/outlets/{outletId}/order-guides',
    scope: { row: 'outletMember', id: (i) => i.params.outletId, notFound: 'Outlet not found' },
    tags,
    permissions,
    params: outletParams,
    query: orderGuideListQuerySchema,
    response: { description: "The outlet's guides by name", schema: orderGuideListSchema },
    summary: "The outlet's order guides (optionally of one store)",
    handler: (actor, { params, query }, { ctx }) => guides.listGuides(ctx.db, actor, params.outletId, query.storeId),
  }),
  route({
    method: 'post',
    path: '/outlets/{outletId}/order-guides',
    scope: { row: 'outletMember', id: (i) => i.params.outletId, notFound: 'Outlet not found' },
    tags,
    permissions,
    params: outletParams,
    body: createOrderGuideBodySchema,
    response: { status: 201, ...guide },
    errors: { 404: 'The store does not serve the outlet', 409: 'The outlet has a guide of this name (guide_name_taken)' },
    summary: 'Create an order guide: { name, storeId, lines: [{ itemCode, parQuantity }] } (par = bottles wanted on the shelf)',
    handler: (actor, { params, body }, { ctx }) => guides.createGuide(ctx.db, actor, params.outletId, body),
  }),
  route({
    method: 'get',
    path: '/order-guides/{guideId}',
    scope: guideScope,
    tags,
    permissions,
    params: guideParams,
    response: guide,
    summary: 'One order guide with its lines (name, carried, store on-hand, bottles per case, quantity rule)',
    handler: (actor, { params }, { ctx }) => guides.getGuide(ctx.db, actor, params.guideId),
  }),
  route({
    method: 'patch',
    path: '/order-guides/{guideId}',
    scope: guideScope,
    tags,
    permissions,
    params: guideParams,
    body: updateOrderGuideBodySchema,
    response: guide,
    errors: { 409: 'The outlet has a guide of this name (guide_name_taken)' },
    summary: 'Rename a guide and/or replace its lines (their order is the new order)',
    handler: (actor, { params, body }, { ctx }) => guides.updateGuide(ctx.db, actor, params.guideId, body),
  }),
  route({
    method: 'delete',
    path: '/order-guides/{guideId}',
    scope: guideScope,
    tags,
    permissions,
    params: guideParams,
    response: { status: 204, description: 'Deleted' },
    summary: 'Delete an order guide',
    handler: async (actor, { params }, { ctx }) => {
      await guides.deleteGuide(ctx.db, actor, params.guideId);
    },
  }),
  route({
    method: 'post',
    path: '/order-guides/{guideId}/to-cart',
    scope: guideScope,
    tags,
    permissions,
    params: guideParams,
    body: guideToCartBodySchema,
    response: {
      description: 'Lines added (their cart quantity now), lines skipped with the reason, and the cart',
      schema: guideToCartResultSchema,
    },
    summary:
      "Fill the outlet × store cart from a guide: par − on hand (blank = 0) rounded up to each item's rule; lines not carried, inactive or needing nothing are listed in skipped",
    handler: (actor, { params, body }, { ctx }) => guides.guideToCart(ctx.db, actor, params.guideId, body),
  }),
  route({
    method: 'get',
    path: '/outlets/{outletId}/stores/{storeId}/suggested-order',
    scope: { row: 'shop', id: (i) => i.params, notFound: 'Store not found' },
    tags,
    permissions,
    params: z.strictObject({ outletId: intIdSchema, storeId: intIdSchema }),
    query: suggestedOrderQuerySchema,
    response: { description: 'Suggested lines with their basis', schema: suggestedOrderSchema },
    summary:
      "A suggested order: the outlet's average weekly bottles over the last N weeks (1–52, default 8) × 1 week, rounded up to each item's rule; for an outlet without history there, the store's real history",
    handler: (actor, { params, query }, { ctx }) => suggestedOrder(ctx.db, actor, { ...params, weeks: query.weeks }),
  }),
];
