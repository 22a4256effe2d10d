import { createHash } from 'node:crypto';
import request from 'supertest';
import { checkoutSessionSchema } from '@portal/contracts';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { fillCart, problem, startCheckout, storeItems, totalOf, type StoreItem } from '../orders/test-support';

let t: TestContext;
let fx: Fixtures;
let buyer: string;
let items: StoreItem[];
const S = FIXTURE_STORES;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  buyer = tokenFor(t, fx.users.buyer);
  items = await storeItems(t.db, S.central, 3);
});
afterAll(async () => {
  await t.close();
});

const buyerCart = (lines: { item: StoreItem; quantity: number }[], fulfillment: 'Pickup' | 'Delivery' = 'Pickup') =>
  fillCart(t.db, { userId: fx.users.buyer.id, outletId: fx.outlets.dsm, storeId: S.central, lines, fulfillment });
const getSession = (token: string, auth = buyer) =>
  request(t.app).get(`/api/v1/checkout-sessions/${token}`).set('Authorization', `Bearer ${auth}`);

describe('POST /checkout-sessions', () => {
  it('when the buyer checks out a Pickup cart, then a 30-minute session with a 64-hex token and the server total is stored hashed', async () => {
    const lines = [
      { item: items[0], quantity: 2 },
      { item: items[1], quantity: 1 },
    ];
    const cartId = await buyerCart(lines);
    const before = Date.now();
    const res = await startCheckout(t.app, buyer, cartId);
    expect(res.status).toBe(201);
    expect(checkoutSessionSchema.parse(res.body)).toEqual(res.body);
    expect(res.body.token).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body).toMatchObject({
      cartId,
      storeId: S.central,
      outletId: fx.outlets.dsm,
      total: totalOf(lines),
      subtotal: totalOf(lines),
      deliveryCharge: '0.00',
      itemCount: 2,
      fulfillmentType: 'Pickup',
      testMode: true,
    });
    const minutes = (Date.parse(res.body.expiresAt) - before) / 60000;
    expect(minutes).toBeGreaterThan(29.5);
    expect(minutes).toBeLessThanOrEqual(30.1);
    const row = await t.db('checkout_sessions').where({ cart_id: cartId }).orderBy('created_at', 'desc').first();
    expect(row!.token_hash).toBe(createHash('sha256').update(res.body.token).digest('hex'));
    expect(row!.token_hash).not.toBe(res.body.token);
    expect(row).toMatchObject({ user_id: fx.users.buyer.id, total: totalOf(lines), consumed_at: null });
  });

  it("when the cart is for Delivery, then the total adds the store's delivery charge (15.00)", async () => {
    const lines = [{ item: items[2], quantity: 3 }];
    const cartId = await buyerCart(lines, 'Delivery');
    const res = await startCheckout(t.app, buyer, cartId);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      fulfillmentType: 'Delivery',
      subtotal: totalOf(lines),
      deliveryCharge: '15.00',
      total: totalOf(lines, '15.00'),
    });
  });

  it("when the cart's unit prices are stale, then the total uses the items' current prices", async () => {
    const cartId = await buyerCart([{ item: items[0], quantity: 1 }]);
    await t.db('cart_items').where({ cart_id: cartId }).update({ unit_price: '0.01' });
    const res = await startCheckout(t.app, buyer, cartId);
    expect(res.body.total).toBe(totalOf([{ item: items[0], quantity: 1 }]));
  });

  it("when the cart is empty, then it answers 400 cart_empty with the spec's text and stores no session", async () => {
    const cartId = await buyerCart([]);
    const n = (await t.db('checkout_sessions').count<{ n: number }[]>('* as n'))[0].n;
    const res = await startCheckout(t.app, buyer, cartId);
    expect(res.status).toBe(400);
    expect(problem(res)).toMatchObject({
      code: 'cart_empty',
      title: 'Cart is empty',
      detail: 'Please add items to your cart before checking out.',
    });
    expect((await t.db('checkout_sessions').count<{ n: number }[]>('* as n'))[0].n).toBe(n);
  });

  it('when the viewer (no bcc.carts.checkout) checks out, then it answers 403 forbidden', async () => {
    const cartId = await fillCart(t.db, {
      userId: fx.users.viewer.id,
      outletId: fx.outlets.dsm,
      storeId: S.central,
      lines: [{ item: items[0], quantity: 1 }],
    });
    const res = await startCheckout(t.app, tokenFor(t, fx.users.viewer), cartId);
    expect(res.status).toBe(403);
    expect(problem(res).code).toBe('forbidden');
    expect(await t.db('checkout_sessions').where({ cart_id: cartId }).first()).toBeUndefined();
  });

  it('when nobody is signed in, then it answers 401', async () => {
    const res = await request(t.app).post('/api/v1/checkout-sessions').send({ cartId: 1 });
    expect(res.status).toBe(401);
  });

  it("when the buyer checks out another person's cart, then it answers 404 Cart not found", async () => {
    const other = await fillCart(t.db, { userId: fx.users.otherBuyer.id, outletId: fx.outlets.dav, storeId: S.davenport, lines: [] });
    const res = await startCheckout(t.app, buyer, other);
    expect(res.status).toBe(404);
    expect(problem(res)).toMatchObject({ code: 'not_found', detail: 'Cart not found' });
  });

  it('when the cart was already checked out, then it answers 404', async () => {
    const cartId = await buyerCart([{ item: items[0], quantity: 1 }]);
    await t.db('carts').where({ id: cartId }).update({ status: 'checked_out' });
    const res = await startCheckout(t.app, buyer, cartId);
    expect(res.status).toBe(404);
  });

  it("when an item left the store's inventory, then it answers 409 checkout_items_unavailable naming the code", async () => {
    const cartId = await buyerCart([{ item: items[1], quantity: 1 }]);
    const inv = await t.db('inventory').where({ store_id: S.central, item_id: items[1].id }).first();
    await t.db('inventory').where({ store_id: S.central, item_id: items[1].id }).del();
    try {
      const res = await startCheckout(t.app, buyer, cartId);
      expect(res.status).toBe(409);
      expect(problem(res).code).toBe('checkout_items_unavailable');
      expect(problem(res).detail).toContain(items[1].code);
    } finally {
      await t.db('inventory').insert(inv!);
    }
  });

  it('when the cart says Delivery but the store does not deliver, then it answers 422 delivery_unavailable', async () => {
    const [item] = await storeItems(t.db, S.cyclone, 1);
    const cartId = await fillCart(t.db, {
      userId: fx.users.buyer.id,
      outletId: fx.outlets.ams,
      storeId: S.cyclone,
      lines: [{ item, quantity: 1 }],
      fulfillment: 'Delivery',
      deliveryCharge: '5.00',
    });
    const res = await startCheckout(t.app, buyer, cartId);
    expect(res.status).toBe(422);
    expect(problem(res)).toMatchObject({ code: 'delivery_unavailable', detail: 'Delivery is not available from this store.' });
  });

  it.each([[{ cartId: 'x' }], [{}], [{ cartId: 1, extra: true }]])(
    'when the body is %j, then it answers 400 validation_failed',
    async (body) => {
      const res = await request(t.app).post('/api/v1/checkout-sessions').set('Authorization', `Bearer ${buyer}`).send(body);
      expect(res.status).toBe(400);
      expect(problem(res).code).toBe('validation_failed');
    },
  );
});

