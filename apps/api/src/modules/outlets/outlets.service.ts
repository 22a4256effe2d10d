import type { StoreSummary } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { NotFoundError } from '../../http/errors';
import type { Actor } from '../access/access.service';
import * as repo from './outlets.repository';

/**
 * The active stores of an outlet (spec 000 §7 get_stores_for_outlet). The route's declared scope (the outlet,
 * bcc.outlets.read_assigned held there: a member, or a store or board grant covering it; ARCHITECTURE §11) is
 * checked before this runs; an inactive outlet answers 404 like an absent one.
 */
export async function listOutletStores(db: Db, _actor: Actor, { outletId }: { outletId: number }): Promise<{ items: StoreSummary[] }> {
  if (!(await repo.isActive(db, outletId))) throw new NotFoundError('Outlet not found');
  return { items: await repo.listActiveStores(db, outletId) };
}
