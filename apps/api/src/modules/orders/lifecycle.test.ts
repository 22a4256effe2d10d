import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { FAKE_MONETRA_USER, startMonetraFake, type MonetraFake } from '../../test/monetra-fake';
import { saveMonetraCredentials } from '../payments/payments.service';
import { GOOD_CARD, fillCart, postOrder, problem, startCheckout, storeItems, type StoreItem } from './test-support';

/** Order lifecycle: complete / cancel, refunds through the test gateway and the Monetra fake, order_events. */
const S = FIXTURE_STORES;

async function place(t: TestContext, fx: Fixtures, items: StoreItem[], method: 'in_store' | 'card') {
  await t.db('carts').where({ user_id: fx.users.buyer.id, status: 'active' }).update({ status: 'abandoned' });
  const cartId = await fillCart(t.db, {
    userId: fx.users.buyer.id,
    outletId: fx.outlets.dsm,
    storeId: S.central,
    lines: [{ item: items[0], quantity: 1 }],
  });
  const s = await startCheckout(t.app, tokenFor(t, fx.users.buyer), cartId);
  expect(s.status).toBe(201);
  const body =
    method === 'card'
      ? { checkoutToken: s.body.token, paymentMethod: 'card', card: GOOD_CARD }
      : { checkoutToken: s.body.token, paymentMethod: 'in_store' };
  const res = await postOrder(t.app, tokenFor(t, fx.users.buyer), body);
  expect(res.status).toBe(201);
  return res.body as { id: number; orderNumber: string };
}
const post = (t: TestContext, token: string, path: string, body?: object) =>
  request(t.app)
    .post(`/api/v1${path}`)
    .set('Authorization', `Bearer ${token}`)
    .send(body ?? {});
const events = (t: TestContext, orderId: number) => t.db('order_events').where({ order_id: orderId }).orderBy('seq').pluck('type');

describe('with the test gateway', () => {
  let t: TestContext;
  let fx: Fixtures;
  let items: StoreItem[];
  beforeAll(async () => {
    t = await createTestContext();
    fx = await seedFixtures(t.db);
    items = await storeItems(t.db, S.central, 2);
  });
  afterAll(async () => {
    await t.close();
  });
  const manager = () => tokenFor(t, fx.users.manager);

  it('when a store manager marks ready then completes an order, then each step is recorded as an event, the buyer is mailed, and illegal steps answer 409 with the status', async () => {
    const o = await place(t, fx, items, 'in_store');
    const early = await post(t, manager(), `/orders/${o.id}/complete`);
    expect(early.status).toBe(409);
    expect(problem(early)).toMatchObject({ code: 'order_transition_illegal', detail: expect.stringContaining('reserved') });
    const mails = t.mail.length;
    expect((await post(t, manager(), `/orders/${o.id}/ready`)).status).toBe(200);
    const done = await post(t, manager(), `/orders/${o.id}/complete`);
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('completed');
    expect(t.mail.slice(mails).map((m) => m.template)).toEqual(['order_status_ready', 'order_status_completed']);
    const cancel = await post(t, manager(), `/orders/${o.id}/cancel`, { reason: 'late' });
    expect(cancel.status).toBe(409);
    expect(problem(cancel)).toMatchObject({ code: 'order_transition_illegal', detail: expect.stringContaining('completed') });
    expect(await events(t, o.id)).toEqual(['order.created', 'order.ready', 'order.completed']);
    expect((await t.db('orders').where({ id: o.id }).first()).completed_at).not.toBeNull();
  });

  it('when a buyer completes or a manager of another store cancels, then 403 / 404 and nothing changes', async () => {
    const o = await place(t, fx, items, 'in_store');
    const b = await post(t, tokenFor(t, fx.users.buyer), `/orders/${o.id}/complete`);
    expect(b.status).toBe(403);
    const other = await post(t, tokenFor(t, fx.users.otherManager), `/orders/${o.id}/cancel`, { reason: 'nope' });
    expect(other.status).toBe(404);
    const empty = await post(t, manager(), `/orders/${o.id}/cancel`, { reason: '' });
    expect(empty.status).toBe(400);
    expect((await t.db('orders').where({ id: o.id }).first()).status).toBe('reserved');
  });

  it('when a card-paid order is cancelled, then the test gateway refunds it, the order is cancelled with its reason and the buyer is mailed', async () => {
    const o = await place(t, fx, items, 'card');
    const mails = t.mail.length;
    const res = await post(t, manager(), `/orders/${o.id}/cancel`, { reason: 'Out of stock' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'cancelled', cancelReason: 'Out of stock' });
    expect((await t.db('test_gateway_charges').where({ merchant_reference: o.orderNumber }).first()).refunded_at).not.toBeNull();
    expect(t.mail.slice(mails)).toEqual([
      expect.objectContaining({ template: 'order_status_cancelled', text: expect.stringContaining('Out of stock') }),
    ]);
    expect(await events(t, o.id)).toEqual(['order.created', 'order.cancelled']);
    const audit = await t
      .db('audit_log')
      .where({ action: 'order.cancelled', entity_id: String(o.id) })
      .first();
    expect(audit.details).toMatchObject({ reason: 'Out of stock', from: 'reserved' });
  });
});

describe('with the Monetra fake', () => {
  let t: TestContext;
  let fx: Fixtures;
  let items: StoreItem[];
  let fake: MonetraFake;
  beforeAll(async () => {
    fake = await startMonetraFake();
    t = await createTestContext({
      env: { PAYMENT_TEST_MODE: 'false', MONETRA_URL: fake.url, PAYMENT_CREDENTIALS_KEY: 'ab'.repeat(32), MONETRA_TIMEOUT_MS: '1000' },
    });
    fx = await seedFixtures(t.db);
    await saveMonetraCredentials(t.db, t.config, { storeId: S.central, environment: 'test', ...FAKE_MONETRA_USER });
    items = await storeItems(t.db, S.central, 2);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('when the refund is refused, then the order is cancel_pending (502 refund_failed); cancelling again once the gateway works refunds and cancels it', async () => {
    const o = await place(t, fx, items, 'card');
    const manager = tokenFor(t, fx.users.manager);
    fake.refundDown = true;
    const first = await post(t, manager, `/orders/${o.id}/cancel`, { reason: 'Closed' });
    expect(first.status).toBe(502);
    expect(problem(first).code).toBe('refund_failed');
    expect((await t.db('orders').where({ id: o.id }).first()).status).toBe('cancel_pending');
    fake.refundDown = false;
    const again = await post(t, manager, `/orders/${o.id}/cancel`, { reason: 'Closed' });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('cancelled');
    expect(fake.refunds).toEqual([expect.objectContaining({ ordernum: o.orderNumber })]);
    expect(await events(t, o.id)).toEqual(['order.created', 'order.cancel_pending', 'order.cancelled']);
  });
});