describe('GET /checkout-sessions/{token}', () => {
  let token: string;
  let cartId: number;
  beforeEach(async () => {
    cartId = await buyerCart([
      { item: items[0], quantity: 1 },
      { item: items[2], quantity: 4 },
    ]);
    token = (await startCheckout(t.app, buyer, cartId)).body.token;
  });

  it('when the owner validates a fresh session, then it answers the session with testMode', async () => {
    const res = await getSession(token);
    expect(res.status).toBe(200);
    expect(checkoutSessionSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({
      token,
      cartId,
      testMode: true,
      total: totalOf([
        { item: items[0], quantity: 1 },
        { item: items[2], quantity: 4 },
      ]),
    });
  });

  it('when the token is not 64 hex characters, then it answers 400 Invalid checkout token', async () => {
    const res = await getSession('not-a-token');
    expect(res.status).toBe(400);
    expect(problem(res)).toMatchObject({ code: 'validation_failed', detail: 'Invalid checkout token' });
  });

  it('when no session has the token, then it answers 404 No checkout session found', async () => {
    const res = await getSession('a'.repeat(64));
    expect(res.status).toBe(404);
    expect(problem(res)).toMatchObject({ code: 'checkout_session_not_found', detail: 'No checkout session found' });
  });

  it('when another person presents the token, then it answers 404 User mismatch in checkout session', async () => {
    const res = await getSession(token, tokenFor(t, fx.users.otherBuyer));
    expect(res.status).toBe(404);
    expect(problem(res)).toMatchObject({ code: 'checkout_session_user_mismatch', detail: 'User mismatch in checkout session' });
  });

  it('when the viewer (no bcc.carts.checkout) presents a token, then it answers 403', async () => {
    const res = await getSession(token, tokenFor(t, fx.users.viewer));
    expect(res.status).toBe(403);
  });

  it('when the session has expired, then it answers 410 Checkout session expired', async () => {
    await t
      .db('checkout_sessions')
      .where({ token_hash: createHash('sha256').update(token).digest('hex') })
      .update({ expires_at: t.db.raw(`now() - interval '1 second'`) });
    const res = await getSession(token);
    expect(res.status).toBe(410);
    expect(problem(res)).toMatchObject({ code: 'checkout_session_expired', detail: 'Checkout session expired' });
  });

  it('when the cart changed after checkout started, then it answers 409 checkout_cart_changed', async () => {
    await t.db('cart_items').where({ cart_id: cartId, item_code: items[0].code }).update({ quantity: 5 });
    const res = await getSession(token);
    expect(res.status).toBe(409);
    expect(problem(res).code).toBe('checkout_cart_changed');
  });

  it('when the session was already used, then it answers 409 checkout_session_used', async () => {
    await t
      .db('checkout_sessions')
      .where({ token_hash: createHash('sha256').update(token).digest('hex') })
      .update({ consumed_at: t.db.fn.now() });
    const res = await getSession(token);
    expect(res.status).toBe(409);
    expect(problem(res).code).toBe('checkout_session_used');
  });
});

describe('OpenAPI', () => {
  it('when the document is fetched, then both checkout-session paths are documented', async () => {
    const res = await request(t.app).get('/api/v1/openapi.json');
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/api/v1/checkout-sessions', '/api/v1/checkout-sessions/{token}']));
  });
});
