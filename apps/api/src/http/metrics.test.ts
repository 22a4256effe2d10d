import request from 'supertest';
import { PgBoss } from '../jobs/pg-boss';
import { createTestContext, FIXTURE_PASSWORD, tokenFor, type TestContext } from '../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../test/fixtures';
import { GOOD_CARD, fillCart, postOrder, startCheckout, storeItems, type StoreItem } from '../modules/orders/test-support';

/**
 * /metrics (issue 24 §6): a route's answers share one label (its declared path) whatever their status, the
 * business counters move when the thing happens, and the database gauges are read on each scrape.
 */
let t: TestContext;
let fx: Fixtures;
let items: StoreItem[];
beforeAll(async () => {
  t = await createTestContext({ env: { AUTH_ACCOUNT_FAILED_LOGIN_LIMIT: '2' } });
  fx = await seedFixtures(t.db);
  items = await storeItems(t.db, FIXTURE_STORES.central, 1);
});
afterAll(async () => {
  await t.close();
});

const scrape = async () => {
  const res = await request(t.app).get('/metrics');
  expect(res.status).toBe(200);
  return res.text;
};
/** The value of one series (`name{a="b",…}`, labels in any order), 0 when absent. */
function value(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return 0;
}
const seen = (text: string, name: string, labels: Record<string, string>) =>
  text.split('\n').some((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));

async function placeOrder(method: 'in_store' | 'card') {
  await t.db('carts').where({ user_id: fx.users.buyer.id, status: 'active' }).update({ status: 'abandoned' });
  const cartId = await fillCart(t.db, {
    userId: fx.users.buyer.id,
    outletId: fx.outlets.dsm,
    storeId: FIXTURE_STORES.central,
    lines: [{ item: items[0], quantity: 1 }],
  });
  const token = tokenFor(t, fx.users.buyer);
  const s = await startCheckout(t.app, token, cartId);
  const body =
    method === 'card'
      ? { checkoutToken: s.body.token, paymentMethod: 'card', card: GOOD_CARD }
      : { checkoutToken: s.body.token, paymentMethod: 'in_store' };
  const res = await postOrder(t.app, token, body);
  expect(res.status).toBe(201);
  return res.body as { id: number };
}

describe('request durations', () => {
  it('when a route answers 200, 401 and 400, then all three carry its declared path as the route label, and an unknown path is `unmatched`', async () => {
    const token = tokenFor(t, fx.users.buyer);
    expect((await request(t.app).get('/api/v1/me').set('Authorization', `Bearer ${token}`)).status).toBe(200);
    expect((await request(t.app).get('/api/v1/me')).status).toBe(401);
    const order = await placeOrder('in_store');
    expect((await request(t.app).get(`/api/v1/orders/${order.id}`).set('Authorization', `Bearer ${token}`)).status).toBe(200);
    expect((await request(t.app).get('/api/v1/orders/abc').set('Authorization', `Bearer ${token}`)).status).toBe(400);
    expect((await request(t.app).get('/api/v1/orders/99999999').set('Authorization', `Bearer ${token}`)).status).toBe(404);
    expect((await request(t.app).get('/api/v1/no-such-thing/42')).status).toBe(404);
    const text = await scrape();
    const count = 'http_request_duration_seconds_count';
    expect(value(text, count, { route: '/me', status: '200', method: 'GET' })).toBe(1);
    expect(value(text, count, { route: '/me', status: '401', method: 'GET' })).toBe(1);
    expect(value(text, count, { route: '/orders/{orderId}', status: '200' })).toBe(1);
    expect(value(text, count, { route: '/orders/{orderId}', status: '400' })).toBe(1);
    expect(value(text, count, { route: '/orders/{orderId}', status: '404' })).toBe(1);
    expect(value(text, count, { route: 'unmatched', status: '404' })).toBe(1);
    // Never the raw URL, nor Express's own pattern with or without its mount point.
    expect(text).not.toMatch(/route="[^"]*(:orderId|\/api\/v1|99999999|no-such-thing)/);
  });
});

