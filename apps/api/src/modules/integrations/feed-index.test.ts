import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../app';
import { startNotifications, type NotificationListener } from '../../db/notifications';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { waitFor } from '../../test/wait';
import { appendOrderEvent } from '../orders/order-events';
import { placeInStoreOrder } from '../orders/test-support';
import { FeedIndex } from './feed-index';

/**
 * The order feed's index in memory answers exactly what the database answers: every cursor and page size,
 * for a board key and a store key, against the same feed read without the index; the tail is fresh at once;
 * a store moved to another board leaves the old board's pages; a window smaller than the feed still answers
 * old cursors (from the database); with the listener down nothing comes from the index.
 */
const S = FIXTURE_STORES;
let t: TestContext;
let fx: Fixtures;
let index: FeedIndex;
let listener: NotificationListener | undefined;
let indexed: Express;
let orderId: number;
let centralBoard: number;
let otherBoard: number;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  ({ board_id: centralBoard } = (await t.db('stores').where({ id: S.central }).first('board_id'))!);
  [{ id: otherBoard }] = await t.db('boards').insert({ board_number: 9902, name: 'Index board' }).returning('id');
  await t.db('stores').where({ id: S.small }).update({ board_id: otherBoard });
  const o = await placeInStoreOrder(t, fx, S.central);
  orderId = o.body.id;
  // 60 more events over three stores of two boards (central and cyclone: the central board; small: the other).
  await addEvents(60);
  index = new FeedIndex(t.db);
  indexed = createApp({ ...t.ctx, feedReader: index });
  listener = startNotifications(t.config.databaseUrl!, t.ctx.logger, [index.subscriber]);
  await listener.ready;
});
afterAll(async () => {
  await listener?.stop();
  await t.close();
});

/** Appends `n` events by hand, store by store in turn (central, small, cyclone), each with its own text. */
async function addEvents(n: number): Promise<void> {
  await t.db.raw(
    `INSERT INTO order_events (order_id, store_id, type, payload, item_json)
     SELECT ?, (ARRAY[?, ?, ?]::int[])[1 + i % 3], 'order.ready', '{}'::jsonb, NULL FROM generate_series(1, ?) i`,
    [orderId, S.central, S.small, S.cyclone, n],
  );
}

async function keyFor(scope: { boardId?: number; storeId?: number }): Promise<string> {
  const k = await request(t.app)
    .post('/api/v1/admin/api-keys')
    .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
    .send({ name: `index ${JSON.stringify(scope)}`, ...scope, scopes: ['orders:read'] });
  expect(k.status).toBe(201);
  return k.body.key;
}
/** A key's principal for calling the index directly. */
const principal = (scope: { boardId?: number; storeId?: number }) => ({
  kind: 'apiKey' as const,
  apiKeyId: 'x',
  name: 'x',
  boardId: scope.boardId ?? null,
  storeId: scope.storeId ?? null,
  scopes: new Set<string>(),
});
const maxSeq = async () => Number((await t.db('order_events').max({ m: 'seq' }))[0].m ?? 0);
const read = (app: Express, key: string, after: number, limit: number) =>
  request(app).get(`/api/v1/integrations/order-events?after=${after}&limit=${limit}`).set('Authorization', `Bearer ${key}`);

/**
 * Every cursor from 0 to the last seq + 1, at each limit: the indexed app answers what the plain one does
 * (past the newest seq ever drawn, both refuse with cursor_ahead).
 */
async function expectSameAsDatabase(key: string, limits: number[]): Promise<void> {
  const max = await maxSeq();
  // The first full read teaches the index the tail (a page reaching it comes from the database).
  await read(indexed, key, 0, 1000);
  await waitFor('the index caught up', async () => ((await read(indexed, key, 0, 1)).status === 200 ? true : undefined));
  for (const limit of limits) {
    for (let after = 0; after <= Number(max) + 1; after++) {
      const [a, b] = await Promise.all([read(indexed, key, after, limit), read(t.app, key, after, limit)]);
      expect({ after, status: a.status }).toEqual({ after, status: b.status });
      if (after <= Number(max)) expect(a.status).toBe(200);
      if (a.status === 200) expect({ after, limit, body: a.text }).toEqual({ after, limit, body: b.text });
      else expect([a.body.code, b.body.code]).toEqual(['cursor_ahead', 'cursor_ahead']);
    }
  }
}

