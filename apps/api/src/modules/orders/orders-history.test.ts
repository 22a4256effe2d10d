import request from 'supertest';
import { orderDetailSchema, orderListSchema, reorderResultSchema } from '@portal/contracts';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { GOOD_CARD, fillCart, postOrder, problem, startCheckout, storeItems, type StoreItem } from './test-support';

/** Order history, store orders, detail, mark ready and reorder (spec 001 §§2–6). */
let t: TestContext;
let fx: Fixtures;
let tok: Record<'buyer' | 'manager' | 'otherManager' | 'otherBuyer' | 'viewer' | 'admin', string>;
let items: StoreItem[];
let cyclone: StoreItem[];
const S = FIXTURE_STORES;
/** Orders placed in beforeAll: a (2190 in-store), b (2190 card, Delivery), c (4129 in-store), d (other buyer at 2614), declined (2190). */
const o: Record<'a' | 'b' | 'c' | 'd' | 'declined', number> = { a: 0, b: 0, c: 0, d: 0, declined: 0 };

async function place(
  who: keyof typeof tok,
  userId: string,
  outletId: number,
  storeId: number,
  lines: { item: StoreItem; quantity: number }[],
  pay: object,
  fulfillment: 'Pickup' | 'Delivery' = 'Pickup',
) {
  const cartId = await fillCart(t.db, { userId, outletId, storeId, lines, fulfillment });
  const s = await startCheckout(t.app, tok[who], cartId);
  const res = await postOrder(t.app, tok[who], { checkoutToken: s.body.token, ...pay });
  return res;
}

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  tok = {
    buyer: tokenFor(t, fx.users.buyer),
    manager: tokenFor(t, fx.users.manager),
    otherManager: tokenFor(t, fx.users.otherManager),
    otherBuyer: tokenFor(t, fx.users.otherBuyer),
    viewer: tokenFor(t, fx.users.viewer),
    admin: tokenFor(t, fx.users.admin),
  };
  items = await storeItems(t.db, S.central, 3);
  cyclone = await storeItems(t.db, S.cyclone, 2);
  const [dav] = await storeItems(t.db, S.davenport, 1);
  const B = fx.users.buyer.id;
  o.a = (
    await place(
      'buyer',
      B,
      fx.outlets.dsm,
      S.central,
      [
        { item: items[0], quantity: 2 },
        { item: items[1], quantity: 1 },
      ],
      { paymentMethod: 'in_store' },
    )
  ).body.id;
  expect(
    (
      await place('buyer', B, fx.outlets.dsm, S.central, [{ item: items[2], quantity: 1 }], {
        paymentMethod: 'card',
        card: { ...GOOD_CARD, cardNumber: '4000000000000002' },
      })
    ).status,
  ).toBe(402);
  o.declined = (await t.db('orders').where({ user_id: B, payment_status: 'failed' }).first('id'))!.id;
  o.b = (
    await place(
      'buyer',
      B,
      fx.outlets.dsm,
      S.central,
      [{ item: items[2], quantity: 4 }],
      { paymentMethod: 'card', card: GOOD_CARD },
      'Delivery',
    )
  ).body.id;
  o.c = (await place('buyer', B, fx.outlets.ams, S.cyclone, [{ item: cyclone[0], quantity: 1 }], { paymentMethod: 'in_store' })).body.id;
  o.d = (
    await place('otherBuyer', fx.users.otherBuyer.id, fx.outlets.dav, S.davenport, [{ item: dav, quantity: 6 }], {
      paymentMethod: 'in_store',
    })
  ).body.id;
  // Orders a, b, c in a known order of time (newest: c).
  await t
    .db('orders')
    .where({ id: o.a })
    .update({ order_date: t.db.raw(`now() - interval '3 hours'`) });
  await t
    .db('orders')
    .where({ id: o.b })
    .update({ order_date: t.db.raw(`now() - interval '2 hours'`) });
});
afterAll(async () => {
  await t.close();
});

