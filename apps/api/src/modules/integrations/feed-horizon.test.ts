import { createTestContext, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures } from '../../test/fixtures';
import { appendOrderEvent } from '../orders/order-events';
import { feedHorizon } from '../orders/orders.service';
import { placeInStoreOrder } from '../orders/test-support';
import * as repo from './feed.repository';

/**
 * Appends do not wait for each other (issue 29 §1, migration 2026120100080001): an append holds its seq's lock
 * until its transaction ends, and the feed reads only up to order_events_horizon(), so an event committed
 * after a later one is never passed, and a rolled-back append's seq is a gap the feed goes past.
 */
let t: TestContext;
let orderId: number;
const all = { storeId: null, boardId: null };

beforeAll(async () => {
  t = await createTestContext();
  const fx = await seedFixtures(t.db);
  orderId = (await placeInStoreOrder(t, fx, FIXTURE_STORES.central)).body.id;
});
afterAll(async () => {
  await t.close();
});

/** Runs `body` inside an append's open transaction (the event appended first), committing or rolling back when `finish` resolves. */
function openAppend(outcome: 'commit' | 'rollback') {
  let release!: () => void;
  const gate = new Promise<void>((ok) => (release = ok));
  let seq!: number;
  let appended!: () => void;
  const ready = new Promise<void>((ok) => (appended = ok));
  const done = t.db
    .transaction(async (trx) => {
      seq = await appendOrderEvent(trx, orderId, 'order.ready');
      appended();
      await gate;
      if (outcome === 'rollback') throw new Error('rolled back on purpose');
    })
    .catch((e: Error) => {
      if (e.message !== 'rolled back on purpose') throw e;
    });
  return { ready: ready.then(() => seq), finish: async () => (release(), done) };
}

describe('the feed horizon', () => {
  it('when an append is in flight and a later one commits, then neither a page nor the index read passes the first until it commits', async () => {
    const first = openAppend('commit');
    const seq1 = await first.ready;
    const seq2 = await t.db.transaction((trx) => appendOrderEvent(trx, orderId, 'order.completed'));
    expect(seq2).toBeGreaterThan(seq1);
    expect(await feedHorizon(t.db)).toBe(seq1 - 1);
    expect(await repo.pageSeqs(t.db, all, seq1 - 1, 10)).toEqual([]);
    expect((await repo.eventsAfter(t.db, seq1 - 1, 10)).map((e) => e.seq)).toEqual([]);
    await first.finish();
    expect(await repo.pageSeqs(t.db, all, seq1 - 1, 10)).toEqual([seq1, seq2]);
    expect(await feedHorizon(t.db)).toBeGreaterThanOrEqual(seq2);
  });

  it('when an append in flight rolls back, then the feed goes past its seq', async () => {
    const lost = openAppend('rollback');
    const seq1 = await lost.ready;
    const seq2 = await t.db.transaction((trx) => appendOrderEvent(trx, orderId, 'order.completed'));
    expect(await repo.pageSeqs(t.db, all, seq1 - 1, 10)).toEqual([]);
    await lost.finish();
    expect(await repo.pageSeqs(t.db, all, seq1 - 1, 10)).toEqual([seq2]);
  });

  it('when appends run in two transactions at once, then neither waits for the other to commit', async () => {
    const first = openAppend('commit');
    await first.ready;
    // With a lock held to commit, this append would wait for `first` (and the test time out).
    const second = await t.db.transaction((trx) => appendOrderEvent(trx, orderId, 'order.completed'));
    expect(second).toBeGreaterThan(0);
    await first.finish();
  });
});
