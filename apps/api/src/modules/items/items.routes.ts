import { z } from 'zod';
import { adminItemPageSchema, adminItemSchema, adminItemsListQuerySchema, intIdSchema, updateItemBodySchema } from '@portal/contracts';
import { route } from '../../http/route';
import { adminActor } from '../access/access.service';
import * as items from './items.service';

const tags = ['admin: items'];
const item = adminItemSchema.meta({ id: 'AdminItem' });
const params = z.object({ itemId: intIdSchema });
const view = items.ITEM_VIEW_CODES;
const update = items.ITEM_UPDATE_CODES;
const notFound = 'Item not found';

/** /api/v1/admin/items (spec 002 §2 Items, §6 bcc.items.* and bcc.item.*): page of 20, search, edit. */
export const itemsRoutes = [
  route({
    method: 'get',
    path: '/admin/items',
    tags,
    permissions: view,
    scope: 'reach',
    query: adminItemsListQuerySchema,
    summary:
      "Items of the caller's boards: 20 per page (pageSize up to 100), search by name or code, filters active, category, bottleSizeMl; sort code, name, category, size, retail, active ('-' descending); total",
    response: { description: 'A page of items', schema: adminItemPageSchema },
    handler: (actor, { query }, { ctx }) => items.listItems(ctx.db, actor, query),
  }),
  route({
    method: 'get',
    path: '/admin/items/{itemId}',
    tags,
    permissions: view,
    scope: { row: 'item', id: (i) => i.params.itemId, notFound },
    params,
    summary: "One item of the caller's boards",
    response: { description: 'The item', schema: item },
    errors: { 404: "No such item in the caller's boards" },
    handler: (actor, { params: p }, { ctx }) => items.getItem(ctx.db, actor, p.itemId),
  }),
  route({
    method: 'patch',
    path: '/admin/items/{itemId}',
    tags,
    permissions: update,
    scope: { row: 'itemEdit', id: (i) => i.params.itemId, notFound },
    params,
    body: updateItemBodySchema,
    summary:
      'Edit an item: name, category, retail price (≥ 0, 2 decimals), active (available online), quantity rule { min, max, increment } (null removes it)',
    response: { description: 'The item', schema: item },
    errors: { 404: "No such item in the caller's boards" },
    handler: (actor, { params: p, body }, { ctx, req }) => items.updateItem(ctx.db, adminActor(actor, req), p.itemId, body),
  }),
];