const get = (path: string, who: keyof typeof tok = 'buyer') =>
  request(t.app).get(`/api/v1${path}`).set('Authorization', `Bearer ${tok[who]}`);
const post = (path: string, who: keyof typeof tok = 'buyer') =>
  request(t.app).post(`/api/v1${path}`).set('Authorization', `Bearer ${tok[who]}`);
const ids = (res: request.Response) => res.body.items.map((x: { id: number }) => x.id);

describe('GET /orders', () => {
  it('when the buyer lists, then they get their placed orders newest first with store, outlet, counts and lines, scope own', async () => {
    const res = await get('/orders');
    expect(res.status).toBe(200);
    expect(orderListSchema.parse(res.body)).toEqual(res.body);
    expect(ids(res)).toEqual([o.c, o.b, o.a]);
    expect(res.body.scope).toBe('own');
    const a = res.body.items.find((x: { id: number }) => x.id === o.a);
    expect(a).toMatchObject({
      storeName: 'CENTRAL CITY LIQUOR, INC.',
      outletName: 'Demo – Court Avenue Taproom',
      itemCount: 2,
      unitCount: 3,
      status: 'reserved',
    });
    expect(a.items).toHaveLength(2);
    expect(res.body.counts).toEqual({ reserved: 3, ready: 0, completed: 0, cancelled: 0, all: 3 });
  });

  it('when a card payment was declined, then that attempt is not in the history', async () => {
    expect(o.declined).toBeGreaterThan(0);
    expect(ids(await get('/orders'))).not.toContain(o.declined);
  });

  it('when the buyer filters by store, status and search, then only matching orders come back', async () => {
    expect(ids(await get(`/orders?storeId=${S.cyclone}`))).toEqual([o.c]);
    expect(ids(await get(`/orders?storeId=${S.central}`))).toEqual([o.b, o.a]);
    expect(ids(await get('/orders?status=ready'))).toEqual([]);
    const number = (await t.db('orders').where({ id: o.a }).first('order_number'))!.order_number as string;
    expect(ids(await get(`/orders?search=${number.toLowerCase()}`))).toEqual([o.a]);
    expect(ids(await get('/orders?search=BLAKE'))).toEqual([o.c, o.b, o.a]);
    expect(ids(await get('/orders?search=buyer@EXAMPLE'))).toEqual([o.c, o.b, o.a]);
    expect(ids(await get('/orders?search=%25'))).toEqual([]);
  });

  it('when the query has an unknown status or field, then it answers 400', async () => {
    expect((await get('/orders?status=shipped')).status).toBe(400);
    expect((await get('/orders?foo=1')).status).toBe(400);
  });

  it("when the store manager lists, then they see every order of the stores they reach (scope store), not other stores'", async () => {
    const res = await get('/orders', 'manager');
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('store');
    expect(ids(res)).toEqual(expect.arrayContaining([o.a, o.b, o.c]));
    expect(ids(res)).not.toContain(o.d);
    expect(ids(await get(`/orders?storeId=${S.central}`, 'manager'))).toEqual([o.b, o.a]);
  });

  it('when the store manager asks for mine=true (My Orders), then only their own orders come back, scope own', async () => {
    const res = await get(`/orders?storeId=${S.central}&mine=true`, 'manager');
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('own');
    expect(res.body.items).toEqual([]);
    expect(res.body.counts.all).toBe(0);
    expect(ids(await get('/orders?mine=true'))).toEqual([o.c, o.b, o.a]);
    expect((await get('/orders?mine=yes')).status).toBe(400);
  });

  it("when the manager of another store lists, then they see only that store's orders", async () => {
    const res = await get('/orders', 'otherManager');
    expect(ids(res)).toEqual([o.d]);
    expect(ids(await get(`/orders?storeId=${S.central}`, 'otherManager'))).toEqual([]);
  });

  it('when a user without orders lists, then the list is empty', async () => {
    const res = await get('/orders', 'viewer');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ items: [], scope: 'own', counts: { all: 0 } });
  });

  it('when nobody is signed in, then it answers 401', async () => {
    expect((await request(t.app).get('/api/v1/orders')).status).toBe(401);
  });
});

