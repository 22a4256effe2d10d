import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../db/knex';

/** The table the counters live in (migration 2026113000040002): one row per limited key and window. */
export const RATE_LIMITS_TABLE = 'rate_limits';

/**
 * An express-rate-limit store kept in PostgreSQL (ARCHITECTURE §8: more than one replica), on
 * rate-limiter-flexible's PostgreSQL limiter over the app's knex pool: each hit is one atomic upsert of the
 * key's row in `rate_limits` (a fixed window from the key's first hit), so every API process counts the
 * same hits. The table is created by our migration, never at run time. Once a key is over its limit this
 * process refuses it from memory until its window ends (no query per refused request).
 * `prefix` separates limiters sharing the table (`api-key`, …).
 */
export class PostgresRateLimitStore implements Store {
  readonly localKeys = false;
  private limiter?: RateLimiterPostgres;
  private limit = 0;

  constructor(
    private readonly db: Db,
    readonly prefix: string,
  ) {}

  /** Called once by express-rate-limit with its options: the window and a numeric limit. */
  init(options: Options): void {
    if (typeof options.limit !== 'number') throw new Error('PostgresRateLimitStore needs a numeric limit');
    this.limit = options.limit;
    this.limiter = new RateLimiterPostgres({
      storeClient: this.db,
      storeType: 'knex',
      tableName: RATE_LIMITS_TABLE,
      tableCreated: true,
      keyPrefix: this.prefix,
      points: options.limit,
      duration: Math.max(1, Math.round(options.windowMs / 1000)),
      // Past the limit, refused from memory until the window ends.
      inMemoryBlockOnConsumed: options.limit + 1,
    });
  }

  /** Counts a hit: the key's hits in its window and when the window ends. DB errors reject (the request answers 503). */
  async increment(key: string): Promise<ClientRateLimitInfo> {
    let res: RateLimiterRes;
    try {
      res = await this.ready().consume(key);
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      res = e;
    }
    // A key blocked in memory answers without counting (0 consumed): it is over its limit.
    const totalHits = res.consumedPoints || this.limit + 1;
    return { totalHits, resetTime: new Date(Date.now() + Math.max(0, res.msBeforeNext)) };
  }

  async decrement(key: string): Promise<void> {
    await this.ready().reward(key, 1);
  }

  async resetKey(key: string): Promise<void> {
    await this.ready().delete(key);
  }

  private ready(): RateLimiterPostgres {
    if (!this.limiter) throw new Error('PostgresRateLimitStore used before express-rate-limit initialised it');
    return this.limiter;
  }
}
