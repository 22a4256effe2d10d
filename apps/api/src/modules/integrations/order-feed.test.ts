import bcrypt from 'bcrypt';
import request from 'supertest';
import { FIXTURE_PASSWORD, createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { appendOrderEvent } from '../orders/order-events';
import type { Express } from 'express';
import { createApp } from '../../app';
import { startNotifications } from '../../db/notifications';
import { FeedIndex } from './feed-index';
import { fillCart, placeInStoreOrder, postOrder, startCheckout, storeItems } from '../orders/test-support';

/**
 * The order event feed is gap-free (issue 14 §4): a reader polling GET /integrations/order-events with
 * its cursor sees every event exactly once, in seq order, while (1) 8 buyers place 200 orders through the
 * API at once, read with a board key; (2) 8 writers append 200 events, each holding its transaction open
 * a random while after appending.
 */
const S = FIXTURE_STORES;
let t: TestContext;
let fx: Fixtures;
let key: string;
let orderId: number;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  const o = await placeInStoreOrder(t, fx, S.central);
  orderId = o.body.id;
  const k = await request(t.app)
    .post('/api/v1/admin/api-keys')
    .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
    .send({ name: 'feed', storeId: S.central, scopes: ['orders:read'] });
  key = k.body.key;
});
afterAll(async () => {
  await t.close();
});

/** 8 writers append 25 events each, every one holding its transaction open a random while after appending. */
async function appendConcurrently(): Promise<void> {
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = 0; i < 25; i++) {
        await t.db.transaction(async (trx) => {
          await appendOrderEvent(trx, orderId, 'order.created');
          await new Promise((ok) => setTimeout(ok, Math.random() * 8));
        });
      }
    }),
  );
}

