import type { Db } from '../../db/knex';
import { startNotifications, type NotificationListener } from '../../db/notifications';
import { createTestContext, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures } from '../../test/fixtures';
import { waitFor } from '../../test/wait';
import { FeedIndex } from './feed-index';
import { CachedFeedSource, DbFeedSource, type FeedScope, type FeedSource } from './feed-source';

/**
 * The FeedSource contract (issue 25 §6), one suite run against every implementation on real PostgreSQL:
 * the database (the reference), the FeedIndex in front of it, and the FeedIndex with a window smaller than
 * the feed (old cursors fall back to the database). Each answer is checked against the events as stored:
 * ascending seqs, strictly after the cursor, at most `limit`, only the scope's (a store, a board's stores),
 * paging through with the last seq as the cursor neither skips nor repeats, the tail is empty and then
 * holds what is appended, and no known seq is past the newest drawn.
 */
const S = FIXTURE_STORES;
let t: TestContext;
let centralBoard: number;
let otherBoard: number;
let emptyStore: number;

/** What a factory makes: the source, a wait for it to know what was appended, and its teardown. */
interface Made {
  source: FeedSource;
  /** Resolves once the source has heard of every event appended so far (a cache's notification). */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

beforeAll(async () => {
  t = await createTestContext();
  await seedFixtures(t.db);
  ({ board_id: centralBoard } = (await t.db('stores').where({ id: S.central }).first('board_id'))!);
  [{ id: otherBoard }] = await t.db('boards').insert({ board_number: 9903, name: 'Contract board' }).returning('id');
  await t.db('stores').where({ id: S.small }).update({ board_id: otherBoard });
  [{ id: emptyStore }] = await t
    .db('stores')
    .insert({ id: 99031, warehouse_code: 'W99031', board_id: otherBoard, name: 'No events yet' })
    .returning('id');
  // 1,500 synthetic events over three stores of two boards: more than the smallest index window (1,000).
  await append(1500);
});
afterAll(async () => {
  await t.close();
});

/** Appends `n` synthetic events, store by store in turn (central, small, cyclone). */
async function append(n: number): Promise<void> {
  await t.db.raw(
    `INSERT INTO order_events (order_id, store_id, type, payload, test)
     SELECT NULL, (ARRAY[?, ?, ?]::int[])[1 + i % 3], 'order.created', '{}'::jsonb, true FROM generate_series(1, ?) i`,
    [S.central, S.small, S.cyclone, n],
  );
}

/** The stored seqs of scope `s`, ascending (the expected answers, read without any FeedSource). */
async function stored(s: FeedScope): Promise<number[]> {
  const q = t.db('order_events').orderBy('seq').select('seq');
  if (s.storeId) q.where({ store_id: s.storeId });
  else
    q.whereIn(
      'store_id',
      t
        .db('stores')
        .where('board_id', s.boardId ?? 0)
        .select('id'),
    );
  return (await q).map((r: { seq: number }) => Number(r.seq));
}

async function newest(): Promise<number> {
  const [{ seq }] = await t.db('order_events').max({ seq: 'seq' });
  return Number(seq);
}

/** A cached source over a FeedIndex of `window` events, listening for appends like the API process. */
function cached(window?: number): (db: Db) => Promise<Made> {
  return async (db) => {
    const index = new FeedIndex(db, window);
    const listener: NotificationListener = startNotifications(t.config.databaseUrl ?? '', t.ctx.logger, [index.subscriber]);
    await listener.ready;
    await waitFor('the index is live', () => (index.isLive ? true : undefined));
    const source = new CachedFeedSource(index, new DbFeedSource(db));
    return {
      source,
      settle: async () => {
        const high = await newest();
        await waitFor('the index has read in every event', () => ((index.knownHigh ?? 0) >= high ? true : undefined));
      },
      stop: () => listener.stop(),
    };
  };
}

/** The contract: every FeedSource answers what the events as stored say. */
function feedSourceContract(name: string, make: (db: Db) => Promise<Made>): void {
  describe(`FeedSource contract: ${name}`, () => {
    let m: Made;
    const store: () => FeedScope = () => ({ storeId: S.central, boardId: null });
    const board: () => FeedScope = () => ({ storeId: null, boardId: centralBoard });
    beforeAll(async () => {
      m = await make(t.db);
      await m.settle();
    });
    afterAll(async () => {
      await m.stop();
    });

    it('answers a scope’s events in seq order, only the scope’s: a store’s, or every store of a board', async () => {
      for (const s of [store(), board(), { storeId: null, boardId: otherBoard }]) {
        const all = await stored(s);
        expect(all.length).toBeGreaterThan(0);
        expect(await m.source.page(s, 0, 5000)).toEqual(all);
      }
    });

    it('answers at most `limit` seqs, strictly after the cursor', async () => {
      const all = await stored(board());
      expect(await m.source.page(board(), 0, 7)).toEqual(all.slice(0, 7));
      const cursor = all[100];
      expect(await m.source.page(board(), cursor, 3)).toEqual(all.slice(101, 104));
      // A cursor between two of the scope's seqs (another store's seq) resumes at the next one of the scope.
      const between = all.find((seq, i) => all[i + 1] > seq + 1);
      expect(between).toBeDefined();
      const next = all[all.indexOf(between ?? 0) + 1];
      expect(await m.source.page(board(), (between ?? 0) + 1, 1)).toEqual([next]);
    });

    it('pages through the whole feed with the last seq as the cursor: nothing skipped, nothing repeated (old cursors too)', async () => {
      for (const s of [store(), board()]) {
        const seen: number[] = [];
        let after = 0;
        for (;;) {
          const page = await m.source.page(s, after, 97);
          expect(page.length).toBeLessThanOrEqual(97);
          if (!page.length) break;
          seen.push(...page);
          after = page[page.length - 1];
        }
        expect(seen).toEqual(await stored(s));
      }
    });

    it('answers an empty tail, then what is appended after it (the tail of a store with no event is empty)', async () => {
      const high = await newest();
      expect(await m.source.page(store(), high, 10)).toEqual([]);
      expect(await m.source.page({ storeId: emptyStore, boardId: null }, 0, 10)).toEqual([]);
      await append(6);
      await m.settle();
      const fresh = (await stored(store())).filter((seq) => seq > high);
      expect(fresh).toHaveLength(2);
      expect(await m.source.page(store(), high, 10)).toEqual(fresh);
      expect(await m.source.page(board(), high, 10)).toEqual((await stored(board())).filter((seq) => seq > high));
    });

    it('knows no seq past the newest drawn, and the newest drawn is at least the newest stored (after a delete too)', async () => {
      const before = await newest();
      expect(m.source.knownHigh()).toBeLessThanOrEqual(await m.source.newestSeq());
      expect(await m.source.newestSeq()).toBe(before);
      await append(1);
      const [{ seq }] = await t.db('order_events').max({ seq: 'seq' });
      await t
        .db('order_events')
        .where({ seq: Number(seq) })
        .del();
      // The newest drawn stays: a cursor handed out for the deleted event is not "ahead".
      expect(await m.source.newestSeq()).toBe(Number(seq));
      expect(await m.source.page(board(), Number(seq), 10)).toEqual([]);
    });
  });
}

feedSourceContract('the database (reference)', async (db) => ({
  source: new DbFeedSource(db),
  settle: async () => undefined,
  stop: async () => undefined,
}));
feedSourceContract('the FeedIndex in front of the database', cached());
feedSourceContract('the FeedIndex with a window smaller than the feed', cached(1000));

describe('CachedFeedSource: the cache is used', () => {
  it('answers a page within the index and its live tail without a query, and an older cursor from the database', async () => {
    const m = await cached(1000)(t.db);
    try {
      await m.settle();
      const queries: string[] = [];
      const count = (q: { sql: string }) => queries.push(q.sql);
      t.db.on('query', count);
      const scope = { storeId: null, boardId: centralBoard };
      const all = await stored(scope);
      queries.length = 0;
      const recent = await m.source.page(scope, all[all.length - 20], 10);
      const tail = await m.source.page(scope, all[all.length - 1], 10);
      expect(queries).toEqual([]);
      expect(recent).toEqual(all.slice(all.length - 19, all.length - 9));
      expect(tail).toEqual([]);
      expect(await m.source.page(scope, 0, 3)).toEqual(all.slice(0, 3));
      expect(queries).toHaveLength(1);
      t.db.removeListener('query', count);
    } finally {
      await m.stop();
    }
  });
});
