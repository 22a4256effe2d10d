import type { StoreSummary } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { NotFoundError } from '../../http/errors';
import { canReachOutlet, type Principal } from '../access/access.service';
import * as repo from './outlets.repository';

/**
 * The active stores of one of the user's outlets (spec 000 §7 get_stores_for_outlet). An outlet the
 * user is not assigned to, or an inactive one, answers 404 (ARCHITECTURE §4: not yours = not found).
 */
export async function listOutletStores(db: Db, actor: Principal, { outletId }: { outletId: number }): Promise<{ items: StoreSummary[] }> {
  if (!(await canReachOutlet(db, actor.userId, outletId))) throw new NotFoundError('Outlet not found');
  return { items: await repo.listActiveStores(db, outletId) };
}
