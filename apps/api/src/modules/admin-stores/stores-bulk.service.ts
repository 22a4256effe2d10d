import type { z } from 'zod';
import type { adminStoresBulkBodySchema, AdminStoresBulkResult } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { AppError } from '../../http/errors';
import type { Actor } from '../access/access.service';
import { updateStore } from './admin-stores.service';

/**
 * PATCH /admin/stores/bulk (ARCHITECTURE §5 "Administration at scale"): settings of many stores (delivery on/off,
 * delivery charge, order confirmation CC emails, split-case policy, and issue 28's order days, cut-off, lead days,
 * delivery minimums, emergency allowance and fee), each through the single store update
 * (`updateStore`: scope → 404 'Store not found or access denied', validation, one `store.updated` audit entry
 * per store) in its own transaction. A refused store answers `{ ok: false, code, message }`; the others go on.
 */
type BulkBody = z.output<typeof adminStoresBulkBodySchema>;

export async function bulkUpdateStores(db: Db, actor: Actor, body: BulkBody): Promise<AdminStoresBulkResult> {
  // Fields left out are undefined, which the single update skips.
  const { storeIds, ...patch } = body;
  const results: AdminStoresBulkResult['results'] = [];
  for (const storeId of [...new Set(storeIds)]) {
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
