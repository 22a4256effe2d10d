import request from 'supertest';
import { attentionListSchema, checkPaymentResultSchema } from '@portal/contracts';
import { createApp } from '../../app';
import { createDb } from '../../db/knex';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { FAKE_MONETRA_USER, startMonetraFake, type MonetraFake } from '../../test/monetra-fake';
import { saveMonetraCredentials } from '../payments/payments.service';
import { reconcilePending } from './settlement';
import { GOOD_CARD, fillCart, postOrder, problem, startCheckout, storeItems, type StoreItem } from './test-support';

/**
 * Money under faults, against the local Monetra fake with test mode off: a charge
 * whose answer is lost (the fake answers after MONETRA_TIMEOUT_MS) leaves the order pending; the cart is
 * locked; operators see it; lookups by order number settle it (Check again, the reconciler, a retry
 * with the key after its lease), never a second charge.
 */
const KEY = 'ab'.repeat(32);
const S = FIXTURE_STORES;
let t: TestContext;
let fx: Fixtures;
let fake: MonetraFake;
let items: StoreItem[];
let buyer: string;
let n = 0;

beforeAll(async () => {
  fake = await startMonetraFake();
  t = await createTestContext({
    env: {
      PAYMENT_TEST_MODE: 'false',
      MONETRA_URL: fake.url,
      PAYMENT_CREDENTIALS_KEY: KEY,
      MONETRA_TIMEOUT_MS: '1000',
      PAYMENT_SETTLE_AFTER_SECONDS: '60',
    },
  });
  fx = await seedFixtures(t.db);
  await saveMonetraCredentials(t.db, t.config, { storeId: S.central, environment: 'test', ...FAKE_MONETRA_USER });
  items = await storeItems(t.db, S.central, 3);
  buyer = tokenFor(t, fx.users.buyer);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.delayMs = 0;
  fake.lookupDown = false;
});

const as = (who: 'buyer' | 'manager' | 'otherManager' | 'admin') => tokenFor(t, fx.users[who]);
const deps = () => ({ db: t.db, config: t.config, mailer: t.ctx.mailer, logger: t.ctx.logger });
const sales = (orderNumber: string) => fake.seen.filter((s) => s.body.action === 'sale' && s.body.ordernum === orderNumber).length;

/** A fresh cart at 2190 (the previous one, maybe locked by a pending order, set aside) and its checkout session. */
async function checkout() {
  await t
    .db('carts')
    .where({ user_id: fx.users.buyer.id, outlet_id: fx.outlets.dsm, store_id: S.central, status: 'active' })
    .update({ status: 'abandoned' });
  const cartId = await fillCart(t.db, {
    userId: fx.users.buyer.id,
    outletId: fx.outlets.dsm,
    storeId: S.central,
    lines: [{ item: items[n++ % 3], quantity: 1 }],
  });
  const s = await startCheckout(t.app, buyer, cartId);
  expect(s.status).toBe(201);
  return { cartId, token: s.body.token as string };
}

/** A card order whose answer is lost and whose lookup is down: 409 payment_being_confirmed, order pending. */
async function pendingOrder(key?: string) {
  const c = await checkout();
  fake.delayMs = 1500;
  fake.lookupDown = true;
  const res = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'card', card: GOOD_CARD }, key);
  fake.delayMs = 0;
  expect(res.status).toBe(409);
  expect(problem(res)).toMatchObject({ code: 'payment_being_confirmed' });
  const order = await t.db('orders').where({ user_id: fx.users.buyer.id }).orderBy('id', 'desc').first();
  expect(order).toMatchObject({ payment_status: 'pending', status: 'reserved' });
  if (!order) throw new Error('no pending order');
  return { ...c, order };
}

