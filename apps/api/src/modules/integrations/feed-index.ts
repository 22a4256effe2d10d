import type { Db } from '../../db/knex';
import type { NotificationSubscriber } from '../../db/notifications';
import type { ApiKeyPrincipal } from '../../http/api-key-auth';

/**
 * The order feed's index in memory (issue 14: 32 readers at random cursors): the seqs of the most recent
 * FEED_INDEX_EVENTS events (default 200,000), by store and by board, so a page deep in the feed is a binary
 * search instead of a query. What makes it exact:
 *   - it covers every event with `base < seq ≤ high`. Appends commit in seq order (appendOrderEvent's
 *     advisory lock), so reading `seq > high` always yields a gap-free continuation: nothing can commit
 *     later below a seq already seen;
 *   - it answers only full pages. A page that reaches the index's end (the feed's tail, where a reader
 *     waits for new events) is read from the database as before, so an event is on the feed as soon as its
 *     order commits; what that read finds past `high` is added to the index afterwards;
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

  constructor(
    private readonly db: Db,
    private readonly window = Math.max(1000, Number(process.env.FEED_INDEX_EVENTS ?? 200_000)),
  ) {}

  /** The listener side: built when listening starts, boards reloaded on `stores_changed`, off when the connection is lost. */
  readonly subscriber: NotificationSubscriber = {
    channels: ['stores_changed'],
    onNotification: () => void this.build().catch(() => undefined),
    onListening: () => this.build(),
    onLost: () => {
      this.live = false;
      this.generation++;
    },
  };

  /**
   * The seqs of a full page after `after` for `key` (its store, or its board's stores), oldest first; undefined
   * when the index cannot answer it exactly (not live, `after` older than the window, or fewer than `limit`
   * events known after it): the caller then reads the database.
   */
  page(key: ApiKeyPrincipal, after: number, limit: number): number[] | undefined {
    if (!this.live || after < this.base) return undefined;
    const list = key.storeId ? this.byStore.get(key.storeId) : key.boardId ? this.byBoard.get(key.boardId) : undefined;
    if (!list) return undefined;
    const from = upperBound(list, after);
    return list.length - from >= limit ? list.slice(from, from + limit) : undefined;
  }

  /** Tells the index the database answered a page ending at `lastSeq`: events past `high` are read in, in the background. */
  sawSeq(lastSeq: number): void {
    if (this.live && lastSeq > this.high) void this.refresh().catch(() => undefined);
  }

  /** Whether the index answers pages now (listening and built). */
  get isLive(): boolean {
    return this.live;
  }

  /** (Re)builds everything, off until done: the stores' boards, then the newest `window` events. */
  private build(): Promise<void> {
    this.live = false;
    this.generation++;
    return this.building();
  }
  private readonly building = singleFlight(() => this.load());

  private async load(): Promise<void> {
    const gen = this.generation;
    const stores: { id: number; board_id: number }[] = await this.db('stores').select('id', 'board_id');
    const rows: { seq: string; store_id: number }[] = (
      await this.db.raw(
        `SELECT e.seq::text AS seq, e.store_id FROM (SELECT seq, store_id FROM order_events ORDER BY seq DESC LIMIT ?) e ORDER BY e.seq`,
        [this.window],
      )
    ).rows;
    if (gen !== this.generation) return; // a change or a lost connection came in between: built again or off
    this.storeBoard = new Map(stores.map((s) => [s.id, s.board_id]));
    this.seqs = rows.map((r) => Number(r.seq));
    this.storeOf = rows.map((r) => r.store_id);
    // Every event after base is here: the newest `window` by seq, or all of them.
    this.base = rows.length === this.window ? this.seqs[0] - 1 : 0;
    this.high = this.seqs.length ? this.seqs[this.seqs.length - 1] : 0;
    this.rebuildScopes();
    this.live = true;
  }

  /** Reads the events after `high` (in batches) into the index, then trims it to the window. */
  private readonly refresh = singleFlight(async () => {
    const gen = this.generation;
    for (;;) {
      const rows: { seq: string; store_id: number }[] = (
        await this.db.raw(`SELECT e.seq::text AS seq, e.store_id FROM order_events e WHERE e.seq > ? ORDER BY e.seq LIMIT 10000`, [
          this.high,
        ])
      ).rows;
      if (gen !== this.generation || !this.live) return;
      for (const r of rows) this.append(Number(r.seq), r.store_id);
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
