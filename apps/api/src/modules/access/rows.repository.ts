import type { Knex } from 'knex';
import type { Db } from '../../db/knex';

/**
 * The lookups of `mayReachRow` / `mayKeyReachRow` (rows.ts): for a row a route acts on, the place(s) its
 * permission is checked at. Each answers undefined when the row does not exist.
 */

type Q = Db | Knex.Transaction;

/** Does the board, store or outlet exist? */
export async function placeExists(db: Q, kind: 'board' | 'store' | 'outlet', id: number): Promise<boolean> {
  const table = ({ board: 'boards', store: 'stores', outlet: 'outlets' } as const)[kind];
  return Boolean(await db(table).where({ id }).first('id'));
}

/** Does the user exist? */
export async function userExists(db: Q, id: string): Promise<boolean> {
  return Boolean(await db('users').where({ id }).first('id'));
}

/** An item's board (its catalog). */
export async function itemBoard(db: Q, id: number): Promise<{ board_id: number } | undefined> {
  return db('items').where({ id }).first<{ board_id: number } | undefined>('board_id');
}

/** Who placed an order, at which store and outlet. */
export async function orderPlaces(db: Q, id: number): Promise<{ user_id: string; store_id: number; outlet_id: number | null } | undefined> {
  return db('orders')
    .where({ id })
    .first<{ user_id: string; store_id: number; outlet_id: number | null } | undefined>('user_id', 'store_id', 'outlet_id');
}

/** An order guide's outlet (issue 27). */
export async function guideOutlet(db: Q, id: number): Promise<{ outlet_id: number } | undefined> {
  return db('order_guides').where({ id }).first<{ outlet_id: number } | undefined>('outlet_id');
}

/** A cart's owner, outlet and store. */
export async function cartPlaces(db: Q, id: number): Promise<{ user_id: string; outlet_id: number; store_id: number } | undefined> {
  return db('carts')
    .where({ id })
    .first<{ user_id: string; outlet_id: number; store_id: number } | undefined>('user_id', 'outlet_id', 'store_id');
}

/** The store or board holding an API key or a webhook endpoint. */
export async function holderOf(
  db: Q,
  kind: 'apiKey' | 'webhook',
  id: string,
): Promise<{ store_id: number | null; board_id: number | null } | undefined> {
  return db(kind === 'apiKey' ? 'api_keys' : 'webhook_endpoints')
    .where({ id })
    .first<{ store_id: number | null; board_id: number | null } | undefined>('store_id', 'board_id');
}

/** A payment credential's store. */
export async function credentialStore(db: Q, id: number): Promise<{ store_id: number } | undefined> {
  return db('payment_credentials').where({ id }).first('store_id');
}

/** Who sent an invitation and the places it names. */
export async function invitationPlaces(db: Q, id: string) {
  return db('invitations').where({ id }).first('invited_by', 'outlet_ids', 'store_ids', 'board_ids');
}

/** An outlet request's outlet. */
export async function outletRequestOutlet(db: Q, id: number): Promise<{ outlet_id: number } | undefined> {
  return db('outlet_requests').where({ id }).first('outlet_id');
}

/** A store's id and board. */
export async function storeBoard(db: Q, id: number): Promise<{ id: number; board_id: number } | undefined> {
  return db('stores').where({ id }).first('id', 'board_id');
}

/** The store (id and board) of the order with this order number. */
export async function orderStoreByNumber(db: Q, orderNumber: string): Promise<{ id: number; board_id: number } | undefined> {
  return db('orders as o')
    .join('stores as s', 's.id', 'o.store_id')
    .where('o.order_number', orderNumber)
    .first<{ id: number; board_id: number } | undefined>('s.id', 's.board_id');
}
