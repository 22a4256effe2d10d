import { Router } from 'express';
import { PERMISSIONS, outletIdParamsSchema, outletStoresSchema } from '@portal/contracts';
import type { AppContext } from '../../context';
import { authenticate, principalOf, requirePermission } from '../../http/auth';
import { documentRoute, jsonResponse } from '../../http/openapi';
import * as outletsService from './outlets.service';

documentRoute({
  method: 'get', path: '/outlets/{outletId}/stores', summary: `Active stores of one of my outlets (needs ${PERMISSIONS.outletsReadAssigned})`, tags: ['outlets'],
  request: { params: outletIdParamsSchema }, responses: { 200: jsonResponse('Stores', outletStoresSchema) },
});

/** /api/v1/outlets: the stores an outlet buys from (spec 000 §3, §7). */
export function outletsRoutes(ctx: AppContext) {
  const r = Router();
  const signedIn = authenticate(ctx.db, ctx.config.jwtSecret);

  r.get('/:outletId/stores', signedIn, requirePermission(PERMISSIONS.outletsReadAssigned), async (req, res) => {
    const { outletId } = outletIdParamsSchema.parse(req.params);
    res.json({ items: await outletsService.listOutletStores(ctx.db, principalOf(req).userId, outletId) });
  });

  return r;
}
