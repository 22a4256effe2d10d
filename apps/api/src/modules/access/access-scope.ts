import type { Knex } from 'knex';
import { PERMISSIONS } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { Principal } from './access.repository';

/**
 * The "manageable outlets" rule of user administration (spec 002 §6, ARCHITECTURE §4): which
 * outlets a caller may assign, unassign and whose users they may manage. Shared by admin users and invitations.
 *
 * - bcc.users.super_admin: every outlet;
 * - bcc.users.manage_board: the outlets of the boards of the caller's own outlets (`outlets.board_id`);
 * - bcc.users.manage_store: the outlets linked (store_outlets) to the stores linked to the caller's outlets;
 * - bcc.users.manage_outlet: the caller's own outlets.
 * A caller holding several gets the union. Outside super administration the system admin outlets
 * (`is_admin_outlet`) are never manageable.
 */
export type OutletScopeKind = 'all' | 'board' | 'store' | 'outlet' | 'none';

/** The widest scope the caller's permissions give (for labels: `all` > `board` > `store` > `outlet` > `none`). */
export function outletScopeKind(actor: Pick<Principal, 'permissions'>): OutletScopeKind {
  const p = actor.permissions;
  if (p.has(PERMISSIONS.usersSuperAdmin)) return 'all';
  if (p.has(PERMISSIONS.usersManageBoard)) return 'board';
  if (p.has(PERMISSIONS.usersManageStore)) return 'store';
  if (p.has(PERMISSIONS.usersManageOutlet)) return 'outlet';
  return 'none';
}

/**
 * A subquery selecting the ids of the outlets the caller may manage (one column `id`), for
 * `whereIn('x.outlet_id', manageableOutletsQuery(db, actor))`; `null` for super administrators (every
 * outlet: skip the filter). With none of the four permissions it selects nothing.
 */
export function manageableOutletsQuery(
  db: Db | Knex.Transaction,
  actor: Pick<Principal, 'userId' | 'permissions'>,
): Knex.QueryBuilder | null {
  const p = actor.permissions;
  if (p.has(PERMISSIONS.usersSuperAdmin)) return null;
  const own = () => db('user_outlets').where('user_id', actor.userId).select('outlet_id');
  return db('outlets as mo')
    .select('mo.id')
    .where('mo.is_admin_outlet', false)
    .andWhere((w) => {
      w.whereRaw('false');
      if (p.has(PERMISSIONS.usersManageBoard)) {
        w.orWhereIn('mo.board_id', db('outlets as bo').whereIn('bo.id', own()).whereNotNull('bo.board_id').select('bo.board_id'));
      }
      if (p.has(PERMISSIONS.usersManageStore)) {
        w.orWhereIn(
          'mo.id',
          db('store_outlets as so2')
            .whereIn('so2.store_id', db('store_outlets as so1').whereIn('so1.outlet_id', own()).select('so1.store_id'))
            .select('so2.outlet_id'),
        );
      }
      if (p.has(PERMISSIONS.usersManageOutlet)) w.orWhereIn('mo.id', own());
    });
}

/** May the caller manage this outlet (assign it, unassign it)? */
export async function canManageOutlet(
  db: Db | Knex.Transaction,
  actor: Pick<Principal, 'userId' | 'permissions'>,
  outletId: number,
): Promise<boolean> {
  const q = manageableOutletsQuery(db, actor);
  if (!q) return true;
  return Boolean(await db.from(q.as('m')).where('m.id', outletId).first('m.id'));
}
