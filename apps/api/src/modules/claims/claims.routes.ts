import { z } from 'zod';
import {
  ORDER_MESSAGES,
  PERMISSIONS,
  claimListSchema,
  claimSchema,
  createClaimBodySchema,
  intIdSchema,
  resolveClaimBodySchema,
} from '@portal/contracts';
import { route } from '../../http/route';
import * as claims from './claims.service';

const tags = ['claims'];
const claim = claimSchema.meta({ id: 'Claim' });
const orderIdParams = z.object({ orderId: intIdSchema });

/** Claims after delivery (issue 28 §4, ARCHITECTURE §5 "The licensee's ordering week"). */
export const claimsRoutes = [
  route({
    method: 'post',
    path: '/orders/{orderId}/claims',
    scope: { row: 'ownOrder', id: (i) => i.params.orderId, notFound: ORDER_MESSAGES.notFound },
    tags,
    params: orderIdParams,
    body: createClaimBodySchema,
    summary: "Report damaged, leaking, wrong or short lines of one's own order within 48 hours of its completion; the store is mailed",
    response: { status: 201, description: 'The claim, open', schema: claim },
    errors: {
      404: "Not one's order",
      409: 'The order is not completed (claim_order_not_completed), or completed more than 48 hours ago (claim_window_closed)',
      422: 'More bottles than ordered (less those claimed already), or a code not on the order (claim_quantity_exceeded)',
    },
    handler: (actor, { params, body }, { ctx, req }) =>
      claims.openClaim({ db: ctx.db, mailer: ctx.mailer, logger: req.log }, { ...actor, ip: req.ip ?? null }, params.orderId, body),
  }),
  route({
    method: 'get',
    path: '/orders/{orderId}/claims',
    scope: { row: 'order', id: (i) => i.params.orderId, notFound: ORDER_MESSAGES.notFound },
    tags,
    params: orderIdParams,
    summary: "The claims of an order (its buyer, the outlet's managers, the store's staff)",
    response: { description: 'Claims, oldest first, with their lines and outcomes', schema: claimListSchema },
    handler: (_actor, { params }, { ctx }) => claims.listClaims(ctx.db, params.orderId),
  }),
  route({
    method: 'post',
    path: '/claims/{claimId}/resolve',
    scope: { row: 'claim', id: (i) => i.params.claimId, notFound: 'Claim not found' },
    tags,
    params: z.object({ claimId: intIdSchema }),
    permissions: [PERMISSIONS.ordersStoreManage],
    body: resolveClaimBodySchema,
    summary:
      "Resolve a claim for the order's store: credit (each line's quantity × price), replace or rejected, with a reason; the buyer is mailed",
    response: { description: 'The claim, resolved', schema: claim },
    errors: { 403: 'Not store staff', 404: "Claim not found (or not in the caller's reach)", 409: 'Resolved already (claim_resolved)' },
    handler: (actor, { params, body }, { ctx, req }) =>
      claims.resolveClaim({ db: ctx.db, mailer: ctx.mailer, logger: req.log }, { ...actor, ip: req.ip ?? null }, params.claimId, body),
  }),
];
