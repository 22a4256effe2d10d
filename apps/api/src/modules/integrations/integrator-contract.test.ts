import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { orderDetailSchema } from '@portal/contracts';
import { createApp } from '../../app';
import { openApiDocument } from '../../http/openapi';
import { problem } from '../../test/http';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { storeItems, type StoreItem } from '../orders/test-support';
import { deliverOnce } from '../webhooks/webhooks.service';

/**
 * What an integrator reads and gets (issue 24 §7): the OpenAPI document (API-key scheme, bulk request
 * bodies, response headers), one status per problem code on the integration endpoints, the receiver's
 * answer in the webhook delivery log, and synthetic test events.
 */
const S = FIXTURE_STORES;
let t: TestContext;
let fx: Fixtures;
let items: StoreItem[];
let boardId: number;
beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  items = await storeItems(t.db, S.central, 2);
  boardId = (await t.db('stores').where({ id: S.central }).first('board_id'))!.board_id;
});
afterAll(async () => {
  await t.close();
});
const admin = () => tokenFor(t, fx.users.admin);
async function newKey(body: object): Promise<{ id: string; key: string; sandbox: boolean }> {
  const k = await request(t.app).post('/api/v1/admin/api-keys').set('Authorization', `Bearer ${admin()}`).send(body);
  expect(k.status).toBe(201);
  return k.body;
}

type Op = {
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: { type?: string; items?: object }; example?: string }> };
  responses: Record<string, { headers?: Record<string, unknown> }>;
};
const op = (method: string, path: string) =>
  (openApiDocument() as { paths: Record<string, Record<string, Op>> }).paths[`/api/v1${path}`][method];

describe('OpenAPI for integrators', () => {
  it("when the document is read, then API-key routes use the apiKey scheme, not the JWT one, and users' routes keep bearerAuth", () => {
    const doc = openApiDocument() as { components: { securitySchemes: Record<string, { scheme: string; bearerFormat: string }> } };
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ scheme: 'bearer', bearerFormat: expect.stringContaining('bcc_') });
    for (const [m, p] of [
      ['put', '/integrations/stores/{warehouseId}/inventory'],
      ['put', '/integrations/items'],
      ['get', '/integrations/order-events'],
      ['post', '/integrations/orders/{orderNumber}/status'],
      ['post', '/integrations/test-events'],
    ])
      expect(op(m, p).security).toEqual([{ apiKey: [] }]);
    expect(op('get', '/me').security).toEqual([{ bearerAuth: [] }]);
  });

  it('when the bulk endpoints are read, then each documents a JSON array and a CSV request body', () => {
    for (const p of ['/integrations/stores/{warehouseId}/inventory', '/integrations/items']) {
      const body = op('put', p).requestBody!;
      expect(body.content['application/json'].schema).toMatchObject({ type: 'array', items: expect.any(Object) });
      expect(body.content['text/csv']).toMatchObject({ schema: { type: 'string' }, example: expect.stringMatching(/^Item Number,/) });
    }
    const row = op('put', '/integrations/stores/{warehouseId}/inventory').requestBody!.content['application/json'].schema.items as {
      properties: Record<string, unknown>;
    };
    expect(Object.keys(row.properties)).toEqual(['itemCode', 'onHand', 'price']);
  });

  it('when the responses are read, then rate-limit, Retry-After and Idempotent-Replayed headers are documented', () => {
    const push = op('put', '/integrations/stores/{warehouseId}/inventory');
    expect(Object.keys(push.responses['200'].headers ?? {}).sort()).toEqual(['Idempotent-Replayed', 'RateLimit', 'RateLimit-Policy']);
    expect(Object.keys(push.responses['429'].headers ?? {}).sort()).toEqual(['RateLimit', 'RateLimit-Policy', 'Retry-After']);
    expect(Object.keys(op('get', '/integrations/order-events').responses['200'].headers ?? {}).sort()).toEqual([
      'RateLimit',
      'RateLimit-Policy',
    ]);
    expect(op('post', '/orders').responses['201'].headers).toHaveProperty('Idempotent-Replayed');
    expect(op('get', '/me').responses['200'].headers).toBeUndefined();
  });
});

