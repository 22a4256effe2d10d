import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { GOOD_CARD, fillCart, postOrder, problem, startCheckout, storeItems, type StoreItem } from '../orders/test-support';
import { deliveryDateFor, getSchedule } from './schedules.service';

/**
 * The ordering week II over HTTP (issue 28 §1, §2, §5), mirroring ../shared/checks/ordering-week.mjs part 2:
 * the schedule, delivery minimums (shortfall numbers, pickup exempt), emergency orders, the store's
 * deliveries, and the store editor's ordering settings; the calendar with a fixed clock through the service.
 */
const S = FIXTURE_STORES.central;
let t: TestContext;
let fx: Fixtures;
let items: StoreItem[];
beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  items = await storeItems(t.db, S, 2);
});
afterAll(async () => {
  await t.close();
});
const as = (u: { id: string; email: string }) => tokenFor(t, u);
const get = (token: string | null, path: string) => {
  const r = request(t.app).get(`/api/v1${path}`);
  return token ? r.set('Authorization', `Bearer ${token}`) : r;
};
const send = (method: 'post' | 'patch' | 'put', token: string, path: string, body: object) =>
  request(t.app)[method](`/api/v1${path}`).set('Authorization', `Bearer ${token}`).send(body);
const patchStore = (body: object) => send('patch', as(fx.users.admin), `/admin/stores/${S}`, body);
const resetStore = () => t.db('store_schedules').where({ store_id: S }).del();
/** Bottle volume of the items (ml; 750 where unknown), as the minimum counts it. */
const volumeOf = async (item: StoreItem) => {
  const row = await t
    .db('items as i')
    .leftJoin('bottle_sizes as b', 'b.id', 'i.bottle_size_id')
    .where('i.id', item.id)
    .first('b.volume_ml');
  return row?.volume_ml || 750;
};

