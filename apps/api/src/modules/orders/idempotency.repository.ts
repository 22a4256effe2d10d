import type { Db } from '../../db/knex';

/** A recorded idempotency key (migrations 20261125000100, 20261127000100). */
export interface IdempotencyRow {
  requestHash: string;
  statusCode: number | null;
  responseBody: unknown;
  completedAt: Date | null;
  /** The claim's lease has run out: the request holding it is presumed dead. */
  leaseExpired: boolean;
}

/** The primary key of a key row. */
export interface KeyRef {
  userId: string;
  scope: string;
  key: string;
}

const where = (k: KeyRef) => ({ user_id: k.userId, scope: k.scope, key: k.key });

/** Claims the key for a new request, leased for `leaseSeconds`; true when this call inserted it. */
export async function claim(db: Db, k: KeyRef, requestHash: string, leaseSeconds: number): Promise<boolean> {
  const res = await db.raw(
    `INSERT INTO idempotency_keys (user_id, scope, key, request_hash, lease_expires_at)
     VALUES (?, ?, ?, ?, now() + make_interval(secs => ?)) ON CONFLICT DO NOTHING RETURNING key`,
    [k.userId, k.scope, k.key, requestHash, leaseSeconds],
  );
  return res.rows.length > 0;
}

/** The recorded key; undefined when absent. */
export async function find(db: Db, k: KeyRef): Promise<IdempotencyRow | undefined> {
  return db('idempotency_keys')
    .where(where(k))
    .first(
      'request_hash as requestHash',
      'status_code as statusCode',
      'response_body as responseBody',
      'completed_at as completedAt',
      db.raw('(lease_expires_at <= now()) AS "leaseExpired"'),
    );
}

/**
 * Takes over an unfinished key whose lease ran out (its request died), for another lease. True when
 * this call took it (exactly one of several concurrent retries does).
 */
export async function takeOver(db: Db, k: KeyRef, leaseSeconds: number): Promise<boolean> {
  const n = await db('idempotency_keys')
    .where(where(k))
    .whereNull('completed_at')
    .where('lease_expires_at', '<=', db.fn.now())
    .update({ lease_expires_at: db.raw('now() + make_interval(secs => ?)', [leaseSeconds]) });
  return n > 0;
}

/** Records the first final answer of the request (no-op when one is recorded already). */
export async function complete(db: Db, k: KeyRef, statusCode: number, body: unknown, orderId: number | null): Promise<void> {
  await db('idempotency_keys')
    .where(where(k))
    .whereNull('completed_at')
    .update({
      status_code: statusCode,
      response_body: JSON.stringify(body),
      order_id: orderId,
      completed_at: db.fn.now(),
    });
}

/** Ends the lease of an unfinished key at once: the request is over, a retry may resume it now. */
export async function endLease(db: Db, k: KeyRef): Promise<void> {
  await db('idempotency_keys').where(where(k)).whereNull('completed_at').update({ lease_expires_at: db.fn.now() });
}

/** Forgets an unfinished claim (the request failed before anything happened, so a retry may run again). */
export async function release(db: Db, k: KeyRef): Promise<void> {
  await db('idempotency_keys').where(where(k)).whereNull('completed_at').del();
}
