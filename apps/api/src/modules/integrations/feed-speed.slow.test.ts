import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { waitFor } from '../../test/wait';
import { apiKeyChanges } from '../../http/api-key-auth';
import { startNotifications } from '../../db/notifications';
import { placeInStoreOrder, storeItems } from '../orders/test-support';
import { asciiJson } from '../orders/order-events';

/**
 * What the feed's speed rests on (issue 14), proven where it could go wrong: event texts stored as ASCII JSON
 * (a product name with "’" or an emoji comes back the same), and API key principals cached only while the
 * change listener hears every change of `api_keys` (a revoked or rescoped key is refused at once, whoever
 * changed it).
 */
const S = FIXTURE_STORES;
const NAME = 'JACK’S “RESERVE” CRÈME 😀 750';
let t: TestContext;
let fx: Fixtures;
let listener: ReturnType<typeof startNotifications> | undefined;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
});
afterAll(async () => {
  await listener?.stop();
  await t.close();
});

async function newKey(scopes = ['orders:read']): Promise<{ key: string; id: string }> {
  const { board_id: boardId } = (await t.db('stores').where({ id: S.central }).first('board_id'))!;
  const k = await request(t.app)
    .post('/api/v1/admin/api-keys')
    .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
    .send({ name: `feed speed ${Math.random()}`, boardId, scopes });
  expect(k.status).toBe(201);
  return { key: k.body.key, id: k.body.id };
}
/** Revokes key `id` by SQL with the change trigger off: nothing announces it. */
async function revokeUnheard(id: string): Promise<void> {
  await t.db.raw('ALTER TABLE api_keys DISABLE TRIGGER api_keys_changed');
  try {
    await t.db('api_keys').where({ id }).update({ revoked_at: t.db.fn.now() });
  } finally {
    await t.db.raw('ALTER TABLE api_keys ENABLE TRIGGER api_keys_changed');
  }
}
const feed = (key: string, after = 0) =>
  request(t.app).get(`/api/v1/integrations/order-events?after=${after}&limit=1000`).set('Authorization', `Bearer ${key}`);

describe('event texts in ASCII', () => {
  it('asciiJson escapes every character past U+007F and parses back to the same value', () => {
    const value = { name: NAME, n: 1, nested: [{ s: 'é' }] };
    const text = asciiJson(value);
    expect(text).toMatch(/^[\x20-\x7e]*$/);
    expect(text).toContain('JACK\\u2019S');
    expect(text).toContain('\\ud83d\\ude00');
    expect(JSON.parse(text)).toEqual(value);
  });

  it('when an order of an item named with ’ and an emoji is placed, then the feed answers ASCII bytes that parse back to that name', async () => {
    const [item] = await storeItems(t.db, S.central, 1);
    await t.db('items').where({ id: item.id }).update({ name: NAME });
    const o = await placeInStoreOrder(t, fx, S.central, { item: { ...item, name: NAME }, quantity: 2 });
    const stored = await t.db('order_events').where({ order_id: o.body.id }).first('seq', 'occurred_at', 'item_json', 'payload');
    if (!stored?.item_json) throw new Error('the event was not stored');
    const payload = stored.payload as { items: { itemName: string }[] };
    expect(stored.item_json).toMatch(/^[\x20-\x7e]*$/);
    expect(payload.items[0].itemName).toBe(NAME);
    // The stored text is the event as the feed sends it: its seq, type, time (ms, UTC) and the payload.
    expect(JSON.parse(stored.item_json)).toEqual({
      seq: Number(stored.seq),
      type: 'order.created',
      occurredAt: new Date(stored.occurred_at).toISOString(),
      order: stored.payload,
    });

    const { key } = await newKey();
    // As sent (no compression): the stated length, ASCII bytes.
    const res = await feed(key).set('Accept-Encoding', 'identity');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.text).toMatch(/^[\x20-\x7e]*$/);
    const mine = res.body.items.find((e: { order: { orderNumber: string } }) => e.order.orderNumber === o.body.orderNumber);
    expect(mine.order.items[0].itemName).toBe(NAME);
    // Read again (event texts now cached), gzip-compressed: the same JSON.
    const again = await feed(key).set('Accept-Encoding', 'gzip');
    expect(again.headers['content-encoding']).toBe('gzip');
    expect(again.text).toBe(res.text);
  });
});

describe('API key principals cached while the change listener is connected', () => {
  beforeAll(async () => {
    listener = startNotifications(t.config.databaseUrl!, t.ctx.logger, [apiKeyChanges]);
    await listener.ready;
  });

  it('when a key is revoked by SQL (not through the admin area), then the API refuses it as soon as the change is heard', async () => {
    const { key, id } = await newKey();
    expect((await feed(key)).status).toBe(200);
    expect((await feed(key)).status).toBe(200); // served from the cache
    await t.db('api_keys').where({ id }).update({ revoked_at: t.db.fn.now() });
    await waitFor('the revoked key refused', async () => (await feed(key)).status === 401, 5000);
  });

  it('when a key is revoked in the admin area, then the very next call is refused (401)', async () => {
    const { key, id } = await newKey();
    expect((await feed(key)).status).toBe(200);
    const del = await request(t.app)
      .delete(`/api/v1/admin/api-keys/${id}`)
      .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`);
    expect(del.status).toBe(204);
    expect((await feed(key)).status).toBe(401);
  });

  it('when a cached key loses a scope by SQL, then the route needing it answers 403', async () => {
    const { key, id } = await newKey(['orders:read', 'orders:write']);
    expect((await feed(key)).status).toBe(200);
    await t
      .db('api_keys')
      .where({ id })
      .update({ scopes: ['orders:write'] });
    await waitFor('the rescoped key refused', async () => (await feed(key)).status === 403, 5000);
  });

  it('when the trigger is disabled, then a key revoked by SQL still passes from the cache (the trigger is what makes revocation immediate)', async () => {
    const { key, id } = await newKey();
    expect((await feed(key)).status).toBe(200);
    await revokeUnheard(id);
    await new Promise((r) => setTimeout(r, 300));
    expect((await feed(key)).status).toBe(200);
    // Any later change of the row is heard again.
    await t.db('api_keys').where({ id }).update({ name: 'renamed' });
    await waitFor('the revoked key refused', async () => (await feed(key)).status === 401, 5000);
  });

  it("when the listener's connection is killed, then the cache is dropped at once (a key revoked unheard is refused) and the listener comes back", async () => {
    const { key, id } = await newKey();
    expect((await feed(key)).status).toBe(200);
    const killed = await t.db.raw(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'portal-notifications' AND datname = current_database()`,
    );
    expect(killed.rows.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200));
    await revokeUnheard(id);
    expect((await feed(key)).status).toBe(401);
    await waitFor(
      'the listener back',
      async () =>
        (await t.db.raw(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'portal-notifications' AND datname = current_database()`))
          .rows.length > 0,
      10_000,
    );
  });

  it('when the listener stops, then nothing is cached: a key revoked by SQL is refused at once', async () => {
    await listener?.stop();
    listener = undefined;
    const { key, id } = await newKey();
    expect((await feed(key)).status).toBe(200);
    await revokeUnheard(id);
    expect((await feed(key)).status).toBe(401);
  });
});