describe('the schedule', () => {
  afterEach(resetStore);

  it("when the buyer reads the schedule of their outlet at a store, then it answers the calendar with the next cut-off and delivery date; another outlet's buyer gets 404, no session 401", async () => {
    const res = await get(as(fx.users.buyer), `/outlets/${fx.outlets.dsm}/stores/${S}/schedule`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      orderDays: [0, 1, 2, 3, 4, 5, 6],
      cutoffLocalTime: '14:00',
      timeZone: 'America/Chicago',
      emergencyOrdersLeft: 12,
      emergencyFee: '0.00',
    });
    expect(res.body.nextDeliveryDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Date(res.body.nextCutoffAt).getTime()).toBeGreaterThan(Date.now());
    expect(res.body.summary).toMatch(/^Order by \w{3} 2 pm for delivery \w{3} \w{3} \d+$/);
    expect((await get(as(fx.users.otherBuyer), `/outlets/${fx.outlets.dsm}/stores/${S}/schedule`)).status).toBe(404);
    expect((await get(null, `/outlets/${fx.outlets.dsm}/stores/${S}/schedule`)).status).toBe(401);
  });

  it("when the store sets weekday order days with a 2 pm cut-off, then an order a minute before gets delivery lead days later and one a minute after the next order day's (fixed clock)", async () => {
    expect(
      (await patchStore({ orderDays: [1, 2, 3, 4, 5], cutoffLocalTime: '14:00', timeZone: 'America/Chicago', deliveryLeadDays: 2 })).status,
    ).toBe(200);
    const before = await getSchedule(t.db, fx.outlets.dsm, S, new Date('2026-12-01T19:59:00Z'));
    expect(before).toMatchObject({
      nextCutoffAt: '2026-12-01T20:00:00.000Z',
      nextDeliveryDate: '2026-12-03',
      summary: 'Order by Tue 2 pm for delivery Thu Dec 3',
    });
    const after = await getSchedule(t.db, fx.outlets.dsm, S, new Date('2026-12-01T20:01:00Z'));
    expect(after).toMatchObject({ nextCutoffAt: '2026-12-02T20:00:00.000Z', nextDeliveryDate: '2026-12-04' });
    // A date asked for before the earliest is moved to it; a later one is kept; an emergency order skips the calendar.
    const at = new Date('2026-12-01T20:01:00Z');
    expect(await deliveryDateFor(t.db, { outletId: fx.outlets.dsm, storeId: S, requested: '2026-12-02' }, at)).toBe('2026-12-04');
    expect(await deliveryDateFor(t.db, { outletId: fx.outlets.dsm, storeId: S, requested: '2026-12-10' }, at)).toBe('2026-12-10');
    expect(await deliveryDateFor(t.db, { outletId: fx.outlets.dsm, storeId: S, requested: null, emergency: true }, at)).toBe('2026-12-03');
  });

  it("when the outlet has an override at the store, then its order days and cut-off win over the store's", async () => {
    await patchStore({ orderDays: [1, 2, 3, 4, 5], deliveryLeadDays: 1 });
    await t.db('outlet_store_schedules').insert({ outlet_id: fx.outlets.dsm, store_id: S, order_days: [4], cutoff_local_time: '10:00' });
    try {
      const s = await getSchedule(t.db, fx.outlets.dsm, S, new Date('2026-12-01T19:59:00Z'));
      expect(s).toMatchObject({
        orderDays: [4],
        cutoffLocalTime: '10:00',
        nextCutoffAt: '2026-12-03T16:00:00.000Z',
        nextDeliveryDate: '2026-12-04',
      });
    } finally {
      await t.db('outlet_store_schedules').del();
    }
  });

  it("when the administrator sets an outlet override over HTTP, then the outlet's schedule uses it; null clears it; store staff may not; an outlet not of the store 404", async () => {
    const path = `/admin/stores/${S}/outlets/${fx.outlets.dsm}/schedule`;
    const put = await send('put', as(fx.users.admin), path, { orderDays: [5, 2], emergencyAllowance: 4 });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      outletId: fx.outlets.dsm,
      storeId: S,
      orderDays: [2, 5],
      cutoffLocalTime: null,
      deliveryLeadDays: null,
      emergencyAllowance: 4,
    });
    const sch = await get(as(fx.users.buyer), `/outlets/${fx.outlets.dsm}/stores/${S}/schedule`);
    expect(sch.body).toMatchObject({ orderDays: [2, 5], emergencyAllowance: 4 });
    expect((await send('put', as(fx.users.manager), path, { orderDays: [1] })).status).toBe(403);
    expect(
      (await send('put', as(fx.users.admin), `/admin/stores/${S}/outlets/${fx.outlets.unassigned}/schedule`, { orderDays: [1] })).status,
    ).toBe(404);
    expect((await send('put', as(fx.users.admin), path, { orderDays: [9] })).status).toBe(400);
    const cleared = await send('put', as(fx.users.admin), path, { orderDays: null, emergencyAllowance: null });
    expect(cleared.body).toMatchObject({ orderDays: null, emergencyAllowance: null });
    expect(await t.db('outlet_store_schedules').where({ outlet_id: fx.outlets.dsm }).first()).toBeUndefined();
    expect((await get(as(fx.users.admin), path)).body).toMatchObject({ orderDays: null });
  });

  it('when settings out of range are sent, then 400 and nothing changes; a store manager (no bcc.stores.super_admin) cannot change them', async () => {
    for (const bad of [
      { deliveryMinimumMl: -1 },
      { orderDays: [] },
      { orderDays: [7] },
      { cutoffLocalTime: '25:00' },
      { timeZone: 'Mars/Olympus' },
      { emergencyFee: '-3' },
    ]) {
      expect([bad, (await patchStore(bad)).status]).toEqual([bad, 400]);
    }
    expect(await t.db('store_schedules').where({ store_id: S }).first()).toBeUndefined();
    const mgr = await send('patch', as(fx.users.manager), `/admin/stores/${S}`, { deliveryMinimumMl: 1 });
    expect([403, 404]).toContain(mgr.status);
    await expect(t.db('store_schedules').insert({ store_id: S, delivery_minimum_ml: -5 })).rejects.toThrow(/store_schedules_minimums/);
  });

  it('when the administrator sets the settings, then GET /admin/stores/{id} returns them and the change is audited', async () => {
    const res = await patchStore({ deliveryMinimumMl: 9000, deliveryMinimumAmount: '100', emergencyAllowance: 3, emergencyFee: 25 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      deliveryMinimumMl: 9000,
      deliveryMinimumAmount: '100.00',
      emergencyAllowance: 3,
      emergencyFee: '25.00',
    });
    const read = await get(as(fx.users.admin), `/admin/stores/${S}`);
    expect(read.body).toMatchObject({ deliveryMinimumMl: 9000, deliveryMinimumAmount: '100.00', orderDays: [0, 1, 2, 3, 4, 5, 6] });
    const audit = await t
      .db('audit_log')
      .where({ action: 'store.updated', entity_id: String(S) })
      .orderBy('id', 'desc')
      .first();
    expect(JSON.stringify(audit?.details)).toContain('deliveryMinimumMl');
    expect((await patchStore({ deliveryMinimumMl: null, deliveryMinimumAmount: null })).body).toMatchObject({
      deliveryMinimumMl: null,
      deliveryMinimumAmount: null,
    });
  });
});

