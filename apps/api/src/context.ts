import type { Config } from './config';
import type { Db } from './db/knex';
import type { Logger } from './logger';
import type { Mailer } from './lib/mail/message';

export type { DeferredMail, MailMessage, Mailer } from './lib/mail/message';

/**
 * What the order feed's routes need of an in-memory index of the feed (modules/integrations/feed-index.ts
 * implements it; main.ts builds it): the seqs of a page for a key's store or board, the highest seq known,
 * and a hint that the database answered a page.
 */
export interface FeedReader {
  /** Seqs after `after` (oldest first, at most `limit`) for the key's store or board; undefined → read the database. */
  page(key: { storeId: number | null; boardId: number | null }, after: number, limit: number): number[] | undefined;
  /** The highest seq the index holds while it answers pages, else undefined. */
  readonly knownHigh: number | undefined;
  /** The database answered a page ending at `lastSeq`. */
  sawSeq(lastSeq: number): void;
}

/**
 * Word of new order events for the live streams of GET /me/events (modules/orders/live-events.service.ts builds
 * it over LISTEN order_events_appended; main.ts starts it): `subscribe` calls `listener` with the highest seq
 * appended (at commit) and answers the unsubscribe; `listening` is false while the notifications connection
 * is down (streams then read the feed every LIVE_POLL_SECONDS).
 */
export interface OrderEventSignal {
  subscribe(listener: (seq: number) => void): () => void;
  readonly listening: boolean;
}

/** What every module's routes get: config, the DB, the logger and the outbound services. */
export interface AppContext {
  config: Config;
  db: Db;
  logger: Logger;
  mailer: Mailer;
  /** The data-import job queue (jobs/import-queue.ts); absent where no queue runs (then uploads answer 503). */
  imports?: { enqueue(db: Db, runId: string): Promise<void> };
  /** The order feed's index in memory (modules/integrations/feed-index.ts); absent → every page is read from the database. */
  feedReader?: FeedReader;
  /** New order events as they commit; absent → live streams read the feed every LIVE_POLL_SECONDS. */
  orderEvents?: OrderEventSignal;
}
