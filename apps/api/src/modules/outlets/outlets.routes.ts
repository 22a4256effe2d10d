import { PERMISSIONS, outletIdParamsSchema, outletStoresSchema } from '@portal/contracts';
import { route } from '../../http/route';
import * as outletsService from './outlets.service';

/** /api/v1/outlets: the stores an outlet buys from (spec 000 §3, §7). */
export const outletsRoutes = [
  route({
    method: 'get',
    path: '/outlets/{outletId}/stores',
    scope: { row: 'outlet', id: (i) => i.params.outletId, notFound: 'Outlet not found' },
    tags: ['outlets'],
    permissions: [PERMISSIONS.outletsReadAssigned],
    summary: 'Active stores of one of my outlets',
    params: outletIdParamsSchema,
    response: { description: 'Stores', schema: outletStoresSchema },
    handler: (actor, { params }, { ctx }) => outletsService.listOutletStores(ctx.db, actor, params),
  }),
];