describe('business counters', () => {
  it('when an in-store and a card order are placed and the card order is cancelled, then orders placed, payments and refunds count them', async () => {
    const before = await scrape();
    await placeOrder('in_store');
    const card = await placeOrder('card');
    const cancel = await request(t.app)
      .post(`/api/v1/orders/${card.id}/cancel`)
      .set('Authorization', `Bearer ${tokenFor(t, fx.users.manager)}`)
      .send({ reason: 'out of stock' });
    expect(cancel.status).toBe(200);
    expect((await t.db('orders').where({ id: card.id }).first())!.status).toBe('cancelled');
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
    expect(delta('portal_orders_placed_total', { payment_method: 'in_store' })).toBe(1);
    expect(delta('portal_orders_placed_total', { payment_method: 'card' })).toBe(1);
    expect(delta('portal_payments_total', { outcome: 'approved' })).toBe(1);
    expect(delta('portal_payments_total', { outcome: 'declined' })).toBe(0);
    expect(delta('portal_refunds_total', { outcome: 'refunded' })).toBe(1);
  });

  it('when a password is wrong twice from one IP, then two failures by reason are counted and the third attempt is a lockout of the account + IP pair', async () => {
    const before = await scrape();
    const login = () =>
      request(t.app)
        .post('/api/v1/auth/login')
        .set('X-Forwarded-For', '198.51.100.77')
        .send({ email: fx.users.viewer.email, password: 'Wrong#Pass1' });
    expect((await login()).status).toBe(401);
    expect((await login()).status).toBe(401);
    expect((await login()).status).toBe(429);
    const unknown = await request(t.app).post('/api/v1/auth/login').send({ email: 'nobody@example.com', password: FIXTURE_PASSWORD });
    expect(unknown.status).toBe(401);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
    expect(delta('portal_login_failures_total', { reason: 'wrong_password' })).toBe(2);
    expect(delta('portal_login_failures_total', { reason: 'unknown_email' })).toBe(1);
    expect(delta('portal_login_lockouts_total', { rule: 'account_ip' })).toBe(1);
    expect(await t.db('audit_log').where({ action: 'auth.login_failed', ip: '198.51.100.77' })).toHaveLength(2);
  });
});

describe('gauges read on scrape', () => {
  it('when mail waits in the queue and a webhook delivery has been pending an hour, then depth, oldest age and the backlog are reported, with the pool', async () => {
    const before = await scrape();
    // Without pg-boss's schema there is no mail queue to report: its gauges are left out.
    expect(seen(before, 'portal_mail_queue_depth', {})).toBe(false);
    expect(value(before, 'portal_webhook_deliveries_pending')).toBe(0);
    expect(value(before, 'portal_db_pool_max')).toBe(10);

    const boss = new PgBoss({ connectionString: t.config.databaseUrl!, max: 1 });
    await boss.start();
    try {
      await boss.createQueue('mail');
      await boss.send('mail', { to: 'a@example.com' });
      await boss.send('mail', { to: 'b@example.com' });
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
    await t.db.raw(`UPDATE pgboss.job SET created_on = now() - interval '20 minutes' WHERE name = 'mail'`);
    const order = await placeOrder('in_store');
    const [endpoint] = await t
      .db('webhook_endpoints')
      .insert({ url: 'http://127.0.0.1:9/hook', secret: 'whsec_x', store_id: FIXTURE_STORES.central, events: ['order.created'] })
      .returning('id');
    const seq = await t.db('order_events').where({ order_id: order.id }).first('seq');
    await t
      .db('webhook_deliveries')
      .insert({ endpoint_id: endpoint.id, event_seq: seq!.seq, created_at: t.db.raw(`now() - interval '1 hour'`) });

    const text = await scrape();
    expect(value(text, 'portal_mail_queue_depth')).toBe(2);
    expect(value(text, 'portal_mail_queue_oldest_age_seconds')).toBeGreaterThanOrEqual(20 * 60);
    expect(value(text, 'portal_webhook_deliveries_pending')).toBe(1);
    expect(value(text, 'portal_webhook_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(3600);
    expect(text).toMatch(/^portal_db_pool_in_use \d+$/m);
    expect(value(text, 'portal_db_pool_waiting')).toBe(0);
  });
});
