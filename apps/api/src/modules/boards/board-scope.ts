import type { Knex } from 'knex';
import { PERMISSIONS } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { Principal } from '../access/access.service';

/**
 * The data scope of the administration screens (ARCHITECTURE §5 "Administration"):
 * - a super administrator (bcc.users.super_admin) reaches every board, item, outlet and store;
 * - anyone else reaches the boards of their own outlets (`outlets.board_id`, and the boards of the stores
 *   linked to those outlets), with those boards' items and outlets;
 * - stores: bcc.stores.super_admin reaches every store ("edit any store"); board administrators
 *   (bcc.boards.manage or bcc.users.manage_board) their boards' stores; other store administrators only the
 *   stores linked to their own outlets.
 * Rows outside the scope answer 404 (never 403), so their existence is not revealed.
 */
export type Actor = Pick<Principal, 'userId' | 'permissions'>;
type Conn = Db | Knex.Transaction;

export const isSuperAdmin = (actor: Actor) => actor.permissions.has(PERMISSIONS.usersSuperAdmin);
const isBoardAdmin = (actor: Actor) =>
  actor.permissions.has(PERMISSIONS.boardsManage) || actor.permissions.has(PERMISSIONS.usersManageBoard);

const ownOutlets = (db: Conn, actor: Actor) => db('user_outlets').where('user_id', actor.userId).select('outlet_id');

/** Subquery of the board ids in the caller's scope (one column `board_id`); null = every board. */
export function boardScopeQuery(db: Conn, actor: Actor): Knex.QueryBuilder | null {
  if (isSuperAdmin(actor)) return null;
  const fromOutlets = db('outlets as o').whereIn('o.id', ownOutlets(db, actor)).whereNotNull('o.board_id').select('o.board_id');
  const fromStores = db('stores as s')
    .whereIn('s.id', db('store_outlets').whereIn('outlet_id', ownOutlets(db, actor)).select('store_id'))
    .select('s.board_id');
  return fromOutlets.union(fromStores);
}

/** Subquery of the store ids in the caller's scope (column `id`); null = every store. */
export function storeScopeQuery(db: Conn, actor: Actor): Knex.QueryBuilder | null {
  // bcc.stores.super_admin: "add stores, assign and remove outlets, edit any store".
  if (actor.permissions.has(PERMISSIONS.storesSuperAdmin)) return null;
  const boards = boardScopeQuery(db, actor);
  if (!boards) return null;
  if (isBoardAdmin(actor)) return db('stores').whereIn('board_id', boards).select('id');
  return db('store_outlets').whereIn('outlet_id', ownOutlets(db, actor)).select('store_id as id');
}

/** Restricts `q` (which has a board id column `column`) to the caller's boards. */
export function whereBoardInScope(db: Conn, actor: Actor, q: Knex.QueryBuilder, column: string): Knex.QueryBuilder {
  const boards = boardScopeQuery(db, actor);
  return boards ? q.whereIn(column, boards) : q;
}

/** Restricts `q` (which has a store id column `column`) to the caller's stores. */
export function whereStoreInScope(db: Conn, actor: Actor, q: Knex.QueryBuilder, column: string): Knex.QueryBuilder {
  const stores = storeScopeQuery(db, actor);
  return stores ? q.whereIn(column, stores) : q;
}

/** Is this board in the caller's scope? */
export async function boardInScope(db: Conn, actor: Actor, boardId: number): Promise<boolean> {
  return Boolean(await whereBoardInScope(db, actor, db('boards').where('boards.id', boardId), 'boards.id').first('boards.id'));
}

/** Is this store in the caller's scope? */
export async function storeInScope(db: Conn, actor: Actor, storeId: number): Promise<boolean> {
  return Boolean(await whereStoreInScope(db, actor, db('stores').where('stores.id', storeId), 'stores.id').first('stores.id'));
}

/** Who acts in an admin write, for scope checks and the audit log: the principal plus the request's address. */
export interface AdminActor extends Actor {
  email: string;
  ip?: string | null;
}

/** The AdminActor of a request. */
export const adminActor = (actor: Principal, req: { ip?: string }): AdminActor => ({
  userId: actor.userId,
  email: actor.email,
  permissions: actor.permissions,
  ip: req.ip ?? null,
});

/** The audit actor of an AdminActor. */
export const auditActor = (a: AdminActor) => ({ userId: a.userId, email: a.email });
