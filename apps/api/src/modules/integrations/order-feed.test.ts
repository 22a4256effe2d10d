import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { appendOrderEvent } from '../orders/order-events';
import { fillCart, postOrder, startCheckout, storeItems } from '../orders/test-support';

/**
 * The order event feed is gap-free (issue 14 §4): 200 event-appending transactions from 8 concurrent
 * writers, each holding its transaction open a random while after appending, against a reader polling
 * GET /integrations/order-events with its cursor: every event is seen exactly once, in seq order.
 */
const S = FIXTURE_STORES;
let t: TestContext;
let fx: Fixtures;
let key: string;
let orderId: number;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  const items = await storeItems(t.db, S.central, 1);
  const cartId = await fillCart(t.db, {
    userId: fx.users.buyer.id,
    outletId: fx.outlets.dsm,
    storeId: S.central,
    lines: [{ item: items[0], quantity: 1 }],
  });
  const s = await startCheckout(t.app, tokenFor(t, fx.users.buyer), cartId);
  const o = await postOrder(t.app, tokenFor(t, fx.users.buyer), { checkoutToken: s.body.token, paymentMethod: 'in_store' });
  expect(o.status).toBe(201);
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

it('when 8 writers append 200 events concurrently, then a polling reader sees every event once and in order', async () => {
  const start = Number((await t.db('order_events').max({ m: 'seq' }))[0].m ?? 0);
  let done = false;
  const seen: number[] = [];
  const reader = (async () => {
    let after = start;
    for (;;) {
      const finished = done;
      const r = await request(t.app).get(`/api/v1/integrations/order-events?after=${after}&limit=50`).set('Authorization', `Bearer ${key}`);
      expect(r.status).toBe(200);
      for (const e of r.body.items) seen.push(e.seq);
      after = r.body.nextAfter;
      if (finished && r.body.items.length === 0) return;
    }
  })();
  const writers = Array.from({ length: 8 }, async () => {
    for (let i = 0; i < 25; i++) {
      await t.db.transaction(async (trx) => {
        await appendOrderEvent(trx, orderId, 'order.created');
        await new Promise((ok) => setTimeout(ok, Math.random() * 8));
      });
    }
  });
  await Promise.all(writers);
  done = true;
  await reader;
  const all = await t
    .db('order_events')
    .where('seq', '>', start)
    .orderBy('seq')
    .pluck('seq')
    .then((s) => s.map(Number));
  expect(all).toHaveLength(200);
  expect(seen).toEqual(all);
}, 60_000);
