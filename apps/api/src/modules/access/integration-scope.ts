import { PERMISSIONS } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { BadRequestError, NotFoundError } from '../../http/errors';
import type { Knex } from 'knex';
import { can, whereStoreOrBoardInReach, type Actor } from './access.service';
import { boardExists, storeExists } from './places.repository';

/**
 * Who manages API keys and webhooks (ARCHITECTURE §10, §11): at the stores and boards where they hold one of
 * these codes — a store grant reaches that store's keys only, never another store's nor its board's.
 * Shared by the integrations (API keys) and webhooks (endpoints) modules, so it lives with the scope rules.
 */
export const INTEGRATION_ADMIN_CODES = [PERMISSIONS.storesAdmin, PERMISSIONS.boardsManage, PERMISSIONS.usersSuperAdmin] as const;

/** Checks that `storeId` / `boardId` is a place where the administrator holds one of the codes (404 otherwise). */
export async function assertScope(db: Db, a: Actor, s: { storeId?: number | null; boardId?: number | null }): Promise<void> {
  if (s.storeId != null) {
    const exists = await storeExists(db, s.storeId);
    if (!exists || !(await can(db, a, INTEGRATION_ADMIN_CODES, { type: 'store', id: s.storeId })))
      throw new NotFoundError('Store not found');
  } else if (s.boardId != null) {
    const exists = await boardExists(db, s.boardId);
    if (!exists || !(await can(db, a, INTEGRATION_ADMIN_CODES, { type: 'board', id: s.boardId })))
      throw new NotFoundError('Board not found');
  } else {
    throw new BadRequestError('Choose a store or a board', [{ path: 'storeId', message: 'Choose a store or a board' }]);
  }
}

/**
 * Narrows a query (API keys, webhook endpoints: rows with store_id / board_id) to the places where `a` holds
 * INTEGRATION_ADMIN_CODES; for repositories that take the caller's reach as a callback.
 */
export const integrationReach =
  (db: Db, a: Actor) =>
  (q: Knex.QueryBuilder): Knex.QueryBuilder =>
    whereStoreOrBoardInReach(db, a, INTEGRATION_ADMIN_CODES, q);