describe('a card order whose gateway answer is lost', () => {
  it('when the charge times out and the lookup is down, then it answers 409 payment_being_confirmed, the order is pending with its attempt, and My Orders shows it', async () => {
    const p = await pendingOrder();
    expect(await t.db('payments').where({ order_id: p.order.id })).toEqual([
      expect.objectContaining({ status: 'pending', gateway: 'monetra', card_last4: '1111' }),
    ]);
    expect(fake.charges.filter((c) => c.ordernum === p.order.order_number)).toHaveLength(1);
    const mine = await request(t.app).get('/api/v1/orders?mine=true').set('Authorization', `Bearer ${buyer}`);
    expect(mine.status).toBe(200);
    expect(mine.body.items.find((o: { id: number }) => o.id === p.order.id)).toMatchObject({
      paymentStatus: 'pending',
      orderNumber: p.order.order_number,
    });
    const store = await request(t.app)
      .get(`/api/v1/orders?storeId=${S.central}`)
      .set('Authorization', `Bearer ${as('manager')}`);
    expect(store.body.items.map((o: { id: number }) => o.id)).not.toContain(p.order.id);
  });

  it('when the cart has a pending card order, then a new checkout session and a new order for it answer 409 payment_being_confirmed and create nothing', async () => {
    const p = await pendingOrder();
    const sessions = await t.db('checkout_sessions').where({ cart_id: p.cartId }).count<{ count: number }[]>('* as count');
    const again = await startCheckout(t.app, buyer, p.cartId);
    expect(again.status).toBe(409);
    expect(problem(again)).toMatchObject({ code: 'payment_being_confirmed', detail: expect.stringMatching(/^Payment being confirmed/) });
    expect(await t.db('checkout_sessions').where({ cart_id: p.cartId }).count<{ count: number }[]>('* as count')).toEqual(sessions);
    const order = await postOrder(t.app, buyer, { checkoutToken: p.token, paymentMethod: 'in_store' });
    expect(order.status).toBe(409);
    expect(problem(order).code).toBe('payment_being_confirmed');
    expect(await t.db('orders').where({ checkout_session_id: p.order.checkout_session_id })).toHaveLength(1);
  });
});