describe('delivery minimums', () => {
  afterEach(resetStore);
  const cartOf = (fulfillment: 'Pickup' | 'Delivery', quantity = 1) =>
    fillCart(t.db, { userId: fx.users.buyer.id, outletId: fx.outlets.dsm, storeId: S, lines: [{ item: items[0], quantity }], fulfillment });

  it('when a Delivery cart is below 9 L, then checkout answers 409 below_delivery_minimum with the shortfall in ml and as "Add N L more for delivery"', async () => {
    expect((await patchStore({ deliveryEnabled: true, deliveryMinimumMl: 9000 })).status).toBe(200);
    const ml = await volumeOf(items[0]);
    const res = await startCheckout(t.app, as(fx.users.buyer), await cartOf('Delivery', 2));
    expect(res.status).toBe(409);
    const short = 9000 - 2 * ml;
    expect(problem(res)).toMatchObject({
      code: 'below_delivery_minimum',
      shortfallMl: short,
      shortfallAmount: '0.00',
      detail: `Add ${(Math.ceil(short / 100) / 10).toFixed(1)} L more for delivery.`,
    });
  });

  it('when the minimum is an amount, then the shortfall is the amount missing from the subtotal', async () => {
    await patchStore({ deliveryMinimumAmount: '1000.00' });
    const res = await startCheckout(t.app, as(fx.users.buyer), await cartOf('Delivery', 1));
    expect(res.status).toBe(409);
    const cents = 100000 - Math.round(Number(items[0].retail) * 100);
    expect(problem(res)).toMatchObject({ shortfallMl: 0, shortfallAmount: (cents / 100).toFixed(2) });
    expect(problem(res).detail).toMatch(/^Add \$\d+\.\d{2} more for delivery\.$/);
  });

  it('when the minimum is raised after checkout started, then POST /orders refuses the Delivery order with the shortfall too', async () => {
    const s = await startCheckout(t.app, as(fx.users.buyer), await cartOf('Delivery', 1));
    expect(s.status).toBe(201);
    await patchStore({ deliveryMinimumMl: 100_000 });
    const o = await postOrder(t.app, as(fx.users.buyer), { checkoutToken: s.body.token, paymentMethod: 'card', card: GOOD_CARD });
    expect(o.status).toBe(409);
    expect(problem(o)).toMatchObject({ code: 'below_delivery_minimum', shortfallMl: expect.any(Number) });
    const sessions = t.db('checkout_sessions').select('id').where({ cart_id: s.body.cartId });
    expect(await t.db('orders').whereIn('checkout_session_id', sessions).first('id')).toBeUndefined();
  });

  it('when the same cart is Pickup, then there is no minimum', async () => {
    await patchStore({ deliveryMinimumMl: 9000, deliveryMinimumAmount: '1000.00' });
    expect((await startCheckout(t.app, as(fx.users.buyer), await cartOf('Pickup', 1))).status).toBe(201);
  });

  it('when a Delivery cart reaches the minimum, then checkout starts and the order stores the next delivery date (an earlier date asked for is moved)', async () => {
    const ml = await volumeOf(items[0]);
    await patchStore({ deliveryMinimumMl: ml * 3 });
    const cartId = await cartOf('Delivery', 3);
    await t.db('carts').where({ id: cartId }).update({ delivery_date: '2001-01-01' });
    const s = await startCheckout(t.app, as(fx.users.buyer), cartId);
    expect(s.status).toBe(201);
    const schedule = await get(as(fx.users.buyer), `/outlets/${fx.outlets.dsm}/stores/${S}/schedule`);
    expect(s.body.fulfillmentDate).toBe(schedule.body.nextDeliveryDate);
    const o = await postOrder(t.app, as(fx.users.buyer), { checkoutToken: s.body.token, paymentMethod: 'card', card: GOOD_CARD });
    expect(o.status).toBe(201);
    expect((await t.db('orders').where({ id: o.body.id }).first('delivery_date'))?.delivery_date).toBe(schedule.body.nextDeliveryDate);
    // The store manager sees it among the deliveries of that date; the buyer may not read the list.
    const list = await get(as(fx.users.manager), `/stores/${S}/deliveries?date=${schedule.body.nextDeliveryDate}`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((d: { orderId: number }) => d.orderId)).toContain(o.body.id);
    expect((await get(as(fx.users.buyer), `/stores/${S}/deliveries`)).status).toBe(403);
    expect((await get(as(fx.users.otherManager), `/stores/${S}/deliveries`)).status).toBe(404);
  });
});

