import type { Request, RequestHandler } from 'express';
import { rateLimit as expressRateLimit, type Options } from 'express-rate-limit';
import type { Db } from '../db/knex';
import { TooManyRequestsError } from './errors';
import { PostgresRateLimitStore } from './rate-limit-store';

/** What one limiter counts, and how it answers past its limit. */
export interface RateLimitOptions {
  /** The window, in seconds (also the Retry-After when express-rate-limit gives no reset time). */
  windowSeconds: number;
  /** Requests allowed per key and window. */
  limit: number;
  /** Count only failed requests (a status ≥ 400), e.g. failed sign-ins. */
  onlyFailures?: boolean;
  /** The 429's detail; TooManyRequestsError's own when omitted. */
  message?: string;
  /** Called for each refused request (before the 429 is thrown), e.g. to count a lockout. */
  onRefused?: (req: Request) => void;
  /** The key a request counts against; express-rate-limit's default (the client IP) when omitted. */
  key?: (req: Request) => string;
  /** The policy's name in the `RateLimit-Policy` header; express-rate-limit's default when omitted. */
  identifier?: string;
  /**
   * Count in PostgreSQL (`PostgresRateLimitStore`, rows prefixed `prefix`), so every API process shares one
   * budget; in this process's memory when omitted.
   */
  shared?: { db: Db; prefix: string };
}

/**
 * The one rate limiter of the API (ARCHITECTURE §8, §10): express-rate-limit with the IETF draft-8
 * `RateLimit-Policy` and `RateLimit` headers (no legacy X-RateLimit-*), counting in memory or in PostgreSQL
 * (`shared`). Past the limit the request fails with `TooManyRequestsError`: 429 problem+json `rate_limited`
 * with Retry-After (seconds until the window resets).
 */
export function rateLimit(o: RateLimitOptions): RequestHandler {
  const options: Partial<Options> = {
    windowMs: o.windowSeconds * 1000,
    limit: o.limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skipSuccessfulRequests: Boolean(o.onlyFailures),
    handler: (req, _res, next) => {
      o.onRefused?.(req);
      const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      next(new TooManyRequestsError(reset ? (reset.getTime() - Date.now()) / 1000 : o.windowSeconds, o.message));
    },
  };
  if (o.identifier !== undefined) options.identifier = o.identifier;
  if (o.key) options.keyGenerator = o.key;
  if (o.shared) options.store = new PostgresRateLimitStore(o.shared.db, o.shared.prefix);
  return expressRateLimit(options);
}
