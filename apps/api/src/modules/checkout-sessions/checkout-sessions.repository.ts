import type { FulfillmentType } from '@portal/contracts';
import type { Db } from '../../db/knex';

/** The facts of an active cart that checkout needs (carts × stores). */
export interface CheckoutCartRow {
  id: number;
  userId: string;
  outletId: number;
  storeId: number;
  status: string;
  fulfillmentFlag: FulfillmentType;
  deliveryDate: string | null;
  storeDeliveryEnabled: boolean;
  storeDeliveryCharge: string;
}

/** A checkout_sessions row with its expiry judged by the database clock. */
export interface SessionRow {
  id: string;
  userId: string;
  cartId: number;
  total: string;
  expiresAt: Date;
  consumedAt: Date | null;
  expired: boolean;
}

const CART_COLUMNS = [
  'c.id', 'c.user_id as userId', 'c.outlet_id as outletId', 'c.store_id as storeId', 'c.status',
  'c.fulfillment_flag as fulfillmentFlag', 'c.delivery_date as deliveryDate',
  's.delivery_enabled as storeDeliveryEnabled', 's.delivery_charge as storeDeliveryCharge',
];

/** The cart `cartId` of `userId` with status active; undefined when absent, not theirs or checked out. */
export async function findActiveCart(db: Db, userId: string, cartId: number): Promise<CheckoutCartRow | undefined> {
  return db('carts as c').join('stores as s', 's.id', 'c.store_id')
    .where({ 'c.id': cartId, 'c.user_id': userId, 'c.status': 'active' }).first(CART_COLUMNS);
}

/** The cart `cartId` whatever its owner or status; undefined when gone. */
export async function findCartById(db: Db, cartId: number): Promise<CheckoutCartRow | undefined> {
  return db('carts as c').join('stores as s', 's.id', 'c.store_id').where('c.id', cartId).first(CART_COLUMNS);
}

/** Inserts a session that expires `minutes` from the database's now; returns id and expiry. */
export async function insertSession(
  db: Db, s: { tokenHash: string; userId: string; cartId: number; total: string; minutes: number },
): Promise<{ id: string; expiresAt: Date }> {
  const [row] = await db('checkout_sessions').insert({
    token_hash: s.tokenHash, user_id: s.userId, cart_id: s.cartId, total: s.total,
    expires_at: db.raw(`now() + make_interval(mins => ?)`, [s.minutes]),
  }).returning(['id', 'expires_at as expiresAt']);
  return row;
}

/** The session with this token hash; `forUpdate` locks the row until the transaction ends. */
export async function findSessionByHash(db: Db, tokenHash: string, forUpdate = false): Promise<SessionRow | undefined> {
  const q = db('checkout_sessions').where({ token_hash: tokenHash })
    .first('id', 'user_id as userId', 'cart_id as cartId', 'total', 'expires_at as expiresAt', 'consumed_at as consumedAt',
      db.raw('(expires_at <= now()) AS expired'));
  if (forUpdate) q.forUpdate();
  return q;
}

/** Marks the session used (an order was placed with it). */
export async function markConsumed(db: Db, sessionId: string): Promise<void> {
  await db('checkout_sessions').where({ id: sessionId }).whereNull('consumed_at').update({ consumed_at: db.fn.now() });
}

/** Empties a checked-out cart: deletes its lines and sets status checked_out (the row stays for the session's history). */
export async function checkOutCart(db: Db, cartId: number): Promise<void> {
  await db('cart_items').where({ cart_id: cartId }).del();
  await db('carts').where({ id: cartId }).update({ status: 'checked_out', updated_at: db.fn.now() });
}
