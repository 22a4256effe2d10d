import { z } from 'zod';
import {
  adminOutletPageSchema,
  adminOutletSchema,
  adminOutletsListQuerySchema,
  createOutletBodySchema,
  intIdSchema,
  updateOutletBodySchema,
} from '@portal/contracts';
import { route } from '../../http/route';
import { adminActor } from '../access/access.service';
import * as outlets from './admin-outlets.service';

const tags = ['admin: outlets'];
const permissions = outlets.OUTLET_ADMIN_CODES;
const outlet = adminOutletSchema.meta({ id: 'AdminOutlet' });

/** /api/v1/admin/outlets (spec 002 §2 Outlets, §5 Outlet rules, ARCHITECTURE §5): list, create, edit. */
export const adminOutletsRoutes = [
  route({
    method: 'get',
    path: '/admin/outlets',
    tags,
    permissions,
    scope: 'reach',
    query: adminOutletsListQuerySchema,
    summary:
      "Outlets of the caller's boards with board and store names; search by name, code or city; filters boardId, storeId (linked), active; sort id, name, code, city, state, active, board ('-' descending); page, pageSize, total",
    response: { description: 'A page of outlets', schema: adminOutletPageSchema },
    handler: (actor, { query }, { ctx }) => outlets.listOutlets(ctx.db, actor, query),
  }),
  route({
    method: 'post',
    path: '/admin/outlets',
    tags,
    permissions,
    scope: { row: 'board', id: (i) => i.body.boardId, fromBody: true, notFound: 'Board not found' },
    body: createOutletBodySchema,
    summary: 'Add an outlet (name and code required, code unique, state two letters, upper-cased)',
    response: { status: 201, description: 'The outlet', schema: outlet },
    errors: {
      409: 'Outlet code already used (outlet_code_taken)',
      400: "Board or default store not in the caller's scope (validation_failed)",
    },
    handler: (actor, { body }, { ctx, req }) => outlets.createOutlet(ctx.db, adminActor(actor, req), body),
  }),
  route({
    method: 'patch',
    path: '/admin/outlets/{outletId}',
    tags,
    permissions,
    scope: { row: 'outlet', id: (i) => i.params.outletId, notFound: 'Outlet not found' },
    params: z.object({ outletId: intIdSchema }),
    body: updateOutletBodySchema,
    summary: "Edit an outlet of the caller's boards",
    response: { description: 'The outlet', schema: outlet },
    errors: { 404: "No such outlet in the caller's boards", 409: 'Outlet code already used (outlet_code_taken)' },
    handler: (actor, { params, body }, { ctx, req }) => outlets.updateOutlet(ctx.db, adminActor(actor, req), params.outletId, body),
  }),
];
