import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { startNotifications, type NotificationListener } from '../../db/notifications';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { createOrderEventHub } from './live-events.service';
import { appendOrderEvent } from './order-events';
import { fillCart, placeInStoreOrder, postOrder, startCheckout, storeItems } from './test-support';

/**
 * GET /me/events (issue 26 §7): live order updates over server-sent events. Streams are read over a real socket
 * (fetch), as a browser would. Order events reach a stream through LISTEN/NOTIFY (the hub main.ts starts), and
 * through the feed read every LIVE_POLL_SECONDS when no notifications are heard.
 */
interface Frame {
  event?: string;
  id?: string;
  data?: string;
  comment?: string;
}

/** An open stream: every frame read so far, and waiting for one that matches. */
interface Stream {
  status: number;
  headers: Headers;
  frames: Frame[];
  next(match: (f: Frame) => boolean, what: string): Promise<Frame>;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

async function open(base: string, token: string | null, lastEventId?: string, extra: Record<string, string> = {}): Promise<Stream> {
  const ctl = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream', ...extra };
  if (token) headers.authorization = `Bearer ${token}`;
  if (lastEventId) headers['last-event-id'] = lastEventId;
  const res = await fetch(`${base}/api/v1/me/events`, { headers, signal: ctl.signal });
  const frames: Frame[] = [];
  const waiters: { match: (f: Frame) => boolean; ok: (f: Frame) => void }[] = [];
  const seen = (f: Frame) => {
    frames.push(f);
    for (const w of [...waiters])
      if (w.match(f)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.ok(f);
      }
  };
  const ended = (async () => {
    if (!res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buf += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          const f: Frame = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) f.comment = line.slice(1).trim();
            else {
              const i = line.indexOf(':');
              const k = line.slice(0, i) as 'event' | 'id' | 'data';
              if (['event', 'id', 'data'].includes(k)) f[k] = line.slice(i + 1).trimStart();
            }
          }
          seen(f);
        }
      }
    } catch {
      /* aborted */
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    frames,
    ended,
    close: () => ctl.abort(),
    next: (match, what) => {
      const hit = frames.find(match);
      if (hit) return Promise.resolve(hit);
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`no ${what} within 10 s; frames: ${JSON.stringify(frames)}`)), 10_000);
        waiters.push({ match, ok: (f) => (clearTimeout(timer), ok(f)) });
      });
    },
  };
}

const orderEvent = (orderId: number, type: string) => (f: Frame) =>
  f.event === 'order' && JSON.parse(f.data ?? '{}').orderId === orderId && JSON.parse(f.data ?? '{}').type === type;
const orderIdsOf = (s: Stream) => s.frames.filter((f) => f.event === 'order').map((f) => JSON.parse(f.data!).orderId as number);

/** One in-store order of the other tenant's buyer (outlet DAV, store 2614). */
async function placeOtherOrder(t: TestContext, fx: Fixtures) {
  const [item] = await storeItems(t.db, FIXTURE_STORES.davenport, 1);
  const cartId = await fillCart(t.db, {
    userId: fx.users.otherBuyer.id,
    outletId: fx.outlets.dav,
    storeId: FIXTURE_STORES.davenport,
    lines: [{ item, quantity: 1 }],
  });
  const token = tokenFor(t, fx.users.otherBuyer);
  const s = await startCheckout(t.app, token, cartId);
  const o = await postOrder(t.app, token, { checkoutToken: s.body.token, paymentMethod: 'in_store' });
  expect(o.status).toBe(201);
  return o.body as { id: number };
}

