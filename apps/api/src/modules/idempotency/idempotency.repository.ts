import type { Db } from '../../db/knex';

/**
 * Recorded Idempotency-Keys (knex only). A user's keys live in `idempotency_keys` (migrations 20261125000100,
 * 20261127000100), per user, scope and key; an API key's in `integration_requests` (migrations
 * 2026112700070001, 2026113000050001), per API key and key (its scope is not stored: one key names one
 * request across the integration writes). Both hold the request's fingerprint, the lease of the request
 * running it and, once it is over, its final answer.
 */

/** A recorded key. */
export interface IdempotencyRow {
  requestHash: string;
  statusCode: number | null;
  responseBody: unknown;
  completedAt: Date | null;
  /** The claim's lease has run out: the request holding it is presumed dead. */
  leaseExpired: boolean;
}

/** A key: a user's (`userId`) or an API key's (`apiKeyId`), with the scope of the writes it covers. */
export type KeyRef = { userId: string; scope: string; key: string } | { apiKeyId: string; scope: string; key: string };

/** The table of `k`'s owner and the row's primary key there. */
function place(k: KeyRef) {
  return 'apiKeyId' in k
    ? ({ table: 'integration_requests', where: { api_key_id: k.apiKeyId, key: k.key } } as const)
    : ({ table: 'idempotency_keys', where: { user_id: k.userId, scope: k.scope, key: k.key } } as const);
}

/** Claims the key for a new request, leased for `leaseSeconds`; true when this call inserted it. */
export async function claim(db: Db, k: KeyRef, requestHash: string, leaseSeconds: number): Promise<boolean> {
  const lease = db.raw('now() + make_interval(secs => ?)', [leaseSeconds]);
  const inserted =
    'apiKeyId' in k
      ? await db('integration_requests')
          .insert({
            api_key_id: k.apiKeyId,
            key: k.key,
            request_hash: requestHash,
            status_code: null,
            completed_at: null,
            lease_expires_at: lease,
          })
          .onConflict(['api_key_id', 'key'])
          .ignore()
          .returning('key')
      : await db('idempotency_keys')
          .insert({ user_id: k.userId, scope: k.scope, key: k.key, request_hash: requestHash, lease_expires_at: lease })
          .onConflict(['user_id', 'scope', 'key'])
          .ignore()
          .returning('key');
  return inserted.length > 0;
}

/** The recorded key; undefined when absent. */
export async function find(db: Db, k: KeyRef): Promise<IdempotencyRow | undefined> {
  const p = place(k);
  return db(p.table)
    .where(p.where)
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
  const p = place(k);
  const n = await db(p.table)
    .where(p.where)
    .whereNull('completed_at')
    .where('lease_expires_at', '<=', db.fn.now())
    .update({ lease_expires_at: db.raw('now() + make_interval(secs => ?)', [leaseSeconds]) });
  return n > 0;
}

/**
 * Records the first final answer of the request (no-op when one is recorded already); `orderId`, the order a
 * user's request left behind (API keys' rows have none).
 */
export async function complete(db: Db, k: KeyRef, statusCode: number, body: unknown, orderId: number | null): Promise<void> {
  const answer = { status_code: statusCode, response_body: JSON.stringify(body), completed_at: db.fn.now() };
  if ('apiKeyId' in k) {
    await db('integration_requests').where(place(k).where).whereNull('completed_at').update(answer);
  } else {
    await db('idempotency_keys')
      .where(place(k).where)
      .whereNull('completed_at')
      .update({ ...answer, order_id: orderId });
  }
}

/** Ends the lease of an unfinished key at once: the request is over, a retry may resume it now. */
export async function endLease(db: Db, k: KeyRef): Promise<void> {
  const p = place(k);
  await db(p.table).where(p.where).whereNull('completed_at').update({ lease_expires_at: db.fn.now() });
}

/** Forgets an unfinished claim (the request failed before anything happened, so a retry may run again). */
export async function release(db: Db, k: KeyRef): Promise<void> {
  const p = place(k);
  await db(p.table).where(p.where).whereNull('completed_at').del();
}
