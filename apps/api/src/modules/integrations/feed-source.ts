import type { Db } from '../../db/knex';
import type { FeedIndex } from './feed-index';
import * as repo from './feed.repository';
import type { FeedScope } from './feed.repository';

export type { FeedScope } from './feed.repository';

/**
 * Where the order feed's pages come from (issue 25 §6): which events a page of GET
 * /integrations/order-events holds. The database (`DbFeedSource`) is the reference; the in-memory FeedIndex
 * is an optional cache in front of it (`CachedFeedSource`). Both pass the same contract tests
 * (feed-source.contract.test.ts).
 */
export interface FeedSource {
  /**
   * The seqs of the events of scope `s` (a store's, or every store of a board) after `after`, ascending,
   * at most `limit`; fewer (or none) at the feed's tail. Gap-free: no event below the last seq answered
   * commits later (reads stop at the horizon: order_events_horizon()).
   */
  page(s: FeedScope, after: number, limit: number): Promise<number[]>;
  /**
   * A seq every event up to which this source knows without asking the database (a cursor at or below it
   * is within the feed), or 0 when it knows none that way.
   */
  knownHigh(): number;
  /** The newest seq ever drawn (0 before the first event): no cursor handed out can be past it. */
  newestSeq(): Promise<number>;
}

/** The reference FeedSource: every page one index scan of `order_events` (feed.repository.ts). */
export class DbFeedSource implements FeedSource {
  constructor(private readonly db: Db) {}

  page(s: FeedScope, after: number, limit: number): Promise<number[]> {
    return repo.pageSeqs(this.db, s, after, limit);
  }

  knownHigh(): number {
    return 0;
  }

  newestSeq(): Promise<number> {
    return repo.newestSeq(this.db);
  }
}

/** What CachedFeedSource uses of the in-memory index (FeedIndex). */
export type FeedCache = Pick<FeedIndex, 'page' | 'knownHigh' | 'sawSeq'>;

/**
 * The FeedIndex in front of the database: a page the index answers exactly costs no query; any other (the
 * index not live, a cursor older than its window, the tail while an announced event is not read in) is read
 * from `fallback`, and the index told what it saw so it reads in what it missed.
 */
export class CachedFeedSource implements FeedSource {
  constructor(
    private readonly index: FeedCache,
    private readonly fallback: FeedSource,
  ) {}

  async page(s: FeedScope, after: number, limit: number): Promise<number[]> {
    const cached = this.index.page(s, after, limit);
    if (cached) return cached;
    const seqs = await this.fallback.page(s, after, limit);
    if (seqs.length) this.index.sawSeq(seqs[seqs.length - 1]);
    return seqs;
  }

  knownHigh(): number {
    return this.index.knownHigh ?? 0;
  }

  newestSeq(): Promise<number> {
    return this.fallback.newestSeq();
  }
}

/** The feed source of a request: the index in front of `db` when there is one, else `db` alone. */
export function feedSourceOf(db: Db, index?: FeedCache): FeedSource {
  const source = new DbFeedSource(db);
  return index ? new CachedFeedSource(index, source) : source;
}