describe('over LISTEN/NOTIFY', () => {
  let t: TestContext;
  let fx: Fixtures;
  let server: Server;
  let base: string;
  let listener: NotificationListener;
  const streams: Stream[] = [];
  const track = (s: Stream) => (streams.push(s), s);

  beforeAll(async () => {
    // Feed reads only on a signal (the poll is a minute away) and a heartbeat every 200 ms.
    t = await createTestContext({ env: { LIVE_HEARTBEAT_SECONDS: '0.2', LIVE_POLL_SECONDS: '60', LIVE_STREAM_MAX_SECONDS: '60' } });
    fx = await seedFixtures(t.db);
    const hub = createOrderEventHub();
    listener = startNotifications(t.config.databaseUrl!, t.ctx.logger, [hub.subscriber]);
    await listener.ready;
    t.ctx.orderEvents = hub;
    server = createServer(t.app).listen(0, '127.0.0.1');
    await new Promise((ok) => server.once('listening', ok));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await new Promise((ok) => server.close(ok));
    await listener.stop();
    await t.close();
  });

  it('when no session is sent, then 401 problem+json', async () => {
    const res = await request(t.app).get('/api/v1/me/events').set('Accept', 'text/event-stream');
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it("when orders change, then the buyer's and the store manager's streams get them as they commit, with the seq as id, and another outlet's order reaches neither", async () => {
    const buyer = track(await open(base, tokenFor(t, fx.users.buyer)));
    const manager = track(await open(base, tokenFor(t, fx.users.manager)));
    const otherManager = track(await open(base, tokenFor(t, fx.users.otherManager)));
    expect(buyer.status).toBe(200);
    expect(buyer.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await buyer.next((f) => f.event === 'ready', 'ready event');
    await manager.next((f) => f.event === 'ready', 'ready event');
    await otherManager.next((f) => f.event === 'ready', 'ready event');

    const other = await placeOtherOrder(t, fx);
    const mine = (await placeInStoreOrder(t, fx, FIXTURE_STORES.central)).body as { id: number };
    const created = await buyer.next(orderEvent(mine.id, 'order.created'), "the buyer's order.created");
    const seq = (await t.db('order_events').where({ order_id: mine.id, type: 'order.created' }).first('seq'))!.seq;
    expect(created.id).toBe(String(seq));
    expect(JSON.parse(created.data!)).toMatchObject({
      seq: Number(seq),
      orderId: mine.id,
      storeId: FIXTURE_STORES.central,
      outletId: fx.outlets.dsm,
    });
    await manager.next(orderEvent(mine.id, 'order.created'), "the manager's order.created");
    await otherManager.next(orderEvent(other.id, 'order.created'), "the other store's manager's order.created");

    const ready = await request(t.app)
      .post(`/api/v1/orders/${mine.id}/ready`)
      .set('Authorization', `Bearer ${tokenFor(t, fx.users.manager)}`)
      .send({});
    expect(ready.status).toBe(200);
    await buyer.next(orderEvent(mine.id, 'order.ready'), "the buyer's order.ready");
    await manager.next(orderEvent(mine.id, 'order.ready'), "the manager's order.ready");
    // The other order was appended before these: had it been sent to them, it would have arrived first.
    expect(orderIdsOf(buyer)).not.toContain(other.id);
    expect(orderIdsOf(manager)).not.toContain(other.id);
    expect(orderIdsOf(otherManager)).not.toContain(mine.id);
  });

  it('when a stream reconnects with Last-Event-ID, then the events after that seq come first, then new ones', async () => {
    const first = (await placeInStoreOrder(t, fx, FIXTURE_STORES.central)).body as { id: number };
    const firstSeq = (await t.db('order_events').where({ order_id: first.id }).first('seq'))!.seq;
    const missed = (await placeInStoreOrder(t, fx, FIXTURE_STORES.central)).body as { id: number };
    const s = track(await open(base, tokenFor(t, fx.users.buyer), String(firstSeq)));
    const ready = await s.next((f) => f.event === 'ready', 'ready event');
    expect(ready.id).toBe(String(firstSeq));
    await s.next(orderEvent(missed.id, 'order.created'), 'the missed order.created');
    expect(orderIdsOf(s)).not.toContain(first.id);
    const later = (await placeInStoreOrder(t, fx, FIXTURE_STORES.central)).body as { id: number };
    await s.next(orderEvent(later.id, 'order.created'), 'the new order.created');
  });

  it.each(['commits', 'rolls back'] as const)(
    'when an append is in flight and a later one commits, then the stream sends nothing past the first until it %s, then every committed event in seq order',
    async (end) => {
      const first = (await placeInStoreOrder(t, fx, FIXTURE_STORES.central)).body as { id: number };
      const later = (await placeInStoreOrder(t, fx, FIXTURE_STORES.central)).body as { id: number };
      const s = track(await open(base, tokenFor(t, fx.users.buyer)));
      await s.next((f) => f.event === 'ready', 'ready event');
      const trx = await t.db.transaction();
      let firstSeq: number;
      try {
        firstSeq = await appendOrderEvent(trx, first.id, 'order.ready');
        const laterSeq = await t.db.transaction((other) => appendOrderEvent(other, later.id, 'order.ready'));
        expect(laterSeq).toBeGreaterThan(firstSeq);
        // The later event's signal is heard and read, but the feed's horizon is below the first's seq: had the
        // stream sent the later one, its cursor would be past the first's seq and the first would never come.
        await new Promise((ok) => setTimeout(ok, 600));
        expect(s.frames.filter(orderEvent(later.id, 'order.ready'))).toEqual([]);
      } finally {
        await (end === 'commits' ? trx.commit() : trx.rollback());
      }
      await s.next(orderEvent(later.id, 'order.ready'), 'the later order.ready');
      const ready = s.frames.filter((f) => f.event === 'order' && JSON.parse(f.data!).type === 'order.ready');
      expect(ready.map((f) => JSON.parse(f.data!).orderId)).toEqual(end === 'commits' ? [first.id, later.id] : [later.id]);
      expect(ready.map((f) => Number(f.id))).toEqual([...ready.map((f) => Number(f.id))].sort((a, b) => a - b));
      if (end === 'commits') expect(Number(ready[0].id)).toBe(firstSeq);
    },
  );

  it('when the stream is open, then a heartbeat comment comes every LIVE_HEARTBEAT_SECONDS, uncompressed even when gzip is accepted', async () => {
    const s = track(await open(base, tokenFor(t, fx.users.viewer), undefined, { 'accept-encoding': 'gzip, br' }));
    expect(s.headers.get('content-encoding')).toBeNull();
    await s.next((f) => f.comment === 'heartbeat', 'heartbeat');
    const count = () => s.frames.filter((f) => f.comment === 'heartbeat').length;
    const at = count();
    await s.next((f) => f.comment === 'heartbeat' && count() > at, 'a second heartbeat');
  });

  it('when the session is revoked, then the stream ends at the next heartbeat', async () => {
    const token = tokenFor(t, fx.users.viewer);
    const s = track(await open(base, token));
    await s.next((f) => f.event === 'ready', 'ready event');
    await t.db('auth_sessions').where({ user_id: fx.users.viewer.id }).update({ revoked_at: t.db.fn.now() });
    await s.ended;
    const again = await open(base, token);
    expect(again.status).toBe(401);
    again.close();
  });

  it("when a stream closes, then it is not observed as a request's duration and the open-streams gauge falls back", async () => {
    const gauge = async () => Number(/portal_live_streams (\d+)/.exec((await request(t.app).get('/metrics')).text)?.[1] ?? -1);
    const before = await gauge();
    const s = await open(base, tokenFor(t, fx.users.buyer));
    await s.next((f) => f.event === 'ready', 'ready event');
    expect(await gauge()).toBe(before + 1);
    s.close();
    await s.ended;
    for (let i = 0; i < 50 && (await gauge()) !== before; i++) await new Promise((ok) => setTimeout(ok, 20));
    expect(await gauge()).toBe(before);
    expect((await request(t.app).get('/metrics')).text).not.toMatch(
      /portal_http_request_duration_seconds_count\{[^}]*route="\/me\/events"[^}]*status="200"/,
    );
  });
});

describe('without notifications (the poll)', () => {
  let t: TestContext;
  let fx: Fixtures;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    t = await createTestContext({ env: { LIVE_POLL_SECONDS: '0.1', LIVE_STREAM_MAX_SECONDS: '60' } });
    fx = await seedFixtures(t.db);
    server = createServer(t.app).listen(0, '127.0.0.1');
    await new Promise((ok) => server.once('listening', ok));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
    await t.close();
  });

  it('when no signal is heard, then the stream still gets the order event from the feed read', async () => {
    const s = await open(base, tokenFor(t, fx.users.buyer));
    await s.next((f) => f.event === 'ready', 'ready event');
    const o = (await placeInStoreOrder(t, fx, FIXTURE_STORES.central)).body as { id: number };
    await s.next(orderEvent(o.id, 'order.created'), 'order.created');
    s.close();
  });
});
