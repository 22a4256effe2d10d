import type { Db } from '../../db/knex';

/** A recorded idempotency key (migration 20261125000100). */
export interface IdempotencyRow {
  requestHash: string;
  statusCode: number | null;
  responseBody: unknown;
  completedAt: Date | null;
}

/** Claims (user, scope, key) for a new request; returns true when this call inserted it. */
export async function claim(db: Db, userId: string, scope: string, key: string, requestHash: string): Promise<boolean> {
  const res = await db.raw(
    `INSERT INTO idempotency_keys (user_id, scope, key, request_hash) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING key`,
    [userId, scope, key, requestHash],
  );
  return res.rows.length > 0;
}

/** The recorded key; undefined when absent. */
export async function find(db: Db, userId: string, scope: string, key: string): Promise<IdempotencyRow | undefined> {
  return db('idempotency_keys').where({ user_id: userId, scope, key })
    .first('request_hash as requestHash', 'status_code as statusCode', 'response_body as responseBody', 'completed_at as completedAt');
}

/** Records the first answer of the request. */
export async function complete(db: Db, userId: string, scope: string, key: string, statusCode: number, body: unknown, orderId: number | null): Promise<void> {
  await db('idempotency_keys').where({ user_id: userId, scope, key }).update({
    status_code: statusCode, response_body: JSON.stringify(body), order_id: orderId, completed_at: db.fn.now(),
  });
}

/** Forgets an unfinished claim (the request failed before anything happened, so a retry may run again). */
export async function release(db: Db, userId: string, scope: string, key: string): Promise<void> {
  await db('idempotency_keys').where({ user_id: userId, scope, key }).whereNull('completed_at').del();
}
