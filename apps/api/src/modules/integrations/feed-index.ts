import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/knex';
import type { NotificationSubscriber } from '../../db/notifications';
import { feedHorizon, watchOrderEventAppends } from '../orders/orders.service';
import * as repo from './feed.repository';
import type { FeedScope } from './feed.repository';

/**
 * The feed's event texts by seq, as list elements after another (`,{"seq","type","occurredAt","order"}`, the
 * comma included, so a page is one part per event; UTF-8 bytes), most recently used kept, FEED_CACHE_MB in
 * all (config.feedCacheMb, default 32, ≈ 25,000 events; main.ts sizes it with `sizeEventTexts`). An event
 * never changes once appended, so a cached text is never stale: which events a page holds comes from the
 * database or the FeedIndex, only their texts from here. Emptied when events are deleted or truncated (a seq
 * could be drawn again).
 */
const textCache = (mb: number) =>
  new LRUCache<number, Buffer>({ maxSize: Math.max(1, mb) * 2 ** 20, sizeCalculation: (b) => b.length + 64 });
let texts = textCache(32);
export const eventTexts = {
  get: (seq: number): Buffer | undefined => texts.get(seq),
  set: (seq: number, text: Buffer): void => void texts.set(seq, text),
  clear: (): void => texts.clear(),
};

/** Sizes the event texts' cache to `mb` MB (empties it): config.feedCacheMb, at boot. */
export function sizeEventTexts(mb: number): void {
  texts = textCache(mb);
}

/**
 * The order feed's index in memory (issue 14: 32 readers at random cursors): the seqs of the most recent
 * FEED_INDEX_EVENTS events (default 200,000), by store and by board, so a page deep in the feed is a binary
 * search instead of a query. What makes it exact:
 *   - it covers every event with `base < seq ≤ high`. Appends may commit out of seq order, but every read
 *     stops at the feed's horizon (order_events_horizon(): below the lowest seq of an append in flight), so
 *     reading `seq > high` always yields a gap-free continuation: nothing can commit later below a seq seen;
 *   - a page that reaches the index's end (the feed's tail, where a reader waits for new events) is
 *     answered only while the index holds every event announced so far: each insert into `order_events`
 *     announces its last seq on `order_events_appended` at commit (migration 2026112900010002), and this
 *     process's own appends announce themselves when their transaction commits (watchOrderEventAppends), so
 *     an order's events are on the feed for the next request of whoever placed or moved it. Otherwise the
 *     tail is read from the database, and what the index missed is read in (in the background, right when
 *     it is announced).
 *     Another process's event reaches the tail once its notification is heard (about a millisecond);
 *     never out of order, so a reader's cursor never passes an event it has not been given;
 *   - a board's stores come from `stores`, reloaded on every `stores_changed` notification, and the index is
 *     used only while the notification listener is connected; an event deleted with its store is left out
 *     of the page when its text is not found.
 * Memory: about 40 bytes per event (200,000 events ≈ 8 MB); past 1.25 × the window the oldest are dropped.
 */
export class FeedIndex {
  private seqs: number[] = [];
  private storeOf: number[] = [];
  private byStore = new Map<number, number[]>();
  private byBoard = new Map<number, number[]>();
  private storeBoard = new Map<number, number>();
  private base = 0;
  private high = 0;
  private live = false;
  private generation = 0;
  /** The highest seq known to exist: announced by NOTIFY, or appended by this process. */
  private announced = 0;
  private unwatch?: () => void;

  constructor(
    private readonly db: Db,
    /** How many of the newest events are indexed (config.feedIndexEvents, FEED_INDEX_EVENTS). */
    private readonly window = 200_000,
  ) {}

  /**
   * The listener side: built when listening starts (and this process's appends watched), appends announced,
   * rebuilt on `stores_changed` (a board's stores) and `order_events_removed` (texts dropped too), off when
   * the connection is lost.
   */
  readonly subscriber: NotificationSubscriber = {
    channels: ['order_events_appended', 'order_events_removed', 'stores_changed'],
    onNotification: (channel, payload) => {
      if (channel === 'order_events_appended') return this.announce(Number(payload));
      if (channel === 'order_events_removed') eventTexts.clear();
      void this.build().catch(() => undefined);
    },
    onListening: () => {
      this.unwatch ??= watchOrderEventAppends((seq) => this.announce(seq));
      // Whatever happened while nothing was heard (a restore hands seqs out again) leaves no text behind.
      eventTexts.clear();
      return this.build();
    },
    onLost: () => {
      this.unwatch?.();
      this.unwatch = undefined;
      this.live = false;
      this.generation++;
    },
  };

