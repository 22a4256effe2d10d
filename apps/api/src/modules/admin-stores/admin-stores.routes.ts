import { z } from 'zod';
import {
  ADMIN_ORG_MESSAGES,
  PERMISSIONS,
  adminStorePageSchema,
  adminStoreSchema,
  ADMIN_BULK_MAX,
  adminStoresBulkBodySchema,
  adminStoresBulkResultSchema,
  adminStoresListQuerySchema,
  adminStoreIdsSchema,
  adminStoresFilterSchema,
  createStoreBodySchema,
  intIdSchema,
  storeOutletPageSchema,
  storeOutletParamsSchema,
  storeOutletsQuerySchema,
  updateStoreBodySchema,
} from '@portal/contracts';
import { route } from '../../http/route';
import { adminActor } from '../access/access.service';
import * as stores from './admin-stores.service';
import { bulkUpdateStores } from './stores-bulk.service';

const tags = ['admin: stores'];
const view = [PERMISSIONS.storesAdmin, PERMISSIONS.storesSuperAdmin];
/** ARCHITECTURE §9: bcc.stores.admin views (read-only editor); bcc.stores.super_admin adds, edits, assigns. */
const edit = [PERMISSIONS.storesSuperAdmin];
const forbiddenDetail = ADMIN_ORG_MESSAGES.storeModifyDenied;
const store = adminStoreSchema.meta({ id: 'AdminStore' });
const params = z.object({ storeId: intIdSchema });
const denied = { 403: `Missing bcc.stores.super_admin: '${forbiddenDetail}'`, 404: 'Store not found or access denied' };

/** /api/v1/admin/stores (spec 002 §2 Stores and the store editor, §5 store form, ARCHITECTURE §5, §9). */
export const adminStoresRoutes = [
  route({
    method: 'get',
    path: '/admin/stores',
    scope: 'reach',
    tags,
    permissions: view,
    query: adminStoresListQuerySchema,
    summary:
      "Stores in the caller's scope; search by name, warehouse code, city or number; filters boardId, deliveryEnabled, active, hasCredentials; sort id, name, city, board, delivery, active ('-' descending); page, pageSize (default 20), total",
    response: { description: 'A page of stores', schema: adminStorePageSchema },
    handler: (actor, { query }, { ctx }) => stores.listStores(ctx.db, actor, query),
  }),
  route({
    method: 'get',
    path: '/admin/stores/ids',
    scope: 'reach',
    tags,
    permissions: view,
    query: adminStoresFilterSchema,
    summary: 'The ids of every store the list shows for these filters (at most 10,000), for "select all N matching" and the bulk edit',
    response: { description: 'Ids by number, the total and whether the ids were cut short', schema: adminStoreIdsSchema },
    handler: (actor, { query }, { ctx }) => stores.listStoreIds(ctx.db, actor, query),
  }),
  route({
    method: 'post',
    path: '/admin/stores',
    scope: { row: 'board', id: (i) => i.body.boardId, fromBody: true, notFound: 'Board not found' },
    tags,
    permissions: edit,
    forbiddenDetail,
    body: createStoreBodySchema,
    summary: 'Add a store (name, warehouse code, board, city, state required; delivery charge ≥ 0; cc emails separated by semicolons)',
    response: { status: 201, description: 'The store', schema: store },
    errors: { ...denied, 409: 'Warehouse id or code already used (store_exists, warehouse_code_taken)' },
    handler: (actor, { body }, { ctx, req }) => stores.createStore(ctx.db, adminActor(actor, req), body),
  }),
  route({
    method: 'get',
    path: '/admin/stores/{storeId}',
    scope: { row: 'store', id: (i) => i.params.storeId, notFound: stores.STORE_NOT_FOUND },
    tags,
    permissions: view,
    params,
    summary: 'One store with its settings (hasPaymentCredentials false → the editor warns)',
    response: { description: 'The store', schema: store },
    errors: { 404: denied[404] },
    handler: (actor, { params: p }, { ctx }) => stores.getStore(ctx.db, actor, p.storeId),
  }),
  route({
    method: 'patch',
    path: '/admin/stores/bulk',
    scope: 'reach',
    tags,
    permissions: edit,
    forbiddenDetail,
    body: adminStoresBulkBodySchema,
    summary: `Delivery on/off, delivery charge and order confirmation cc emails of up to ${ADMIN_BULK_MAX} stores, each checked and audited as a single store edit`,
    response: {
      description: 'One result per store: ok, or the code and message the single edit would have answered',
      schema: adminStoresBulkResultSchema,
    },
    errors: { 400: 'No store ids, no setting, or an invalid charge or email list (validation_failed)' },
    handler: (actor, { body }, { ctx, req }) => bulkUpdateStores(ctx.db, adminActor(actor, req), body),
  }),
  route({
    method: 'patch',
    path: '/admin/stores/{storeId}',
    scope: { row: 'store', id: (i) => i.params.storeId, notFound: stores.STORE_NOT_FOUND },
    tags,
    permissions: edit,
    forbiddenDetail,
    params,
    body: updateStoreBodySchema,
    summary: 'Edit a store: details and settings (delivery enabled, delivery charge, order confirmation cc emails)',
    response: { description: 'The store', schema: store },
    errors: { ...denied, 409: 'Warehouse code already used (warehouse_code_taken)' },
    handler: (actor, { params: p, body }, { ctx, req }) => stores.updateStore(ctx.db, adminActor(actor, req), p.storeId, body),
  }),
  route({
    method: 'get',
    path: '/admin/stores/{storeId}/outlets',
    scope: { row: 'store', id: (i) => i.params.storeId, notFound: stores.STORE_NOT_FOUND },
    tags,
    permissions: view,
    params,
    query: storeOutletsQuerySchema,
    summary:
      'The outlets assigned to a store, by name: a page with search (name, code or city) and the total; all of them without pageSize',
    response: { description: 'Assigned outlets by name', schema: storeOutletPageSchema },
    errors: { 404: denied[404] },
    handler: (actor, { params: p, query }, { ctx }) => stores.listStoreOutlets(ctx.db, actor, p.storeId, query),
  }),
  route({
    method: 'put',
    path: '/admin/stores/{storeId}/outlets/{outletId}',
    scope: { row: 'store', id: (i) => i.params.storeId, notFound: stores.STORE_NOT_FOUND },
    tags,
    permissions: edit,
    forbiddenDetail,
    params: storeOutletParamsSchema,
    summary: 'Assign an outlet to a store (idempotent)',
    errors: denied,
    handler: async (actor, { params: p }, { ctx, req }) => {
      await stores.assignOutlet(ctx.db, adminActor(actor, req), p.storeId, p.outletId);
    },
  }),
  route({
    method: 'delete',
    path: '/admin/stores/{storeId}/outlets/{outletId}',
    scope: { row: 'store', id: (i) => i.params.storeId, notFound: stores.STORE_NOT_FOUND },
    tags,
    permissions: edit,
    forbiddenDetail,
    params: storeOutletParamsSchema,
    summary: 'Remove an outlet from a store (idempotent)',
    errors: denied,
    handler: async (actor, { params: p }, { ctx, req }) => {
      await stores.removeOutlet(ctx.db, adminActor(actor, req), p.storeId, p.outletId);
    },
  }),
];