describe('one status per code on the integration endpoints', () => {
  it('when a push has bad rows, then 422 rows_invalid with every row; when a webhook URL is bad or no store is named, then 400 validation_failed like any bad field', async () => {
    const { key } = await newKey({ name: 'wms', storeId: S.central, scopes: ['inventory:write'] });
    const rows = await request(t.app)
      .put(`/api/v1/integrations/stores/${S.central}/inventory`)
      .set('Authorization', `Bearer ${key}`)
      .send([{ itemCode: items[0].code, onHand: -1 }]);
    expect(rows.status).toBe(422);
    expect(problem(rows)).toMatchObject({
      status: 422,
      code: 'rows_invalid',
      errors: [expect.objectContaining({ row: 1, field: 'onHand' })],
    });

    const hooks = await t.db('webhook_endpoints').count({ n: '*' }).first();
    const badUrl = await request(t.app)
      .post('/api/v1/admin/webhooks')
      .set('Authorization', `Bearer ${admin()}`)
      .send({ url: 'ftp://example.com/h', storeId: S.central, events: ['order.created'] });
    expect(badUrl.status).toBe(400);
    expect(problem(badUrl)).toMatchObject({ code: 'validation_failed', errors: [{ path: 'url', message: 'Enter a valid http(s) URL' }] });
    const schemaBad = await request(t.app)
      .post('/api/v1/admin/webhooks')
      .set('Authorization', `Bearer ${admin()}`)
      .send({ url: 'not a url', storeId: S.central, events: ['order.created'] });
    expect([schemaBad.status, problem(schemaBad).code]).toEqual([400, 'validation_failed']);
    const noScope = await request(t.app)
      .post('/api/v1/admin/api-keys')
      .set('Authorization', `Bearer ${admin()}`)
      .send({ name: 'x', scopes: ['orders:read'] });
    expect([noScope.status, problem(noScope).code]).toEqual([400, 'validation_failed']);
    expect(await t.db('webhook_endpoints').count({ n: '*' }).first()).toEqual(hooks);
  });
});