describe('Store Orders "Needs attention" and Check again', () => {
  it("when a manager of the store lists it, then the pending order is there with the order number as merchant reference; other stores' managers do not see it; super administrators see all; buyers are refused", async () => {
    const p = await pendingOrder();
    const res = await request(t.app)
      .get(`/api/v1/orders/attention?storeId=${S.central}`)
      .set('Authorization', `Bearer ${as('manager')}`);
    expect(res.status).toBe(200);
    expect(attentionListSchema.parse(res.body)).toEqual(res.body);
    expect(res.body.items.find((o: { id: number }) => o.id === p.order.id)).toMatchObject({
      reason: 'payment_unconfirmed',
      paymentStatus: 'pending',
      merchantReference: p.order.order_number,
      gateway: 'monetra',
      cardLast4: '1111',
      storeId: S.central,
    });
    const other = await request(t.app)
      .get('/api/v1/orders/attention')
      .set('Authorization', `Bearer ${as('otherManager')}`);
    expect(other.status).toBe(200);
    expect(other.body.items.map((o: { id: number }) => o.id)).not.toContain(p.order.id);
    const outOfScope = await request(t.app)
      .get(`/api/v1/orders/attention?storeId=${S.central}`)
      .set('Authorization', `Bearer ${as('otherManager')}`);
    expect(outOfScope.status).toBe(404);
    const admin = await request(t.app)
      .get('/api/v1/orders/attention')
      .set('Authorization', `Bearer ${as('admin')}`);
    expect(admin.body.items.map((o: { id: number }) => o.id)).toContain(p.order.id);
    const buyerRes = await request(t.app).get('/api/v1/orders/attention').set('Authorization', `Bearer ${buyer}`);
    expect(buyerRes.status).toBe(403);
    expect(problem(buyerRes).code).toBe('forbidden');
  });

  it('when an operator checks again while the gateway cannot be asked, then the order stays pending; once it can, the approved charge settles it paid: cart checked out, session used, mail queued, audited, no second charge', async () => {
    const p = await pendingOrder();
    const check = () =>
      request(t.app)
        .post(`/api/v1/orders/${p.order.id}/check-payment`)
        .set('Authorization', `Bearer ${as('manager')}`);
    const still = await check();
    expect(still.status).toBe(200);
    expect(checkPaymentResultSchema.parse(still.body)).toMatchObject({ outcome: 'pending', paymentStatus: 'pending' });
    expect((await t.db('orders').where({ id: p.order.id }).first())!.payment_checked_at).not.toBeNull();
    const other = await request(t.app)
      .post(`/api/v1/orders/${p.order.id}/check-payment`)
      .set('Authorization', `Bearer ${as('otherManager')}`);
    expect(other.status).toBe(404);
    fake.lookupDown = false;
    const mails = t.mail.length;
    const paid = await check();
    expect(paid.body).toMatchObject({ orderId: p.order.id, outcome: 'paid', paymentStatus: 'paid' });
    expect(await t.db('orders').where({ id: p.order.id }).first()).toMatchObject({ payment_status: 'paid', status: 'reserved' });
    expect(await t.db('payments').where({ order_id: p.order.id })).toEqual([
      expect.objectContaining({ status: 'approved', result_code: 'AUTH', card_last4: '1111' }),
    ]);
    expect((await t.db('carts').where({ id: p.cartId }).first())!.status).toBe('checked_out');
    expect(await t.db('cart_items').where({ cart_id: p.cartId })).toHaveLength(0);
    expect((await t.db('checkout_sessions').where({ id: p.order.checkout_session_id! }).first())!.consumed_at).not.toBeNull();
    expect(t.mail.slice(mails).map((m) => m.template)).toEqual(['order_confirmation']);
    expect(await t.db('audit_log').where({ action: 'order.payment_settled', entity_id: String(p.order.id) })).toEqual([
      expect.objectContaining({ user_id: fx.users.manager.id }),
    ]);
    expect(sales(p.order.order_number)).toBe(1);
    const attention = await request(t.app)
      .get('/api/v1/orders/attention')
      .set('Authorization', `Bearer ${as('admin')}`);
    expect(attention.body.items.map((o: { id: number }) => o.id)).not.toContain(p.order.id);
  });
});

describe('the reconciler', () => {
  it('when a card order has been pending over 60 s, then an approved charge is settled paid exactly as the request would, and a charge the gateway never got is settled failed with the cart unlocked', async () => {
    const approved = await pendingOrder();
    const lost = await pendingOrder();
    fake.charges.splice(
      fake.charges.findIndex((c) => c.ordernum === lost.order.order_number),
      1,
    ); // the sale never reached the gateway
    const young = await pendingOrder();
    fake.lookupDown = false;
    await t
      .db('orders')
      .whereIn('id', [approved.order.id, lost.order.id])
      .update({ order_date: t.db.raw(`now() - interval '2 minutes'`) });
    const mails = t.mail.length;
    const counts = await reconcilePending(deps());
    expect(counts).toMatchObject({ paid: 1, failed: 1, failedToCheck: 0 });
    expect(await t.db('orders').where({ id: approved.order.id }).first()).toMatchObject({ payment_status: 'paid' });
    expect((await t.db('carts').where({ id: approved.cartId }).first())!.status).toBe('checked_out');
    expect(t.mail.slice(mails).filter((m) => m.template === 'order_confirmation')).toHaveLength(1);
    expect(await t.db('orders').where({ id: lost.order.id }).first()).toMatchObject({ payment_status: 'failed', status: 'cancelled' });
    expect(await t.db('payments').where({ order_id: lost.order.id })).toEqual([
      expect.objectContaining({ status: 'error', result_code: 'NOTFOUND' }),
    ]);
    expect((await t.db('carts').where({ id: lost.cartId }).first())!.status).toBe('abandoned'); // set aside by the next test checkout, not checked out
    await t.db('carts').where({ id: young.cartId }).update({ status: 'abandoned' });
    await t.db('carts').where({ id: lost.cartId }).update({ status: 'active' });
    expect((await startCheckout(t.app, buyer, lost.cartId)).status).toBe(201);
    // Younger than the settle-after age: left for the next pass.
    expect(await t.db('orders').where({ id: young.order.id }).first()).toMatchObject({ payment_status: 'pending' });
    expect(
      await t
        .db('audit_log')
        .where({ action: 'order.payment_settled' })
        .whereIn('entity_id', [String(approved.order.id), String(lost.order.id)]),
    ).toHaveLength(2);
    expect([sales(approved.order.order_number), sales(lost.order.order_number)]).toEqual([1, 1]);
  });
});