describe('GET /orders/latest and /orders/{id}', () => {
  it('when the buyer asks for the latest order, then it is their newest placed one', async () => {
    const res = await get('/orders/latest');
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(o.c);
  });

  it('when a user has no orders, then latest answers 404 Order not found', async () => {
    const res = await get('/orders/latest', 'viewer');
    expect(res.status).toBe(404);
    expect(problem(res).detail).toBe('Order not found');
  });

  it("when the buyer opens a Delivery card order, then it has lines, store details, the delivery block and the card's last 4", async () => {
    const res = await get(`/orders/${o.b}`);
    expect(res.status).toBe(200);
    expect(orderDetailSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({
      id: o.b,
      fulfillmentType: 'Delivery',
      deliveryCharge: '15.00',
      paymentStatus: 'paid',
      store: {
        id: S.central,
        name: 'CENTRAL CITY LIQUOR, INC.',
        address: '1460 2ND AVE',
        city: 'DES MOINES',
        state: 'IA',
        zipCode: '50314',
        phone: '(515) 555-0100',
      },
      delivery: {
        name: 'Demo – Court Avenue Taproom',
        address: '309 Court Ave',
        city: 'DES MOINES',
        state: 'IA',
        zipCode: '50309',
        phone: '(515) 555-0142',
      },
      payment: { cardBrand: 'Visa', cardLast4: '1111' },
      items: [expect.objectContaining({ itemCode: items[2].code, quantity: 4 })],
    });
  });

  it('when another buyer opens the order, then it answers 404', async () => {
    const res = await get(`/orders/${o.a}`, 'otherBuyer');
    expect(res.status).toBe(404);
    expect(problem(res)).toMatchObject({ code: 'not_found', detail: 'Order not found' });
  });

  it("when the store's manager opens it, then it answers 200; the manager of another store gets 404", async () => {
    expect((await get(`/orders/${o.a}`, 'manager')).status).toBe(200);
    expect((await get(`/orders/${o.a}`, 'otherManager')).status).toBe(404);
  });

  it('when the id does not exist or is not a number, then it answers 404 or 400', async () => {
    expect((await get('/orders/99999999')).status).toBe(404);
    expect((await get('/orders/abc')).status).toBe(400);
  });
});

describe('POST /orders/{id}/ready', () => {
  it('when a buyer marks an order ready, then it answers 403 and the order stays reserved', async () => {
    const res = await post(`/orders/${o.a}/ready`);
    expect(res.status).toBe(403);
    expect(problem(res).code).toBe('forbidden');
    expect((await t.db('orders').where({ id: o.a }).first())!.status).toBe('reserved');
  });

  it('when the manager of another store marks it ready, then it answers 404 and nothing changes', async () => {
    const res = await post(`/orders/${o.a}/ready`, 'otherManager');
    expect(res.status).toBe(404);
    expect((await t.db('orders').where({ id: o.a }).first())!.status).toBe('reserved');
  });

  it("when the store's manager marks a reserved order ready, then it is ready with ready_at; a second time answers 409", async () => {
    try {
      const res = await post(`/orders/${o.a}/ready`, 'manager');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: o.a, status: 'ready' });
      const row = await t.db('orders').where({ id: o.a }).first();
      expect(row!.status).toBe('ready');
      expect(row!.ready_at).not.toBeNull();
      const again = await post(`/orders/${o.a}/ready`, 'manager');
      expect(again.status).toBe(409);
      expect(problem(again)).toMatchObject({ code: 'order_not_reserved', detail: 'Only new (reserved) orders can be marked ready.' });
      expect((await get('/orders?status=ready')).body.items.map((x: { id: number }) => x.id)).toEqual([o.a]);
    } finally {
      // Order a is reserved again for the other tests (lists, counts, refusals to mark it ready).
      await t.db('orders').where({ id: o.a }).update({ status: 'reserved', ready_at: null });
    }
  });

  it("when the order's payment failed, then it answers 409 order_awaiting_payment", async () => {
    const res = await post(`/orders/${o.declined}/ready`, 'manager');
    expect(res.status).toBe(409);
    expect(problem(res).code).toBe('order_awaiting_payment');
  });
});

