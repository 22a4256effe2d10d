import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { storeItems, type StoreItem } from '../orders/test-support';
import { deliverOnce, signWebhook } from '../webhooks/webhooks.service';
import { enqueueWebhookDeliveries } from '../webhooks/webhook-queue';

/** Warehouse integrations (issue 14 §§2–5): keys, scope, inventory upsert, feed, webhooks. */
const S = FIXTURE_STORES;
let t: TestContext;
let fx: Fixtures;
let items: StoreItem[];
let key: string;
let keyId: string;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  items = await storeItems(t.db, S.central, 5);
  const k = await request(t.app)
    .post('/api/v1/admin/api-keys')
    .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
    .send({ name: 'wms', storeId: S.central, scopes: ['inventory:write', 'orders:read'] });
  expect(k.status).toBe(201);
  key = k.body.key;
  keyId = k.body.id;
});
afterAll(async () => {
  await t.close();
});
const put = (path: string, body: unknown, k = key) =>
  request(t.app)
    .put(`/api/v1${path}`)
    .set('Authorization', `Bearer ${k}`)
    .send(body as object);
const onHand = (itemId: number) =>
  t
    .db('inventory')
    .where({ store_id: S.central, item_id: itemId })
    .first('on_hand')
    .then((r) => r?.on_hand);

describe('API keys', () => {
  it('stores only the hash, lists the prefix and never the key', async () => {
    const row = await t.db('api_keys').where({ id: keyId }).first();
    expect(key).toMatch(/^bcc_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43}$/);
    expect(row?.key_hash).not.toContain(key);
    const list = await request(t.app)
      .get('/api/v1/admin/api-keys')
      .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`);
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(key);
    expect(list.body.items.find((k: { id: string }) => k.id === keyId)).toMatchObject({ id: keyId, prefix: key.slice(4, 12) });
  });
  it('refuses a user JWT on /integrations, a key elsewhere, a missing scope and a revoked key', async () => {
    expect(
      (
        await request(t.app)
          .get('/api/v1/integrations/order-events')
          .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
      ).status,
    ).toBe(401);
    expect((await request(t.app).get('/api/v1/me').set('Authorization', `Bearer ${key}`)).status).toBe(401);
    const noScope = await request(t.app)
      .post(`/api/v1/integrations/orders/X/status`)
      .set('Authorization', `Bearer ${key}`)
      .send({ status: 'ready' });
    expect(noScope.status).toBe(403);
    expect(noScope.body.code).toBe('api_key_scope_missing');
    const k2 = await request(t.app)
      .post('/api/v1/admin/api-keys')
      .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
      .send({ name: 'old', storeId: S.central, scopes: ['orders:read'] });
    expect((await request(t.app).get('/api/v1/integrations/order-events').set('Authorization', `Bearer ${k2.body.key}`)).status).toBe(200);
    expect(
      (
        await request(t.app)
          .delete(`/api/v1/admin/api-keys/${k2.body.id}`)
          .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
      ).status,
    ).toBe(204);
    expect((await request(t.app).get('/api/v1/integrations/order-events').set('Authorization', `Bearer ${k2.body.key}`)).status).toBe(401);
    expect(await t.db('audit_log').where({ action: 'api_key.revoked', entity_id: k2.body.id }).first()).toBeTruthy();
  });
});

describe('PUT /integrations/stores/{warehouseId}/inventory', () => {
  it('refuses another store with 404 and writes nothing', async () => {
    const res = await put(`/integrations/stores/${S.cyclone}/inventory`, [{ itemCode: items[0].code, onHand: 1 }]);
    expect(res.status).toBe(404);
  });
  it('a bad row → 422 naming row and field, nothing written', async () => {
    const before = await onHand(items[0].id);
    const body = [...items.map((i) => ({ itemCode: i.code, onHand: 7 })), { itemCode: items[0].code + 'X', onHand: -1 }];
    const res = await put(`/integrations/stores/${S.central}/inventory`, body);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ row: 6, field: 'onHand' }),
        expect.objectContaining({ row: 6, field: 'itemCode' }),
      ]),
    );
    expect(await onHand(items[0].id)).toBe(before);
  });
  it('dry run writes nothing; the same body twice → all unchanged; Idempotency-Key replays', async () => {
    const body = items.map((i, n) => ({ itemCode: i.code, onHand: 100 + n }));
    const before = await onHand(items[0].id);
    const dry = await put(`/integrations/stores/${S.central}/inventory?dryRun=true`, body);
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, updated: 5 });
    expect(await onHand(items[0].id)).toBe(before);
    const w1 = await put(`/integrations/stores/${S.central}/inventory`, body);
    expect(w1.body).toMatchObject({ updated: 5, unchanged: 0 });
    expect(await onHand(items[0].id)).toBe(100);
    const w2 = await put(`/integrations/stores/${S.central}/inventory`, body);
    expect(w2.body).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
    const i1 = await put(`/integrations/stores/${S.central}/inventory`, body).set('Idempotency-Key', 'k1');
    const i2 = await put(`/integrations/stores/${S.central}/inventory`, body).set('Idempotency-Key', 'k1');
    expect(i2.headers['idempotent-replayed']).toBe('true');
    expect(i2.body).toEqual(i1.body);
  });
});

describe('webhooks', () => {
  it('retries against a receiver that fails twice then succeeds, logging every attempt, with a verifiable signature', async () => {
    let calls = 0;
    const got: { sig: string; body: string }[] = [];
    const srv: Server = createServer((req, res) => {
      let b = '';
      req.on('data', (d) => (b += d));
      req.on('end', () => {
        calls++;
        got.push({ sig: String(req.headers['portal-signature']), body: b });
        res.writeHead(calls <= 2 ? 500 : 200).end();
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const hook = await request(t.app)
      .post('/api/v1/admin/webhooks')
      .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
      .send({ url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/h`, storeId: S.central, events: ['order.created'] });
    expect(hook.status).toBe(201);
    const order = await t.db('orders').first('id');
    const seq = order
      ? Number(
          (
            await t
              .db('order_events')
              .insert({ order_id: order.id, store_id: S.central, type: 'order.created', payload: '{}' })
              .returning('seq')
          )[0].seq,
        )
      : 0;
    if (!order) {
      srv.close();
      return;
    }
    const [id] = await t.db.transaction((trx) => enqueueWebhookDeliveries(trx, { seq, type: 'order.created', storeId: S.central }));
    expect(await deliverOnce(t.db, id, false)).toBe(false);
    expect(await deliverOnce(t.db, id, false)).toBe(false);
    expect(await deliverOnce(t.db, id, false)).toBe(true);
    srv.close();
    expect(await t.db('webhook_attempts').where({ delivery_id: id }).orderBy('id').pluck('status_code')).toEqual([500, 500, 200]);
    expect(await t.db('webhook_deliveries').where({ id }).first()).toMatchObject({ status: 'delivered', attempts: 3 });
    const t0 = /t=(\d+)/.exec(got[2].sig)![1];
    expect(got[2].sig).toBe(signWebhook(hook.body.secret, got[2].body, Number(t0)));
    expect(got[2].sig).not.toBe(signWebhook(hook.body.secret, got[2].body.replace('order', 'ordex'), Number(t0)));
  });
});