describe('Idempotency-Key lease', () => {
  it('when a key is held by a request still in its lease, then a retry answers 409 idempotency_in_progress; after the lease the retry settles the same order by lookup (201 replayed), never a second charge', async () => {
    const key = `lease-${Date.now()}`;
    const p = await pendingOrder(key);
    const keyRow = () => t.db('idempotency_keys').where({ user_id: fx.users.buyer.id, key }).first();
    expect(await keyRow()).toMatchObject({ completed_at: null });
    await t
      .db('idempotency_keys')
      .where({ user_id: fx.users.buyer.id, key })
      .update({ lease_expires_at: t.db.raw(`now() + interval '60 seconds'`) }); // as if the request were alive
    const body = { checkoutToken: p.token, paymentMethod: 'card', card: GOOD_CARD };
    const busy = await postOrder(t.app, buyer, body, key);
    expect(busy.status).toBe(409);
    expect(problem(busy).code).toBe('idempotency_in_progress');
    await t
      .db('idempotency_keys')
      .where({ user_id: fx.users.buyer.id, key })
      .update({ lease_expires_at: t.db.raw(`now() - interval '1 second'`) }); // it died
    fake.lookupDown = false;
    const retry = await postOrder(t.app, buyer, body, key);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toMatchObject({ id: p.order.id, paymentStatus: 'paid' });
    expect(await keyRow()).toMatchObject({ status_code: 201, order_id: p.order.id });
    expect(sales(p.order.order_number)).toBe(1);
    expect(await t.db('orders').where({ user_id: fx.users.buyer.id, idempotency_key: key })).toHaveLength(1);
    const replay = await postOrder(t.app, buyer, body, key);
    expect(replay.body).toEqual(retry.body);
  });

  it('when the key is reused with a different body (another card), then it answers 422 idempotency_key_reused and charges nothing', async () => {
    const c = await checkout();
    const key = `reuse-${Date.now()}`;
    expect((await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'card', card: GOOD_CARD }, key)).status).toBe(201);
    const before = fake.seen.length;
    const res = await postOrder(
      t.app,
      buyer,
      { checkoutToken: c.token, paymentMethod: 'card', card: { ...GOOD_CARD, cardNumber: '5555 5555 5555 4444' } },
      key,
    );
    expect(res.status).toBe(422);
    expect(problem(res)).toMatchObject({
      code: 'idempotency_key_reused',
      detail: 'This Idempotency-Key was already used for a different request.',
    });
    expect(fake.seen.length).toBe(before);
  });
});

describe('a lost database connection', () => {
  it('when the database cannot be reached, then API calls answer 503 service_unavailable with Retry-After and /health/ready is not ready', async () => {
    const dead = createDb('postgres://postgres:postgres@127.0.0.1:1/portal', { max: 1 });
    try {
      const app = createApp({ ...t.ctx, db: dead });
      const res = await request(app).get('/api/v1/orders').set('Authorization', `Bearer ${buyer}`);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(problem(res)).toMatchObject({ status: 503, code: 'service_unavailable' });
      const ready = await request(app).get('/api/v1/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ database: 'down' });
    } finally {
      await dead.destroy();
    }
  });
});