describe('POST /orders/{id}/reorder', () => {
  const cartOf = (outletId: number, storeId: number) =>
    t
      .db('carts as c')
      .join('cart_items as ci', 'ci.cart_id', 'c.id')
      .where({ 'c.user_id': fx.users.buyer.id, 'c.outlet_id': outletId, 'c.store_id': storeId, 'c.status': 'active' })
      .orderBy('ci.item_code')
      .select('ci.item_code', 'ci.quantity');

  it("when the buyer reorders, then each line's quantity is added to their active cart for that outlet and store", async () => {
    await fillCart(t.db, {
      userId: fx.users.buyer.id,
      outletId: fx.outlets.dsm,
      storeId: S.central,
      lines: [{ item: items[0], quantity: 1 }],
    });
    const res = await post(`/orders/${o.a}/reorder`);
    expect(res.status).toBe(200);
    expect(reorderResultSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({ added: 2, skipped: [], message: '2 item(s) from this order have been added to your cart.' });
    expect(await cartOf(fx.outlets.dsm, S.central)).toEqual(
      [
        { item_code: items[0].code, quantity: 3 },
        { item_code: items[1].code, quantity: 1 },
      ].sort((x, y) => x.item_code.localeCompare(y.item_code)),
    );
    const again = await post(`/orders/${o.a}/reorder`);
    expect(again.body.added).toBe(2);
    expect((await cartOf(fx.outlets.dsm, S.central)).find((l) => l.item_code === items[0].code)!.quantity).toBe(5);
  });

  it('when an item is no longer sold by the store, then it is skipped with a reason', async () => {
    const inv = await t.db('inventory').where({ store_id: S.cyclone, item_id: cyclone[0].id }).first();
    await t.db('inventory').where({ store_id: S.cyclone, item_id: cyclone[0].id }).del();
    try {
      const res = await post(`/orders/${o.c}/reorder`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ added: 0, skipped: [{ itemCode: cyclone[0].code, reason: 'No longer available from this store' }] });
    } finally {
      await t.db('inventory').insert(inv!);
    }
  });

  it("when someone reorders another person's order, then it answers 404 (even a manager of the store)", async () => {
    expect((await post(`/orders/${o.a}/reorder`, 'otherBuyer')).status).toBe(404);
    expect((await post(`/orders/${o.a}/reorder`, 'manager')).status).toBe(404);
  });

  it('when the order has no lines, then it answers 422 No items to reorder', async () => {
    const [row] = await t
      .db('orders')
      .insert({
        order_number: 'ORD-EMPTY-1',
        user_id: fx.users.buyer.id,
        store_id: S.central,
        outlet_id: fx.outlets.dsm,
        status: 'completed',
        payment_method: 'in_store',
        payment_status: 'not_required',
        subtotal: 0,
        total_amount: 0,
        customer_name: 'Blake Buyer',
        customer_email: 'buyer@example.com',
      })
      .returning('id');
    try {
      const res = await post(`/orders/${row.id}/reorder`);
      expect(res.status).toBe(422);
      expect(problem(res)).toMatchObject({ code: 'nothing_to_reorder', detail: 'No items to reorder' });
    } finally {
      // The buyer's history holds orders a, b and c only again (the list and latest tests count on it).
      await t.db('orders').where({ id: row.id }).del();
    }
  });
});

describe('OpenAPI', () => {
  it('when the document is fetched, then every orders path is documented', async () => {
    const res = await request(t.app).get('/api/v1/openapi.json');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/orders',
        '/api/v1/orders/latest',
        '/api/v1/orders/{orderId}',
        '/api/v1/orders/{orderId}/ready',
        '/api/v1/orders/{orderId}/reorder',
      ]),
    );
  });
});
