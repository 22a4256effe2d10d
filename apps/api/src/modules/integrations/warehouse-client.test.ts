import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { fillCart, postOrder, startCheckout, storeItems, type StoreItem } from '../orders/test-support';
import { deliverOnce, signWebhook } from '../webhooks/webhooks.service';
// The example is a standalone script outside every Nx project (no package to import it by): a relative path is the only way in.
// eslint-disable-next-line @nx/enforce-module-boundaries
import {
  PortalError,
  markReady,
  pullOrderEvents,
  pushInventoryCsv,
  readCursor,
  serveWebhooks,
  verifySignature,
  type OrderEvent,
  type WebhookEvent,
} from '../../../../../examples/warehouse-client/client';

/**
 * The example warehouse client (examples/warehouse-client, issue 14 §6) against the real API on a real port:
 * a store key pushes CSV stock, follows the order feed with a cursor file, marks an order ready, and its
 * webhook receiver accepts a signed delivery and refuses tampered ones.
 */
const S = FIXTURE_STORES;
let t: TestContext;
let fx: Fixtures;
let items: StoreItem[];
let server: Server;
let baseUrl: string;
let apiKey: string;
let dir: string;
let cursorFile: string;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  items = await storeItems(t.db, S.central, 3);
  const k = await request(t.app)
    .post('/api/v1/admin/api-keys')
    .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
    .send({ name: 'example warehouse', storeId: S.central, scopes: ['inventory:write', 'orders:read', 'orders:write'] });
  expect(k.status).toBe(201);
  apiKey = k.body.key;
  server = await new Promise<Server>((ok) => {
    const s = t.app.listen(0, '127.0.0.1', () => ok(s));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'warehouse-client-'));
  cursorFile = join(dir, 'cursor');
});
afterAll(async () => {
  await new Promise((ok) => server.close(ok));
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

async function placeOrder(): Promise<{ id: number; orderNumber: string }> {
  await t.db('carts').where({ user_id: fx.users.buyer.id, status: 'active' }).update({ status: 'abandoned' });
  const cartId = await fillCart(t.db, {
    userId: fx.users.buyer.id,
    outletId: fx.outlets.dsm,
    storeId: S.central,
    lines: [{ item: items[0], quantity: 2 }],
  });
  const s = await startCheckout(t.app, tokenFor(t, fx.users.buyer), cartId);
  expect(s.status).toBe(201);
  const o = await postOrder(t.app, tokenFor(t, fx.users.buyer), { checkoutToken: s.body.token, paymentMethod: 'in_store' });
  expect(o.status).toBe(201);
  return { id: o.body.id, orderNumber: o.body.orderNumber };
}
const onHand = (itemId: number) =>
  t
    .db('inventory')
    .where({ store_id: S.central, item_id: itemId })
    .first('on_hand')
    .then((r) => r?.on_hand);
const csvOf = (rows: [string, number][]) => ['Item Number,On Hand', ...rows.map(([c, n]) => `${c},${n}`)].join('\n') + '\n';

describe('pushInventoryCsv', () => {
  it('when a CSV is pushed, then it answers the counts; the same file again answers all unchanged; a dry run writes nothing; a bad row throws the row errors', async () => {
    const conn = { baseUrl, apiKey, warehouseId: S.central };
    const csv = csvOf(items.map((i, n) => [i.code, 1000 + n]));
    expect(await pushInventoryCsv({ ...conn, csv })).toEqual({ created: 0, updated: 3, unchanged: 0, removed: 0, dryRun: false });
    expect(await Promise.all(items.map((i) => onHand(i.id)))).toEqual([1000, 1001, 1002]);
    const file = join(dir, 'inventory.csv');
    writeFileSync(file, csv);
    expect(await pushInventoryCsv({ ...conn, csvPath: file })).toEqual({ created: 0, updated: 0, unchanged: 3, removed: 0, dryRun: false });
    expect(await pushInventoryCsv({ ...conn, csv: csvOf(items.map((i) => [i.code, 7])), dryRun: true })).toMatchObject({
      updated: 3,
      dryRun: true,
    });
    expect(await onHand(items[0].id)).toBe(1000);

    const bad = pushInventoryCsv({
      ...conn,
      csv: csvOf([
        [items[0].code, 5],
        ['NO-SUCH-ITEM', 1],
      ]),
    });
    await expect(bad).rejects.toBeInstanceOf(PortalError);
    const err = (await bad.catch((e: unknown) => e)) as PortalError;
    expect(err.status).toBe(422);
    expect(err.errors).toEqual([expect.objectContaining({ row: 2, field: 'itemCode', message: expect.stringContaining('NO-SUCH-ITEM') })]);
    expect(err.message).toMatch(/→ 422 .*\n {2}row 2 itemCode: Unknown item code NO-SUCH-ITEM/);
    expect(await onHand(items[0].id)).toBe(1000);
    await expect(pushInventoryCsv({ ...conn, warehouseId: S.cyclone, csv })).rejects.toMatchObject({ status: 404 });
  });
});

describe('pullOrderEvents', () => {
  it('when orders are placed, then a pull pages through the feed from the saved cursor, returns their order.created events and saves the cursor; a second pull returns nothing', async () => {
    const conn = { baseUrl, apiKey, cursorFile };
    await pullOrderEvents(conn); // catch up with the fixtures' past events
    const start = await readCursor(cursorFile);
    expect(start).toBe(Number((await t.db('order_events').where({ store_id: S.central }).max({ m: 'seq' }))[0].m ?? 0));
    const placed = [await placeOrder(), await placeOrder()];
    const cursorSeen: number[] = [];
    const events = await pullOrderEvents({
      ...conn,
      limit: 1,
      handle: async () => {
        cursorSeen.push(await readCursor(cursorFile));
      },
    });
    expect(events.map((e) => [e.type, e.order.orderNumber, e.order.status])).toEqual(
      placed.map((o) => ['order.created', o.orderNumber, 'reserved']),
    );
    expect(events[0].order).toMatchObject({
      storeId: S.central,
      unitCount: 2,
      items: [expect.objectContaining({ itemCode: items[0].code, quantity: 2 })],
    });
    expect(cursorSeen).toEqual([start, events[0].seq]); // saved after each page (limit 1: one event a page)
    expect(readFileSync(cursorFile, 'utf8').trim()).toBe(String(events[1].seq));
    expect(await pullOrderEvents(conn)).toEqual([]);
    expect(await readCursor(cursorFile)).toBe(events[1].seq);
  });
});

describe('markReady and serveWebhooks', () => {
  it('when the warehouse marks an order ready, then the order is ready, a second try is 409, the signed order.ready webhook reaches onEvent, and a failing handler leaves the cursor for the next pull', async () => {
    const hook = await request(t.app)
      .post('/api/v1/admin/webhooks')
      .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
      .send({ url: 'http://127.0.0.1:9/not-yet', storeId: S.central, events: ['order.ready'] });
    expect(hook.status).toBe(201);
    const got: WebhookEvent[] = [];
    const rx = await serveWebhooks({
      port: 0,
      host: '127.0.0.1',
      secret: hook.body.secret,
      onEvent: (e) => {
        got.push(e);
      },
    });
    try {
      const moved = await request(t.app)
        .patch(`/api/v1/admin/webhooks/${hook.body.id}`)
        .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
        .send({ url: `${rx.url}hooks/portal` });
      expect(moved.status).toBe(200);
      // An order of this test's own, and the cursor caught up past its order.created (whatever ran before).
      const o = await placeOrder();
      await pullOrderEvents({ baseUrl, apiKey, cursorFile });
      const order = await markReady({ baseUrl, apiKey, orderNumber: o.orderNumber });
      expect(order).toMatchObject({ orderNumber: o.orderNumber, status: 'ready' });
      expect((await t.db('orders').where({ id: o.id }).first('status'))!.status).toBe('ready');
      await expect(markReady({ baseUrl, apiKey, orderNumber: o.orderNumber })).rejects.toMatchObject({
        status: 409,
        code: 'order_not_reserved',
      });
      await expect(markReady({ baseUrl, apiKey, orderNumber: 'NOPE-1' })).rejects.toMatchObject({ status: 404 });

      const [delivery] = await t.db('webhook_deliveries').where({ endpoint_id: hook.body.id }).pluck('id');
      expect(await deliverOnce(t.db, delivery, false)).toBe(true);
      expect(got).toEqual([
        expect.objectContaining({
          id: delivery,
          type: 'order.ready',
          order: expect.objectContaining({ orderNumber: o.orderNumber, status: 'ready' }),
        }),
      ]);
      expect(await t.db('webhook_deliveries').where({ id: delivery }).first()).toMatchObject({
        status: 'delivered',
        last_status_code: 204,
      });

      // The feed holds the same order.ready event: a handler that fails keeps the cursor, the next pull sees it again.
      const before = await readCursor(cursorFile);
      await expect(
        pullOrderEvents({
          baseUrl,
          apiKey,
          cursorFile,
          handle: () => {
            throw new Error('printer jammed');
          },
        }),
      ).rejects.toThrow('printer jammed');
      expect(await readCursor(cursorFile)).toBe(before);
      const again: OrderEvent[] = await pullOrderEvents({ baseUrl, apiKey, cursorFile });
      expect(again.map((e) => [e.seq, e.type, e.order.orderNumber])).toEqual([[got[0].seq, 'order.ready', o.orderNumber]]);
    } finally {
      await rx.close();
    }
  });

  it("when a delivery's body, signature or timestamp is tampered with or missing, then the receiver answers 401 and onEvent is not called; a good one answers 204", async () => {
    const secret = 'whsec_test-secret';
    const got: WebhookEvent[] = [];
    const refused: string[] = [];
    const rx = await serveWebhooks({
      port: 0,
      host: '127.0.0.1',
      secret,
      onEvent: (e) => {
        got.push(e);
      },
      onRefused: (status, why) => refused.push(`${status} ${why}`),
    });
    try {
      const body = JSON.stringify({
        id: 'd1',
        seq: 41,
        type: 'order.created',
        occurredAt: new Date().toISOString(),
        order: { orderNumber: 'X-1' },
      });
      const send = (b: string, sig?: string) =>
        fetch(rx.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(sig ? { 'portal-signature': sig } : {}) },
          body: b,
        }).then((r) => r.status);
      const sig = signWebhook(secret, body);
      const flipped = sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0');
      const now = Math.floor(Date.now() / 1000);
      expect(await send(body.replace('X-1', 'X-2'), sig)).toBe(401);
      expect(await send(body, flipped)).toBe(401);
      expect(await send(body)).toBe(401);
      expect(await send(body, signWebhook('whsec_other', body))).toBe(401);
      expect(await send(body, signWebhook(secret, body, now - 301))).toBe(401);
      expect(got).toEqual([]);
      expect(refused).toEqual([
        '401 bad or stale Portal-Signature',
        '401 bad or stale Portal-Signature',
        '401 no Portal-Signature',
        '401 bad or stale Portal-Signature',
        '401 bad or stale Portal-Signature',
      ]);
      expect(await send(body, sig)).toBe(204);
      expect(got).toEqual([JSON.parse(body)]);
      expect((await fetch(rx.url)).status).toBe(405);

      const t0 = 1_795_400_000;
      const at = signWebhook(secret, body, t0);
      expect(verifySignature(secret, body, at, t0 + 299)).toBe(true);
      expect(verifySignature(secret, Buffer.from(body), at, t0 - 299)).toBe(true);
      expect(verifySignature(secret, body, at, t0 + 301)).toBe(false);
      expect(verifySignature(secret, body, at, t0 - 301)).toBe(false);
      expect(verifySignature(secret, body, 't=1795400000,v1=zz', t0)).toBe(false);
      expect(verifySignature(secret, body, undefined, t0)).toBe(false);
    } finally {
      await rx.close();
    }
  });
});
