import { createHash } from 'node:crypto';
import { PROBLEM_CODES, CHECKOUT_MESSAGES, type PROBLEM_STATUS, type ProblemCode } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { AppError, ConflictError, UnprocessableError } from '../../http/errors';
import type { Logger } from '../../logger';
import * as idem from './idempotency.repository';

/** Statuses whose answer is final once the work started (recorded and replayed to every retry). */
const FINAL_ERROR_STATUSES = new Set([402, 502]);

export type { KeyRef } from './idempotency.repository';

/** One keyed request: who (a user or an API key), which key, the request's fingerprint and the lease. */
export type KeyedRequest = idem.KeyRef & {
  /** Fingerprint of the request (never card data): the same key with another fingerprint → 422. */
  requestHash: string;
  leaseSeconds: number;
  /** The status a success is recorded with (POST /orders: 201, the default; the integration writes: 200). */
  successStatus?: number;
  /** The 422 `idempotency_key_reused` detail (default CHECKOUT_MESSAGES.idempotencyMismatch). */
  reusedMessage?: string;
};

/** What the wrapper runs: the work, the recovery of a dead request's work, and whether anything was left behind. */
export interface KeyedWork<T> {
  /** The request's work, first time. */
  run(): Promise<T>;
  /** A retry of a request that died after leaving something behind: settle it (never redo it). */
  resume(): Promise<T>;
  /** Did this key's request leave something behind (e.g. an order row)? */
  leftSomething(): Promise<{ orderId: number } | undefined>;
}

/**
 * Idempotency-Key semantics (ARCHITECTURE §5, Stripe's rules) around any write:
 * - a new key is claimed with a lease and `run` goes; its 2xx or final 402/502 answer is recorded;
 * - the same key again: the recorded answer is replayed (`replayed: true`); another fingerprint → 422
 *   `idempotency_key_reused`; still running (lease alive) → 409 `idempotency_in_progress`;
 * - a key whose request died (lease over, nothing recorded) is taken over: when that request left
 *   something behind, `resume` settles it; else `run` starts afresh;
 * - a refusal before anything was left behind frees the key; any other failure after (DB down, payment
 *   being confirmed) ends the lease at once when it can, so the next retry resumes.
 * Used by POST /orders (a user's keys) and the integration writes (an API key's: `withApiKeyIdempotency`).
 */
export async function withIdempotency<T>(
  db: Db,
  logger: Logger,
  k: KeyedRequest,
  work: KeyedWork<T>,
): Promise<{ value: T; replayed: boolean }> {
  let mode: 'run' | 'resume' = 'run';
  if (!(await idem.claim(db, k, k.requestHash, k.leaseSeconds))) {
    const row = await idem.find(db, k);
    if (row && row.requestHash !== k.requestHash)
      throw new UnprocessableError(k.reusedMessage ?? CHECKOUT_MESSAGES.idempotencyMismatch, PROBLEM_CODES.idempotencyKeyReused);
    if (row?.completedAt) return { value: replay<T>(row), replayed: true };
    if (!row || !row.leaseExpired || !(await idem.takeOver(db, k, k.leaseSeconds))) {
      throw new ConflictError(CHECKOUT_MESSAGES.idempotencyInProgress, PROBLEM_CODES.idempotencyInProgress);
    }
    mode = (await work.leftSomething()) ? 'resume' : 'run';
  }
  try {
    const value = mode === 'resume' ? await work.resume() : await work.run();
    const left = await work.leftSomething();
    await idem.complete(db, k, k.successStatus ?? 201, value, left?.orderId ?? null);
    return { value, replayed: mode === 'resume' };
  } catch (err) {
    await afterFailure(db, logger, k, work, err);
    throw err;
  }
}

async function afterFailure<T>(db: Db, logger: Logger, k: KeyedRequest, work: KeyedWork<T>, err: unknown) {
  try {
    const left = await work.leftSomething();
    if (!left) await idem.release(db, k);
    else if (err instanceof AppError && FINAL_ERROR_STATUSES.has(err.status)) {
      await idem.complete(
        db,
        k,
        err.status,
        { status: err.status, code: err.code, title: err.title, detail: err.message, errors: err.errors },
        left.orderId,
      );
    } else await idem.endLease(db, k);
  } catch (e) {
    // The database is gone too: the lease runs out by itself and the next retry resumes.
    logger.warn(
      { err: { message: e instanceof Error ? e.message : String(e) }, scope: k.scope },
      'could not record the idempotency key outcome; its lease will expire',
    );
  }
}

function replay<T>(row: idem.IdempotencyRow): T {
  if (row.statusCode !== null && row.statusCode < 300) return row.responseBody as T;
  const p = row.responseBody as {
    status: number;
    code: ProblemCode;
    title: string;
    detail?: string;
    errors?: { path: string; message: string }[];
  };
  // The stored answer was made by a typed error, so its status is its code's (contracts PROBLEM_STATUS).
  throw new AppError(p.status as (typeof PROBLEM_STATUS)[ProblemCode], p.code, p.title, p.detail, p.errors);
}

/** A write whose effect is one transaction (nothing is left behind when it fails): the integration writes. */
const atomic = <T>(run: () => Promise<T>): KeyedWork<T> => ({ run, resume: run, leftSomething: async () => undefined });

/**
 * Idempotency-Key for API-key writes (the inventory and catalog upserts, order status updates): no key →
 * `run` as is. With one, withIdempotency's rules for the API key and key: the first 2xx answer is recorded
 * (status 200) and replayed (`replayed: true`); the key with another request (`fingerprint`: the SHA-256 of
 * the JSON of what the request sent) → 422 `idempotency_key_reused`; the same key while its request runs →
 * 409 `idempotency_in_progress`; a refused request frees its key (its effect was rolled back).
 */
export async function withApiKeyIdempotency<T>(
  db: Db,
  logger: Logger,
  k: { apiKeyId: string; key: string | undefined; leaseSeconds: number },
  request: unknown,
  run: () => Promise<T>,
): Promise<{ value: T; replayed: boolean }> {
  if (!k.key) return { value: await run(), replayed: false };
  const requestHash = createHash('sha256')
    .update(JSON.stringify(request ?? null))
    .digest('hex');
  return withIdempotency(
    db,
    logger,
    {
      apiKeyId: k.apiKeyId,
      scope: 'integrations',
      key: k.key,
      requestHash,
      leaseSeconds: k.leaseSeconds,
      successStatus: 200,
      reusedMessage: 'This Idempotency-Key was used for another request',
    },
    atomic(run),
  );
}