describe('emergency orders', () => {
  afterEach(resetStore);

  it('when an outlet places an emergency order, then the fee is in the total and one of its allowance is used; with none left → 409 emergency_allowance_used', async () => {
    await patchStore({ emergencyAllowance: 1, emergencyFee: '25.00' });
    const cartId = await fillCart(t.db, {
      userId: fx.users.buyer.id,
      outletId: fx.outlets.dsm,
      storeId: S,
      lines: [{ item: items[1], quantity: 1 }],
    });
    const s = await send('post', as(fx.users.buyer), '/checkout-sessions', { cartId, emergency: true });
    expect(s.status).toBe(201);
    expect(s.body).toMatchObject({ emergency: true, emergencyFee: '25.00' });
    expect(Math.round(Number(s.body.total) * 100)).toBe(Math.round(Number(items[1].retail) * 100) + 2500);
    const o = await postOrder(t.app, as(fx.users.buyer), { checkoutToken: s.body.token, paymentMethod: 'in_store' });
    expect(o.status).toBe(201);
    expect(o.body).toMatchObject({ emergency: true, emergencyFee: '25.00', total: s.body.total });
    expect(await t.db('orders').where({ id: o.body.id }).first('emergency', 'emergency_fee')).toEqual({
      emergency: true,
      emergency_fee: '25.00',
    });
    const sch = await get(as(fx.users.buyer), `/outlets/${fx.outlets.dsm}/stores/${S}/schedule`);
    expect(sch.body).toMatchObject({ emergencyOrdersUsed: 1, emergencyOrdersLeft: 0 });
    const cart2 = await fillCart(t.db, {
      userId: fx.users.buyer.id,
      outletId: fx.outlets.dsm,
      storeId: S,
      lines: [{ item: items[1], quantity: 1 }],
    });
    const again = await send('post', as(fx.users.buyer), '/checkout-sessions', { cartId: cart2, emergency: true });
    expect(again.status).toBe(409);
    expect(problem(again).code).toBe('emergency_allowance_used');
  });
});