describe('the order feed read through the index', () => {
  it('when a board key pages through the feed at every cursor, then each page equals the database read', async () => {
    const key = await keyFor({ boardId: centralBoard });
    await expectSameAsDatabase(key, [1, 7]);
    expect(index.isLive).toBe(true);
    // The index did answer: a full page deep in the feed comes back while the database read would differ
    // only if the index were wrong (proven above); here, that it is used at all.
    const spy = jest.spyOn(index, 'page');
    await read(indexed, key, 0, 5);
    expect(spy).toHaveReturnedWith(expect.arrayContaining([expect.any(Number)]));
    spy.mockRestore();
  });

  it("when a store key pages through the feed, then each page equals the database read and holds only that store's events", async () => {
    const key = await keyFor({ storeId: S.small });
    await expectSameAsDatabase(key, [3]);
    const all = await read(indexed, key, 0, 1000);
    const stores = await t
      .db('order_events')
      .whereIn(
        'seq',
        all.body.items.map((e: { seq: number }) => e.seq),
      )
      .distinct('store_id');
    expect(stores).toEqual([{ store_id: S.small }]);
  });

  it('when another process appends an event, then the tail has it once its notification is heard, and answers it from the index', async () => {
    const key = await keyFor({ boardId: centralBoard });
    const last = (await read(indexed, key, 0, 1000)).body.nextAfter;
    await t.db.raw(
      `INSERT INTO order_events (order_id, store_id, type, payload, item_json) VALUES (?, ?, 'order.ready', '{}'::jsonb, NULL)`,
      [orderId, S.cyclone],
    );
    const max = await maxSeq();
    const tail = await waitFor('the tail has the new event', async () => {
      const page = await read(indexed, key, last, 1000);
      return page.body.items.length ? page : undefined;
    });
    expect(tail.body.items.map((e: { seq: number }) => e.seq)).toEqual([max]);
    // Heard and read in: the tail is the index's answer (no query for its seqs), and the database's too.
    const spy = jest.spyOn(index, 'page');
    const again = await read(indexed, key, last, 1000);
    expect(spy).toHaveLastReturnedWith([max]);
    spy.mockRestore();
    expect(again.text).toBe((await read(t.app, key, last, 1000)).text);
    expect((await read(indexed, key, max, 1000)).body).toEqual({ items: [], nextAfter: max, feedId: expect.any(String) });
  });

  it('when this process places an order, then the very next read of the tail has its event, without waiting for the notification', async () => {
    const key = await keyFor({ storeId: S.central });
    const last = (await read(indexed, key, 0, 1000)).body.nextAfter;
    expect(index.page(principal({ storeId: S.central }), last, 1000)).toEqual([]); // the tail, from the index
    // Without the trigger only the append's own commit tells the index; an index that did not hear it
    // would answer the tail it had, without the order.
    await t.db.raw('ALTER TABLE order_events DISABLE TRIGGER order_events_appended');
    try {
      const o = await placeInStoreOrder(t, fx, S.central);
      const tail = await read(indexed, key, last, 1000);
      expect(tail.body.items.map((e: { type: string; order: { orderNumber: string } }) => [e.type, e.order.orderNumber])).toEqual([
        ['order.created', o.body.orderNumber],
      ]);
      await waitFor('the index read the order in', async () =>
        index.page(principal({ storeId: S.central }), last, 1000)?.length ? true : undefined,
      );
    } finally {
      await t.db.raw('ALTER TABLE order_events ENABLE TRIGGER order_events_appended');
    }
  });

  it('when an append rolls back, then the tail is still answered from the index', async () => {
    const key = await keyFor({ boardId: centralBoard });
    const last = (await read(indexed, key, 0, 1000)).body.nextAfter;
    await t.db
      .transaction(async (trx) => {
        await appendOrderEvent(trx, orderId, 'order.ready');
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await maxSeq()).toBe(last);
    const spy = jest.spyOn(index, 'page');
    const tail = await read(indexed, key, last, 1000);
    expect(tail.body).toEqual({ items: [], nextAfter: last, feedId: expect.any(String) });
    expect(spy).toHaveLastReturnedWith([]);
    spy.mockRestore();
  });

  it('when events are deleted, then the index is rebuilt without them and every page is still exact', async () => {
    const key = await keyFor({ boardId: centralBoard });
    await read(indexed, key, 0, 1000);
    const gone = (await t.db('order_events').where({ store_id: S.cyclone }).orderBy('seq').limit(3).pluck('seq')).map(Number);
    await t.db('order_events').whereIn('seq', gone).del();
    await waitFor('the index forgot the deleted events', async () => {
      const page = await read(indexed, key, 0, 1000);
      return page.body.items.some((e: { seq: number }) => gone.includes(e.seq)) ? undefined : true;
    });
    await expectSameAsDatabase(key, [4]);
  });

  it("when a store moves to another board, then the old board's key no longer gets its events and the new board's key does", async () => {
    const oldKey = await keyFor({ boardId: centralBoard });
    const newKey = await keyFor({ boardId: otherBoard });
    await expectSameAsDatabase(oldKey, [2]);
    await t.db('stores').where({ id: S.cyclone }).update({ board_id: otherBoard });
    try {
      const cycloneSeqs = (await t.db('order_events').where({ store_id: S.cyclone }).orderBy('seq').pluck('seq')).map(Number);
      await waitFor('the index rebuilt', async () => {
        const page = await read(indexed, oldKey, 0, 1000);
        return page.body.items.every((e: { seq: number }) => !cycloneSeqs.includes(e.seq)) ? true : undefined;
      });
      await expectSameAsDatabase(oldKey, [2]);
      await expectSameAsDatabase(newKey, [2]);
      const mine = await read(indexed, newKey, 0, 1000);
      expect(mine.body.items.map((e: { seq: number }) => e.seq)).toEqual(expect.arrayContaining(cycloneSeqs));
    } finally {
      await t.db('stores').where({ id: S.cyclone }).update({ board_id: centralBoard });
    }
  });

  it('when the feed is longer than the window, then cursors before the window are read from the database and every page is still exact', async () => {
    const small = new FeedIndex(t.db, 1000);
    const app = createApp({ ...t.ctx, feedReader: small });
    const l = startNotifications(t.config.databaseUrl!, t.ctx.logger, [small.subscriber]);
    try {
      await l.ready;
      await addEvents(1400);
      const key = await keyFor({ boardId: centralBoard });
      await read(app, key, 0, 1000);
      const max = await maxSeq();
      await read(app, key, Number(max) - 2, 1000); // the tail: the index reads everything after its end
      await waitFor('the small index caught up and trimmed', async () => {
        const spy = jest.spyOn(small, 'page');
        await read(app, key, Number(max) - 200, 50);
        const answered = spy.mock.results.some((r) => Array.isArray(r.value));
        spy.mockRestore();
        return answered || undefined;
      });
      for (const after of [0, 1, 50, 400, 800, Number(max) - 1100, Number(max) - 900, Number(max) - 120, Number(max) - 10]) {
        const [a, b] = await Promise.all([read(app, key, after, 100), read(t.app, key, after, 100)]);
        expect({ after, body: a.text }).toEqual({ after, body: b.text });
      }
      // Before the window: the index declines.
      expect(small.page(principal({ boardId: centralBoard }), 0, 10)).toBeUndefined();
    } finally {
      await l.stop();
    }
  });

  it('when the listener is down, then the index answers nothing and every page comes from the database', async () => {
    const key = await keyFor({ boardId: centralBoard });
    await listener!.stop();
    listener = undefined;
    expect(index.isLive).toBe(false);
    expect(index.page(principal({ boardId: centralBoard }), 0, 1)).toBeUndefined();
    const [a, b] = await Promise.all([read(indexed, key, 3, 5), read(t.app, key, 3, 5)]);
    expect(a.text).toBe(b.text);
  });
});