/** Polls the feed from `start` with `bearer` until `isDone()` was true before an empty page; returns the seqs seen. */
async function pollFeed(
  bearer: string,
  start: number,
  isDone: () => boolean,
  app: Express = t.app,
  limit = 50,
): Promise<{ seq: number; type: string; order: { orderNumber?: string } }[]> {
  const seen: { seq: number; type: string; order: { orderNumber?: string } }[] = [];
  let after = start;
  for (;;) {
    const finished = isDone();
    const r = await request(app)
      .get(`/api/v1/integrations/order-events?after=${after}&limit=${limit}`)
      .set('Authorization', `Bearer ${bearer}`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    seen.push(...r.body.items);
    after = r.body.nextAfter;
    if (finished && r.body.items.length === 0) return seen;
  }
}

it('when 8 buyers place 200 orders at once, then a board key polling the feed sees every order.created once and in order', async () => {
  const BUYERS = 8;
  const EACH = 25;
  const start = Number((await t.db('order_events').max({ m: 'seq' }))[0]!.m ?? 0);
  const { board_id: boardId } = (await t.db('stores').where({ id: S.central }).first('board_id'))!;
  const k = await request(t.app)
    .post('/api/v1/admin/api-keys')
    .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
    .send({ name: 'feed board', boardId, scopes: ['orders:read'] });
  expect(k.status).toBe(201);
  // 8 buyers of the Des Moines outlet, each with its own item in plenty.
  const items = await storeItems(t.db, S.central, BUYERS);
  await t
    .db('inventory')
    .where({ store_id: S.central })
    .whereIn(
      'item_id',
      items.map((i) => i.id),
    )
    .update({ on_hand: 10_000 });
  const role = await t.db('roles').where({ code: 'outlet_buyer' }).first('id');
  const hash = await bcrypt.hash(FIXTURE_PASSWORD, 4);
  const buyers: { id: string; email: string }[] = [];
  for (let b = 0; b < BUYERS; b++) {
    const email = `feed-buyer-${b}@example.com`;
    const [u] = await t.db('users').insert({ email, password_hash: hash, is_active: true }).returning('id');
    await t.db('user_profiles').insert({ user_id: u.id, first_name: 'Feed', last_name: `Buyer ${b}`, full_name: `Feed Buyer ${b}` });
    await t.db('role_grants').insert({ user_id: u.id, role_id: role!.id, scope_type: 'outlet', outlet_id: fx.outlets.dsm });
    buyers.push({ id: u.id, email });
  }
  let done = false;
  const reader = pollFeed(k.body.key, start, () => done);
  const placed: string[] = [];
  await Promise.all(
    buyers.map(async (buyer, b) => {
      const token = tokenFor(t, buyer);
      for (let i = 0; i < EACH; i++) {
        const cartId = await fillCart(t.db, {
          userId: buyer.id,
          outletId: fx.outlets.dsm,
          storeId: S.central,
          lines: [{ item: items[b], quantity: 1 }],
        });
        const s = await startCheckout(t.app, token, cartId);
        expect(s.status).toBe(201);
        const o = await postOrder(t.app, token, { checkoutToken: s.body.token, paymentMethod: 'in_store' });
        expect(o.status).toBe(201);
        placed.push(o.body.orderNumber);
      }
    }),
  );
  done = true;
  const seen = await reader;
  const all = await t
    .db('order_events')
    .where('seq', '>', start)
    .orderBy('seq')
    .pluck('seq')
    .then((q) => q.map(Number));
  expect(placed).toHaveLength(BUYERS * EACH);
  expect(all).toHaveLength(BUYERS * EACH);
  expect(seen.map((e) => e.seq)).toEqual(all);
  expect(seen.every((e) => e.type === 'order.created')).toBe(true);
  expect(new Set(seen.map((e) => e.order.orderNumber))).toEqual(new Set(placed));
}, 120_000);

it('when 8 writers append 200 events concurrently, then a polling reader sees every event once and in order', async () => {
  const start = Number((await t.db('order_events').max({ m: 'seq' }))[0].m ?? 0);
  let done = false;
  const reader = pollFeed(key, start, () => done);
  await appendConcurrently();
  done = true;
  const seen = (await reader).map((e) => e.seq);
  const all = await t
    .db('order_events')
    .where('seq', '>', start)
    .orderBy('seq')
    .pluck('seq')
    .then((s) => s.map(Number));
  expect(all).toHaveLength(200);
  expect(seen).toEqual(all);
}, 60_000);

it('when 8 writers append 200 events while readers page through the index in memory, then every reader sees every event once and in order', async () => {
  const index = new FeedIndex(t.db);
  const indexed = createApp({ ...t.ctx, feedReader: index });
  const listener = startNotifications(t.config.databaseUrl!, t.ctx.logger, [index.subscriber]);
  try {
    await listener.ready;
    const pages = jest.spyOn(index, 'page');
    const start = Number((await t.db('order_events').max({ m: 'seq' }))[0].m ?? 0);
    let done = false;
    // One reader at the tail; another that starts over from the beginning every time it reaches the end,
    // so most of its full pages come from the index while the index is being extended.
    const tail = pollFeed(key, start, () => done, indexed, 10);
    const passes: number[][] = [];
    const rereader = (async () => {
      for (;;) {
        const finished = done;
        passes.push((await pollFeed(key, 0, () => true, indexed, 7)).map((e) => e.seq));
        if (finished) return;
      }
    })();
    await appendConcurrently();
    done = true;
    const [seen] = await Promise.all([tail, rereader]);
    const all = (await t.db('order_events').where({ store_id: S.central }).orderBy('seq').pluck('seq')).map(Number);
    expect(seen.map((e) => e.seq)).toEqual(all.filter((s) => s > start));
    expect(passes.length).toBeGreaterThan(1);
    // Every pass is the feed as it stood: a prefix of the final one; the last pass is all of it.
    for (const pass of passes) expect(pass).toEqual(all.slice(0, pass.length));
    expect(passes[passes.length - 1]).toEqual(all);
    expect(index.isLive).toBe(true);
    const fromIndex = pages.mock.results.filter((r) => Array.isArray(r.value)).length;
    expect(fromIndex).toBeGreaterThan(20);
  } finally {
    await listener.stop();
  }
}, 60_000);
