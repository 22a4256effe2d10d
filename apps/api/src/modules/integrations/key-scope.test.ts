import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { placeInStoreOrder, storeItems } from '../orders/test-support';

/**
 * What a key reaches (ARCHITECTURE §10): a board key, every store of its board and none of another board's;
 * a store key, its store only. Proven on the feed, the inventory push and the status update (404 outside).
 */
const S = FIXTURE_STORES;
let t: TestContext;
let fx: Fixtures;
let otherBoard: number;
let orderNumber: string;
let otherStoreSeq: number;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  // Store "small" moves to a board of its own.
  [{ id: otherBoard }] = await t.db('boards').insert({ board_number: 9901, name: 'Other board' }).returning('id');
  await t.db('stores').where({ id: S.small }).update({ board_id: otherBoard });
  const o = await placeInStoreOrder(t, fx, S.central);
  orderNumber = o.body.orderNumber;
  // An event of the other board's store, inserted without item_json (the feed builds it on read).
  [{ seq: otherStoreSeq }] = await t
    .db('order_events')
    .insert({ order_id: o.body.id, store_id: S.small, type: 'order.created', payload: JSON.stringify({ orderNumber: 'OTHER-1' }) })
    .returning('seq');
  otherStoreSeq = Number(otherStoreSeq);
});
afterAll(async () => {
  await t.close();
});

async function keyFor(scope: { boardId?: number; storeId?: number }, scopes: string[]): Promise<string> {
  const k = await request(t.app)
    .post('/api/v1/admin/api-keys')
    .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
    .send({ name: `scope ${JSON.stringify(scope)}`, ...scope, scopes });
  expect(k.status).toBe(201);
  return k.body.key;
}
const feed = (key: string) =>
  request(t.app).get('/api/v1/integrations/order-events?after=0&limit=1000').set('Authorization', `Bearer ${key}`);

describe('what an API key reaches', () => {
  it("when a board key reads the feed, then it sees its board's stores and not another board's; that board's key sees only its own", async () => {
    const { board_id: centralBoard } = (await t.db('stores').where({ id: S.central }).first('board_id'))!;
    const mine = await feed(await keyFor({ boardId: centralBoard }, ['orders:read']));
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((e: { order: { orderNumber: string } }) => e.order.orderNumber)).toContain(orderNumber);
    expect(mine.body.items.map((e: { seq: number }) => e.seq)).not.toContain(otherStoreSeq);
    const theirs = await feed(await keyFor({ boardId: otherBoard }, ['orders:read']));
    expect(theirs.status).toBe(200);
    expect(theirs.body.items).toEqual([
      {
        seq: otherStoreSeq,
        type: 'order.created',
        occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        order: { orderNumber: 'OTHER-1' },
      },
    ]);
    expect(theirs.body.nextAfter).toBe(otherStoreSeq);
  });

  it("when a store key reads the feed, then it sees its store's events only", async () => {
    const res = await feed(await keyFor({ storeId: S.cyclone }, ['orders:read']));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], nextAfter: 0, feedId: expect.any(String) });
  });

  it("when a board key pushes stock to another board's store, then 404 and nothing is written; its own board's store → 200", async () => {
    const { board_id: centralBoard } = (await t.db('stores').where({ id: S.central }).first('board_id'))!;
    const key = await keyFor({ boardId: centralBoard }, ['inventory:write']);
    const [item] = await storeItems(t.db, S.small, 1);
    const before = await t.db('inventory').where({ store_id: S.small, item_id: item.id }).first('on_hand');
    const refused = await request(t.app)
      .put(`/api/v1/integrations/stores/${S.small}/inventory`)
      .set('Authorization', `Bearer ${key}`)
      .send([{ itemCode: item.code, onHand: 4321 }]);
    expect(refused.status).toBe(404);
    expect(await t.db('inventory').where({ store_id: S.small, item_id: item.id }).first('on_hand')).toEqual(before);
    const [own] = await storeItems(t.db, S.central, 1);
    const ok = await request(t.app)
      .put(`/api/v1/integrations/stores/${S.central}/inventory`)
      .set('Authorization', `Bearer ${key}`)
      .send([{ itemCode: own.code, onHand: 12 }]);
    expect(ok.status).toBe(200);
  });

  it('when a key moves an order of a store it does not reach, then 404 and the order stays as it was', async () => {
    const status = (key: string) =>
      request(t.app)
        .post(`/api/v1/integrations/orders/${orderNumber}/status`)
        .set('Authorization', `Bearer ${key}`)
        .send({ status: 'ready' });
    expect((await status(await keyFor({ storeId: S.cyclone }, ['orders:write']))).status).toBe(404);
    expect((await status(await keyFor({ boardId: otherBoard }, ['orders:write']))).status).toBe(404);
    expect((await t.db('orders').where({ order_number: orderNumber }).first('status'))!.status).toBe('reserved');
  });
});