  /**
   * The seqs of the page after `after` for `key` (its store, or its board's stores), oldest first, at most
   * `limit` (fewer, or none, at the tail); undefined when the index cannot answer it exactly (not live,
   * `after` older than the window, or a tail page while an announced event is not read in yet): the caller
   * then reads the database.
   */
  page(key: FeedScope, after: number, limit: number): number[] | undefined {
    if (!this.live || after < this.base) return undefined;
    const list = (key.storeId ? this.byStore.get(key.storeId) : key.boardId ? this.byBoard.get(key.boardId) : undefined) ?? [];
    const from = upperBound(list, after);
    if (list.length - from >= limit) return list.slice(from, from + limit);
    return this.announced <= this.high ? list.slice(from) : undefined;
  }

  /**
   * The highest seq the index holds while it answers pages (every event up to it is known), else undefined:
   * a cursor at or below it is within the feed without asking the database.
   */
  get knownHigh(): number | undefined {
    return this.live ? this.high : undefined;
  }

  /** Forgets every event and text and builds again (the feed was reset: a restored database). */
  reset(): Promise<void> {
    eventTexts.clear();
    return this.build();
  }

  /** Tells the index the database answered a page ending at `lastSeq`: what it has not read in yet is, in the background. */
  sawSeq(lastSeq: number): void {
    this.announce(lastSeq);
  }

  /** An event up to `seq` exists (NOTIFY, this process's commit, a database page): the tail waits for it to be read in. */
  private announce(seq: number): void {
    if (Number.isSafeInteger(seq) && seq > this.announced) this.announced = seq;
    this.catchUp();
  }

  /** Reads in, in the background, what was announced past `high` (while live). */
  private catchUp(): void {
    if (this.live && this.announced > this.high) void this.refresh().catch(() => undefined);
  }

  /** Whether the index answers pages now (listening and built). */
  get isLive(): boolean {
    return this.live;
  }

  /** (Re)builds everything, off until done: the stores' boards, then the newest `window` events. */
  private build(): Promise<void> {
    this.live = false;
    this.generation++;
    this.announced = 0; // what commits from here on is announced again; what committed before, the load reads
    return this.building();
  }
  private readonly building = singleFlight(() => this.load());

  private async load(): Promise<void> {
    const gen = this.generation;
    const stores = await repo.storeBoards(this.db);
    const rows = await repo.newestEvents(this.db, await feedHorizon(this.db), this.window);
    if (gen !== this.generation) return; // a change or a lost connection came in between: built again or off
    this.storeBoard = new Map(stores.map((s) => [s.id, s.board_id]));
    this.seqs = rows.map((r) => r.seq);
    this.storeOf = rows.map((r) => r.store_id);
    // Every event after base is here: the newest `window` by seq, or all of them.
    this.base = rows.length === this.window ? this.seqs[0] - 1 : 0;
    this.high = this.seqs.length ? this.seqs[this.seqs.length - 1] : 0;
    this.rebuildScopes();
    this.live = true;
    // Announced while loading, past what the load saw: read in before the tail is answered from here.
    this.catchUp();
  }

  /** Reads the events after `high` (in batches) into the index, then trims it to the window. */
  private readonly refresh = singleFlight(async () => {
    const gen = this.generation;
    for (;;) {
      const rows = await repo.eventsAfter(this.db, this.high, 10000);
      if (gen !== this.generation || !this.live) return;
      for (const r of rows) this.append(r.seq, r.store_id);
      if (rows.length < 10000) break;
    }
    if (this.seqs.length > this.window * 1.25) this.trim();
  });

  private append(seq: number, storeId: number): void {
    if (seq <= this.high) return;
    this.seqs.push(seq);
    this.storeOf.push(storeId);
    this.high = seq;
    this.listOf(this.byStore, storeId).push(seq);
    const board = this.storeBoard.get(storeId);
    if (board !== undefined) this.listOf(this.byBoard, board).push(seq);
  }

  /** Drops the oldest events beyond the window; `base` moves up to the last one dropped. */
  private trim(): void {
    const drop = this.seqs.length - this.window;
    this.base = this.seqs[drop - 1];
    this.seqs = this.seqs.slice(drop);
    this.storeOf = this.storeOf.slice(drop);
    this.rebuildScopes();
  }

  private rebuildScopes(): void {
    this.byStore = new Map();
    this.byBoard = new Map();
    for (let i = 0; i < this.seqs.length; i++) {
      this.listOf(this.byStore, this.storeOf[i]).push(this.seqs[i]);
      const board = this.storeBoard.get(this.storeOf[i]);
      if (board !== undefined) this.listOf(this.byBoard, board).push(this.seqs[i]);
    }
  }

  private listOf(m: Map<number, number[]>, k: number): number[] {
    let l = m.get(k);
    if (!l) m.set(k, (l = []));
    return l;
  }
}

/** Index of the first element of ascending `xs` greater than `x` (xs.length when none). */
function upperBound(xs: number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `run` one at a time: a call while it runs gets that run's promise and makes it run once more after
 * (coalescing any number of calls), so what a call asked for is always seen by a run that starts after it.
 */
function singleFlight(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await run();
        } while (again);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
}
