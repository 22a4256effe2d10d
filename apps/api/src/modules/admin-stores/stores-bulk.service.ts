import type { z } from 'zod';
import type { adminStoresBulkBodySchema, AdminStoresBulkResult } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { AppError } from '../../http/errors';
import type { Actor } from '../access/access.service';
import { updateStore } from './admin-stores.service';

/**
 * PATCH /admin/stores/bulk (ARCHITECTURE §5 "Administration at scale"): the delivery settings (delivery on/off,
 * delivery charge, order confirmation CC emails) of many stores, each through the single store update
 * (`updateStore`: scope → 404 'Store not found or access denied', validation, one `store.updated` audit entry
 * per store) in its own transaction. A refused store answers `{ ok: false, code, message }`; the others go on.
 */
type BulkBody = z.output<typeof adminStoresBulkBodySchema>;

export async function bulkUpdateStores(db: Db, actor: Actor, body: BulkBody): Promise<AdminStoresBulkResult> {
  const patch = {
    ...(body.deliveryEnabled !== undefined ? { deliveryEnabled: body.deliveryEnabled } : {}),
    ...(body.deliveryCharge !== undefined ? { deliveryCharge: body.deliveryCharge } : {}),
    ...(body.orderconfCcemails !== undefined ? { orderconfCcemails: body.orderconfCcemails } : {}),
  };
  const results: AdminStoresBulkResult['results'] = [];
  for (const storeId of [...new Set(body.storeIds)]) {
    try {
      await updateStore(db, actor, storeId, patch);
      results.push({ storeId, ok: true });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      results.push({ storeId, ok: false, code: e.code, message: e.message });
    }
  }
  return { results };
}
