import { preparedRaw, type Db } from '../../db/knex';

/** A checkout_sessions row with its expiry judged by the database clock. */
export interface SessionRow {
  id: string;
  userId: string;
  cartId: number;
  total: string;
  expiresAt: Date;
  consumedAt: Date | null;
  expired: boolean;
  /** An emergency order's session (issue 28): its total carries the store's emergency fee. */
  emergency: boolean;
}

/** Inserts a session that expires `minutes` from the database's now; returns id and expiry. */
export async function insertSession(
  db: Db,
  s: { tokenHash: string; userId: string; cartId: number; total: string; minutes: number; emergency?: boolean },
): Promise<{ id: string; expiresAt: Date }> {
  const [row] = await db('checkout_sessions')
    .insert({
      token_hash: s.tokenHash,
      user_id: s.userId,
      cart_id: s.cartId,
      total: s.total,
      emergency: s.emergency ?? false,
      expires_at: db.raw(`now() + make_interval(mins => ?)`, [s.minutes]),
    })
    .returning<{ id: string; expiresAt: Date }[]>(['id', 'expires_at as expiresAt']);
  return row;
}

/** The session with this token hash; `forUpdate` locks the row until the transaction ends. */
export async function findSessionByHash(db: Db, tokenHash: string, forUpdate = false): Promise<SessionRow | undefined> {
  const q = db('checkout_sessions')
    .where({ token_hash: tokenHash })
    .first(
      'id',
      'user_id as userId',
      'cart_id as cartId',
      'total',
      'expires_at as expiresAt',
      'consumed_at as consumedAt',
      'emergency',
      db.raw('(expires_at <= now()) AS expired'),
    );
  if (forUpdate) q.forUpdate();
  return q;
}

/**
 * Locks a valid session (this token hash, of `userId`, not used, not expired by the database clock) and its cart,
 * in one statement (SELECT … FOR UPDATE OF both); undefined when there is none such (the caller finds why).
 */
export async function lockValidSessionAndCart(
  db: Db,
  tokenHash: string,
  userId: string,
): Promise<{ id: string; cartId: number; total: string; emergency: boolean } | undefined> {
  const r = await preparedRaw<{ rows: { id: string; cartId: number; total: string; emergency: boolean }[] }>(
    db,
    'checkout_lock',
    `SELECT s.id, s.cart_id AS "cartId", s.total, s.emergency
       FROM checkout_sessions s JOIN carts c ON c.id = s.cart_id
      WHERE s.token_hash = ? AND s.user_id = ? AND s.consumed_at IS NULL AND s.expires_at > now()
      LIMIT 1
        FOR UPDATE OF s, c`,
    [tokenHash, userId],
  );
  return r.rows[0];
}

/** Marks the session used (an order was placed with it). */
export async function markConsumed(db: Db, sessionId: string): Promise<void> {
  await db('checkout_sessions').where({ id: sessionId }).whereNull('consumed_at').update({ consumed_at: db.fn.now() });
}

/** The cart id of a session; undefined when the session is gone. */
export async function findSessionCart(db: Db, sessionId: string): Promise<{ id: string; cartId: number } | undefined> {
  return db('checkout_sessions').where({ id: sessionId }).first('id', 'cart_id as cartId');
}

/** SQL over a cart `c`: does it have a card order awaiting its gateway outcome (cartHasPendingPayment as a column)? */
export const CART_PAYMENT_PENDING_SQL = `EXISTS (SELECT 1 FROM orders po JOIN checkout_sessions pcs ON pcs.id = po.checkout_session_id
  WHERE pcs.cart_id = c.id AND po.payment_status = 'pending')`;

/** Does the cart have a card order awaiting its gateway outcome (then the cart is locked)? Reads orders, writes nothing. */
export async function cartHasPendingPayment(db: Db, cartId: number): Promise<boolean> {
  const row = await db('orders as o')
    .join('checkout_sessions as cs', 'cs.id', 'o.checkout_session_id')
    .where({ 'cs.cart_id': cartId, 'o.payment_status': 'pending' })
    .first('o.id');
  return Boolean(row);
}