describe('bulk bodies', () => {
  it("takes text/csv in db:import's column names and answers like JSON; more than 50,000 rows → 413", async () => {
    const csv = ['Item Number,On Hand', ...items.map((i) => `${i.code},55`)].join('\n');
    const res = await request(t.app)
      .put(`/api/v1/integrations/stores/${S.central}/inventory`)
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'text/csv')
      .send(csv);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ updated: 5 });
    expect(await onHand(items[0].id)).toBe(55);
    const bad = ['Item Number,On Hand', `${items[0].code},x`].join('\n');
    const r2 = await request(t.app)
      .put(`/api/v1/integrations/stores/${S.central}/inventory`)
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'text/csv')
      .send(bad);
    expect(r2.status).toBe(422);
    expect(r2.body.errors).toEqual([expect.objectContaining({ row: 1, field: 'onHand' })]);
    const big = Array.from({ length: 50_001 }, () => ({ itemCode: 'A', onHand: 1 }));
    expect((await put(`/integrations/stores/${S.central}/inventory`, big)).status).toBe(413);
    expect(await onHand(items[0].id)).toBe(55);
  });
});

describe('PUT /integrations/items', () => {
  it('a board key upserts the catalog (validated whole, dry run, same body twice unchanged); a store key → 403', async () => {
    const admin = tokenFor(t, fx.users.admin);
    const board = (await t.db('stores').where({ id: S.central }).first('board_id'))!.board_id;
    const k = await request(t.app)
      .post('/api/v1/admin/api-keys')
      .set('Authorization', `Bearer ${admin}`)
      .send({ name: 'board', boardId: board, scopes: ['catalog:write'] });
    expect(k.status).toBe(201);
    const rows = [
      { itemCode: 'ZZ-NEW-1', name: 'Test Rye 750', retail: '21.50', bottlesPerCase: 12 },
      { itemCode: items[0].code, name: items[0].name, retail: items[0].retail },
    ];
    const bad = await put('/integrations/items', [...rows, { itemCode: 'ZZ-NEW-2', name: '', retail: '-1' }], k.body.key);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      expect.objectContaining({ row: 3, field: 'name' }),
      expect.objectContaining({ row: 3, field: 'retail' }),
    ]);
    expect(await t.db('items').where({ code: 'ZZ-NEW-1' }).first()).toBeUndefined();
    const dry = await put('/integrations/items?dryRun=true', rows, k.body.key);
    expect(dry.body).toMatchObject({ created: 1, dryRun: true });
    expect(await t.db('items').where({ code: 'ZZ-NEW-1' }).first()).toBeUndefined();
    const w1 = await put('/integrations/items', rows, k.body.key);
    expect(w1.body).toMatchObject({ created: 1 });
    expect(await t.db('items').where({ board_id: board, code: 'ZZ-NEW-1' }).first()).toMatchObject({
      name: 'Test Rye 750',
      retail: '21.50',
      bottles_per_case: 12,
    });
    const w2 = await put('/integrations/items', rows, k.body.key);
    expect(w2.body).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    const storeKey = await request(t.app)
      .post('/api/v1/admin/api-keys')
      .set('Authorization', `Bearer ${admin}`)
      .send({ name: 's', storeId: S.central, scopes: ['catalog:write'] });
    expect((await put('/integrations/items', rows, storeKey.body.key)).status).toBe(403);
  });
});
