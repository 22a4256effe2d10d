import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { FAKE_MONETRA_USER, startMonetraFake, type MonetraFake } from '../../test/monetra-fake';
import { saveMonetraCredentials } from '../payments/payments.service';
import { reconcileRefunds } from './refunds';
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
    expect((await t.db('orders').where({ id: o.id }).first())!.completed_at).not.toBeNull();
  });

  it('when a buyer completes or a manager of another store cancels, then 403 / 404 and nothing changes', async () => {
    const o = await place(t, fx, items, 'in_store');
    const b = await post(t, tokenFor(t, fx.users.buyer), `/orders/${o.id}/complete`);
    expect(b.status).toBe(403);
    const other = await post(t, tokenFor(t, fx.users.otherManager), `/orders/${o.id}/cancel`, { reason: 'nope' });
    expect(other.status).toBe(404);
    const empty = await post(t, manager(), `/orders/${o.id}/cancel`, { reason: '' });
    expect(empty.status).toBe(400);
    expect((await t.db('orders').where({ id: o.id }).first())!.status).toBe('reserved');
  });

  it('when a card-paid order is cancelled, then the test gateway refunds it, the refund is recorded (payments, refunded), the order is cancelled with its reason and the buyer is mailed', async () => {
    const o = await place(t, fx, items, 'card');
    const mails = t.mail.length;
    const res = await post(t, manager(), `/orders/${o.id}/cancel`, { reason: 'Out of stock' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'cancelled', cancelReason: 'Out of stock', paymentStatus: 'refunded' });
    const total = res.body.total as string;
    expect(res.body.refundedAmount).toBe(total);
    expect((await t.db('test_gateway_charges').where({ merchant_reference: o.orderNumber }).first())!.refund_reference).toBe(
      `${o.orderNumber}-refund`,
    );
    const detail = await request(t.app).get(`/api/v1/orders/${o.id}`).set('Authorization', `Bearer ${manager()}`);
    expect(detail.body.payments).toEqual([
      expect.objectContaining({ kind: 'charge', amount: total, status: 'approved', reference: o.orderNumber }),
      expect.objectContaining({ kind: 'refund', amount: total, status: 'approved', reference: `${o.orderNumber}-refund` }),
    ]);
    expect(await t.db('payments').where({ order_id: o.id, kind: 'refund' })).toEqual([
      expect.objectContaining({ status: 'approved', amount: total, merchant_reference: `${o.orderNumber}-refund` }),
    ]);
    expect(await t.db('orders').where({ id: o.id }).first()).toMatchObject({ status: 'cancelled', payment_status: 'refunded' });
    const mine = await request(t.app)
      .get('/api/v1/orders?mine=true')
      .set('Authorization', `Bearer ${tokenFor(t, fx.users.buyer)}`);
    expect(mine.body.items.find((x: { id: number }) => x.id === o.id)).toMatchObject({ paymentStatus: 'refunded', refundedAmount: total });
    const store = await request(t.app).get(`/api/v1/orders?storeId=${S.central}`).set('Authorization', `Bearer ${manager()}`);
    expect(store.body.items.find((x: { id: number }) => x.id === o.id)).toMatchObject({ paymentStatus: 'refunded', refundedAmount: total });
    const again = await post(t, manager(), `/orders/${o.id}/cancel`, { reason: 'Out of stock' });
    expect(again.status).toBe(409);
    expect(problem(again).code).toBe('order_transition_illegal');
    expect(t.mail.slice(mails)).toEqual([
      expect.objectContaining({ template: 'order_status_cancelled', text: expect.stringContaining('Out of stock') }),
    ]);
    expect(await events(t, o.id)).toEqual(['order.created', 'order.cancelled']);
    const audit = await t
      .db('audit_log')
      .where({ action: 'order.cancelled', entity_id: String(o.id) })
      .first();
    expect(audit!.details).toMatchObject({ reason: 'Out of stock', from: 'reserved' });
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

  const deps = () => ({ db: t.db, config: t.config, mailer: t.ctx.mailer, logger: t.ctx.logger });
  const returnsFor = (orderNumber: string) => fake.returnRequests.filter((r) => r.custref === orderNumber).length;
  /** Backdates the order's refund attempt past the settle-after age (what a dead process leaves behind). */
  const age = (orderId: number) =>
    t
      .db('payments')
      .where({ order_id: orderId, kind: 'refund' })
      .update({ attempted_at: t.db.raw(`now() - interval '10 minutes'`) });

  it('when the refund is refused, then the order is cancel_pending and paid with the refusal on its refund row (502 refund_failed); cancelling again once the gateway works refunds and cancels it', async () => {
    const o = await place(t, fx, items, 'card');
    const manager = tokenFor(t, fx.users.manager);
    fake.refundDown = true;
    const first = await post(t, manager, `/orders/${o.id}/cancel`, { reason: 'Closed' });
    expect(first.status).toBe(502);
    expect(problem(first).code).toBe('refund_failed');
    expect(await t.db('orders').where({ id: o.id }).first()).toMatchObject({ status: 'cancel_pending', payment_status: 'paid' });
    expect(await t.db('payments').where({ order_id: o.id, kind: 'refund' })).toEqual([
      expect.objectContaining({ status: 'error', result_code: 'GENERROR', merchant_reference: `${o.orderNumber}-refund` }),
    ]);
    fake.refundDown = false;
    const again = await post(t, manager, `/orders/${o.id}/cancel`, { reason: 'Closed' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'cancelled', paymentStatus: 'refunded' });
    expect(fake.refunds).toEqual([expect.objectContaining({ ordernum: o.orderNumber, reference: `${o.orderNumber}-refund` })]);
    expect(await t.db('payments').where({ order_id: o.id, kind: 'refund' })).toEqual([expect.objectContaining({ status: 'approved' })]);
    expect(await events(t, o.id)).toEqual(['order.created', 'order.cancel_pending', 'order.cancelled']);
  });

  it('when six cancels of a paid card order race, then one answers 200, the others 409, the gateway receives one refund and one refund row is recorded', async () => {
    const o = await place(t, fx, items, 'card');
    const manager = tokenFor(t, fx.users.manager);
    fake.refundDelayMs = 300;
    try {
      const answers = await Promise.all(
        [1, 2, 3, 4, 5, 6].map(() => post(t, manager, `/orders/${o.id}/cancel`, { reason: 'Double click' })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      for (const a of answers.filter((x) => x.status === 409))
        expect(['refund_in_progress', 'order_transition_illegal']).toContain(problem(a).code);
    } finally {
      fake.refundDelayMs = 0;
    }
    expect(returnsFor(o.orderNumber)).toBe(1);
    expect(fake.refunds.filter((r) => r.ordernum === o.orderNumber)).toHaveLength(1);
    const detail = await request(t.app).get(`/api/v1/orders/${o.id}`).set('Authorization', `Bearer ${manager}`);
    expect(detail.body.paymentStatus).toBe('refunded');
    expect(detail.body.payments.filter((p: { kind: string }) => p.kind === 'refund')).toEqual([
      expect.objectContaining({ status: 'approved', reference: `${o.orderNumber}-refund`, amount: detail.body.total }),
    ]);
    expect(await events(t, o.id)).toEqual(['order.created', 'order.cancelled']);
  });

  it("when the refund's answer is lost, then the cancel answers 502 refund_unconfirmed, the order stays refund_pending (cancel_pending) and the reconciler settles it by lookup without sending it again", async () => {
    const o = await place(t, fx, items, 'card');
    const manager = tokenFor(t, fx.users.manager);
    fake.refundAnswerLost = true;
    try {
      const lost = await post(t, manager, `/orders/${o.id}/cancel`, { reason: 'Lost answer' });
      expect(lost.status).toBe(502);
      expect(problem(lost).code).toBe('refund_unconfirmed');
    } finally {
      fake.refundAnswerLost = false;
    }
    expect(await t.db('orders').where({ id: o.id }).first()).toMatchObject({ status: 'cancel_pending', payment_status: 'refund_pending' });
    const busy = await post(t, manager, `/orders/${o.id}/cancel`, { reason: 'Lost answer' });
    expect(busy.status).toBe(409);
    expect(problem(busy).code).toBe('refund_in_progress');
    const attention = await request(t.app).get('/api/v1/orders/attention').set('Authorization', `Bearer ${manager}`);
    expect(attention.body.items.map((x: { id: number }) => x.id)).toContain(o.id);
    expect(await reconcileRefunds(deps())).toMatchObject({ refunded: 0 }); // too young to call unknown
    await age(o.id);
    expect(await reconcileRefunds(deps())).toMatchObject({ refunded: 1, failedToCheck: 0 });
    expect(await t.db('orders').where({ id: o.id }).first()).toMatchObject({ status: 'cancelled', payment_status: 'refunded' });
    expect(await t.db('payments').where({ order_id: o.id, kind: 'refund' })).toEqual([
      expect.objectContaining({ status: 'approved', result_code: 'AUTH' }),
    ]);
    expect(returnsFor(o.orderNumber)).toBe(1);
    expect(await events(t, o.id)).toEqual(['order.created', 'order.cancel_pending', 'order.cancelled']);
  });

  it('when the process died after recording the refund but before sending it, then the reconciler finds none and leaves the order cancel_pending and paid; cancelling again refunds it once', async () => {
    const o = await place(t, fx, items, 'card');
    // What a process killed between steps 1 and 2 leaves: the refund recorded as pending, nothing sent.
    await t.db('payments').insert({
      order_id: o.id,
      kind: 'refund',
      gateway: 'monetra',
      amount: t.db('orders').where({ id: o.id }).select('total_amount'),
      status: 'pending',
      merchant_reference: `${o.orderNumber}-refund`,
    });
    await t.db('orders').where({ id: o.id }).update({ payment_status: 'refund_pending', cancel_reason: 'Crashed' });
    await age(o.id);
    const attention = await request(t.app)
      .get('/api/v1/orders/attention')
      .set('Authorization', `Bearer ${tokenFor(t, fx.users.manager)}`);
    expect(attention.body.items.find((x: { id: number }) => x.id === o.id)).toMatchObject({
      reason: 'cancel_pending',
      paymentStatus: 'refund_pending',
    });
    expect(await reconcileRefunds(deps())).toMatchObject({ refused: 1 });
    expect(await t.db('orders').where({ id: o.id }).first()).toMatchObject({ status: 'cancel_pending', payment_status: 'paid' });
    expect(await t.db('payments').where({ order_id: o.id, kind: 'refund' })).toEqual([
      expect.objectContaining({ status: 'error', verbiage: 'The refund never reached the payment gateway' }),
    ]);
    expect(returnsFor(o.orderNumber)).toBe(0);
    const retry = await post(t, tokenFor(t, fx.users.manager), `/orders/${o.id}/cancel`, { reason: 'Crashed' });
    expect(retry.status).toBe(200);
    expect(retry.body.paymentStatus).toBe('refunded');
    expect(returnsFor(o.orderNumber)).toBe(1);
  });
});