describe('webhook delivery log', () => {
  it('when the receiver answers 500 with a message, then the delivery log shows its status and text; once it answers 200 the error is gone (a test event, its body marked test: true)', async () => {
    let status = 500;
    const bodies: string[] = [];
    const srv: Server = createServer((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => {
        bodies.push(b);
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 500 ? 'database   locked\nretry later' : 'ok');
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const hook = await request(t.app)
        .post('/api/v1/admin/webhooks')
        .set('Authorization', `Bearer ${admin()}`)
        .send({ url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/h`, storeId: S.central, events: ['order.created'] });
      expect(hook.status).toBe(201);
      const { key } = await newKey({ name: 'events', storeId: S.central, scopes: ['orders:read'] });
      const ev = await request(t.app).post('/api/v1/integrations/test-events').set('Authorization', `Bearer ${key}`).send({});
      expect(ev.status).toBe(201);
      const d = (await t.db('webhook_deliveries').where({ endpoint_id: hook.body.id }).first('id'))!;
      expect(await deliverOnce(t.db, d.id, false)).toBe(false);
      const log = () => request(t.app).get(`/api/v1/admin/webhooks/${hook.body.id}/deliveries`).set('Authorization', `Bearer ${admin()}`);
      const failed = await log();
      expect(failed.status).toBe(200);
      expect(failed.body.items[0]).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastStatusCode: 500,
        lastError: 'HTTP 500 Internal Server Error: database locked retry later',
      });
      expect(await t.db('webhook_attempts').where({ delivery_id: d.id }).first('status_code', 'error')).toEqual({
        status_code: 500,
        error: 'HTTP 500 Internal Server Error: database locked retry later',
      });
      status = 200;
      expect(await deliverOnce(t.db, d.id, false)).toBe(true);
      expect((await log()).body.items[0]).toMatchObject({ status: 'delivered', attempts: 2, lastStatusCode: 200, lastError: null });
      expect(JSON.parse(bodies[1])).toMatchObject({
        seq: ev.body.seq,
        type: 'order.created',
        test: true,
        order: { orderNumber: ev.body.order.orderNumber },
      });
    } finally {
      srv.close();
    }
  });
});

describe('POST /integrations/test-events', () => {
  it('when a store key asks in development or test, then a synthetic order.created marked test: true is on its feed, with no order behind it', async () => {
    const { key } = await newKey({ name: 'try', storeId: S.central, scopes: ['orders:read'] });
    const orders = await t.db('orders').count({ n: '*' }).first();
    const res = await request(t.app).post('/api/v1/integrations/test-events').set('Authorization', `Bearer ${key}`).send({});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'order.created',
      test: true,
      order: { id: 0, storeId: S.central, orderNumber: expect.stringMatching(/^TEST-/) },
    });
    expect(orderDetailSchema.safeParse(res.body.order).success).toBe(true);
    expect(res.headers['ratelimit-policy']).toMatch(/^"api-key"/);
    const row = await t.db('order_events').where({ seq: res.body.seq }).first();
    expect(row).toMatchObject({ order_id: null, store_id: S.central, type: 'order.created', test: true });
    expect(await t.db('orders').count({ n: '*' }).first()).toEqual(orders);
    const feed = await request(t.app)
      .get(`/api/v1/integrations/order-events?after=${res.body.seq - 1}`)
      .set('Authorization', `Bearer ${key}`);
    expect(feed.status).toBe(200);
    expect(feed.body.items[0]).toMatchObject({
      seq: res.body.seq,
      type: 'order.created',
      test: true,
      order: { orderNumber: res.body.order.orderNumber },
    });
    expect(
      await t
        .db('audit_log')
        .where({ action: 'integrations.test_event', entity_id: String(S.central) })
        .first(),
    ).toBeTruthy();
  });

  it('when a board key names no store or a store of another board, then 400 validation_failed or 404; a store of its board works', async () => {
    const { key } = await newKey({ name: 'board', boardId, scopes: ['orders:read'] });
    const post = (body: object) => request(t.app).post('/api/v1/integrations/test-events').set('Authorization', `Bearer ${key}`).send(body);
    const none = await post({});
    expect([none.status, problem(none).code, problem(none).errors[0].path]).toEqual([400, 'validation_failed', 'storeId']);
    const [other] = await t.db('boards').insert({ board_number: 99, name: 'Elsewhere' }).returning('id');
    await t.db('stores').insert({ id: 999001, warehouse_code: 'X-999001', name: 'Far away', board_id: other.id });
    expect((await post({ storeId: 999001 })).status).toBe(404);
    expect((await post({ storeId: S.cyclone })).status).toBe(201);
    expect(await t.db('order_events').where({ store_id: 999001 })).toHaveLength(0);
  });

  it('when the portal runs in production, then a key without the sandbox flag is refused 403 test_events_unavailable and a sandbox key may', async () => {
    const prod = createApp({ ...t.ctx, config: { ...t.config, env: 'production', production: true } });
    const plain = await newKey({ name: 'live', storeId: S.central, scopes: ['orders:read'] });
    const sandbox = await newKey({ name: 'sandbox', storeId: S.central, scopes: ['orders:read'], sandbox: true });
    expect(sandbox.sandbox).toBe(true);
    expect((await t.db('api_keys').where({ id: sandbox.id }).first('sandbox'))?.sandbox).toBe(true);
    const before = await t.db('order_events').count({ n: '*' }).first();
    const refused = await request(prod).post('/api/v1/integrations/test-events').set('Authorization', `Bearer ${plain.key}`).send({});
    expect(refused.status).toBe(403);
    expect(problem(refused).code).toBe('test_events_unavailable');
    expect(await t.db('order_events').count({ n: '*' }).first()).toEqual(before);
    expect(
      (await request(prod).post('/api/v1/integrations/test-events').set('Authorization', `Bearer ${sandbox.key}`).send({})).status,
    ).toBe(201);
    const noScope = await newKey({ name: 'push only', storeId: S.central, scopes: ['inventory:write'], sandbox: true });
    const scope = await request(prod).post('/api/v1/integrations/test-events').set('Authorization', `Bearer ${noScope.key}`).send({});
    expect([scope.status, problem(scope).code]).toEqual([403, 'api_key_scope_missing']);
  });
});
