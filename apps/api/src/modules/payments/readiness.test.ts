import request from 'supertest';
import { PAYMENT_ERROR_MESSAGES, paymentReadinessSchema } from '@portal/contracts';
import { loadConfig } from '../../config';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { GOOD_CARD, fillCart, postOrder, problem, startCheckout, storeItems, type StoreItem } from '../orders/test-support';
import { encryptPayload } from './credentials';
import { saveMonetraCredentials } from './payments.service';
import { NOT_A_TEST_CARD } from './test-cards';

/** Payment test mode only when asked, with only the test cards; a store without card payments is known up front. */
let t: TestContext;
let fx: Fixtures;
let buyer: string;
let manager: string;
let items: StoreItem[];
const S = FIXTURE_STORES;
const PROD_ENV = {
  NODE_ENV: 'production',
  JWT_SECRET: 'readiness-test-7d3f1a9c5e2b8d4f6a0c1e3b5d7f9a2c',
  DATABASE_URL: 'postgres://db/portal',
  PAYMENT_CREDENTIALS_KEY: 'ab'.repeat(32),
};

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  buyer = tokenFor(t, fx.users.buyer);
  manager = tokenFor(t, fx.users.manager);
  items = await storeItems(t.db, S.central, 2);
});
afterAll(async () => {
  await t.close();
});

/** Test mode on (as the harness starts), or off with a Monetra endpoint (no charge is made in these tests). */
function testMode(on: boolean, monetraUrl: string | null = 'http://127.0.0.1:9/monetra') {
  Object.assign(t.config, { paymentTestMode: on, monetraUrl: on || monetraUrl === null ? undefined : monetraUrl });
}
afterEach(() => testMode(true));

const readiness = (storeId: number, token = manager) =>
  request(t.app).get(`/api/v1/stores/${storeId}/payment-readiness`).set('Authorization', `Bearer ${token}`);

describe('payment test mode is on only when asked', () => {
  it('when PAYMENT_TEST_MODE is unset, then test mode is off in development, test and production', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).paymentTestMode).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).paymentTestMode).toBe(false);
    expect(loadConfig(PROD_ENV).paymentTestMode).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development', PAYMENT_TEST_MODE: 'true' }).paymentTestMode).toBe(true);
  });

  it('when a production start asks for test mode or demo data, then the config refuses with one line', () => {
    expect(() => loadConfig({ ...PROD_ENV, PAYMENT_TEST_MODE: 'true' })).toThrow(
      /^Refusing to start in production with PAYMENT_TEST_MODE=true .*$/,
    );
    expect(() => loadConfig({ ...PROD_ENV, SEED_DEMO: 'true' })).toThrow(/^Refusing to start in production with SEED_DEMO=true/);
    expect(loadConfig({ ...PROD_ENV, PAYMENT_TEST_MODE: 'false' }).paymentTestMode).toBe(false);
  });

  it('when a real-looking card is paid in test mode, then it is declined as an invalid card and the order is not paid', async () => {
    const cartId = await fillCart(t.db, {
      userId: fx.users.buyer.id,
      outletId: fx.outlets.dsm,
      storeId: S.central,
      lines: [{ item: items[0], quantity: 1 }],
    });
    const session = await startCheckout(t.app, buyer, cartId);
    const res = await postOrder(t.app, buyer, {
      checkoutToken: session.body.token,
      paymentMethod: 'card',
      card: { ...GOOD_CARD, cardNumber: '5105 1051 0510 5100' },
    });
    expect(res.status).toBe(402);
    expect(problem(res)).toMatchObject({ code: 'payment_declined', detail: NOT_A_TEST_CARD.verbiage });
    // The order of this test's session: the newest of the cart (other tests check the same cart out).
    const ownSession = t.db('checkout_sessions').where({ cart_id: cartId }).orderBy('created_at', 'desc').limit(1).select('id');
    const order = await t.db('orders').where('checkout_session_id', ownSession).first('payment_status');
    expect(order?.payment_status ?? 'none').not.toBe('paid');
    expect(await t.db('payments').where({ result_code: 'AUTH', card_last4: '5100' }).first()).toBeUndefined();
  });
});

describe('GET /stores/{storeId}/payment-readiness', () => {
  it('when test mode is on, then the store takes cards (the test gateway counts as set up)', async () => {
    const res = await readiness(S.central);
    expect(res.status).toBe(200);
    expect(paymentReadinessSchema.parse(res.body)).toEqual({
      storeId: S.central,
      cardPaymentsAvailable: true,
      state: 'test_mode',
      testMode: true,
      environment: 'test',
    });
  });

  it('when test mode is off and no gateway is configured, then cards are not available (gateway_not_configured)', async () => {
    testMode(false, null);
    expect((await readiness(S.central)).body).toMatchObject({
      cardPaymentsAvailable: false,
      state: 'gateway_not_configured',
      testMode: false,
    });
  });

  it('when the store has no credentials, then no_credentials; with readable credentials, ready; with unreadable ones, credentials_unreadable', async () => {
    testMode(false);
    expect((await readiness(S.cyclone)).body).toMatchObject({ cardPaymentsAvailable: false, state: 'no_credentials' });
    await saveMonetraCredentials(t.db, t.config, {
      storeId: S.cyclone,
      environment: 'test',
      username: 'merchant-4129',
      password: 's3cret',
    });
    expect((await readiness(S.cyclone)).body).toMatchObject({ cardPaymentsAvailable: true, state: 'ready' });
    await t
      .db('payment_credentials')
      .where({ store_id: S.cyclone })
      .update({ encrypted_payload: encryptPayload('cd'.repeat(32), '{"username":"u","password":"p"}') });
    expect((await readiness(S.cyclone)).body).toMatchObject({ cardPaymentsAvailable: false, state: 'credentials_unreadable' });
  });

  it("when a buyer asks about a store of their outlets, then it answers; another outlet's store answers 404", async () => {
    expect((await readiness(S.central, buyer)).status).toBe(200);
    const other = tokenFor(t, fx.users.otherBuyer);
    const res = await readiness(S.central, other);
    expect(res.status).toBe(404);
    expect(problem(res).code).toBe('not_found');
    expect((await readiness(999999)).status).toBe(404);
  });

  it('when the caller has no fitting permission or is not signed in, then 403 and 401', async () => {
    expect((await readiness(S.central, tokenFor(t, fx.users.noRoles))).status).toBe(403);
    expect((await request(t.app).get(`/api/v1/stores/${S.central}/payment-readiness`)).status).toBe(401);
    expect((await request(t.app).get('/api/v1/stores/abc/payment-readiness').set('Authorization', `Bearer ${manager}`)).status).toBe(400);
  });
});

describe('checkout at a store without card payments is refused up front', () => {
  it('when a Pickup cart is checked out, then the session says cards are not available (the page offers Pay In-Store only)', async () => {
    testMode(false);
    const cartId = await fillCart(t.db, {
      userId: fx.users.buyer.id,
      outletId: fx.outlets.dsm,
      storeId: S.central,
      lines: [{ item: items[0], quantity: 1 }],
    });
    const res = await startCheckout(t.app, buyer, cartId);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ fulfillmentType: 'Pickup', cardPaymentsAvailable: false, testMode: false });
    const again = await request(t.app).get(`/api/v1/checkout-sessions/${res.body.token}`).set('Authorization', `Bearer ${buyer}`);
    expect(again.body.cardPaymentsAvailable).toBe(false);
  });

  it('when a Delivery cart (card only) is checked out, then 422 payment_setup with the SETUP text and no session is kept', async () => {
    testMode(false);
    const cartId = await fillCart(t.db, {
      userId: fx.users.buyer.id,
      outletId: fx.outlets.dsm,
      storeId: S.central,
      lines: [{ item: items[1], quantity: 2 }],
      fulfillment: 'Delivery',
    });
    const before = Number((await t.db('checkout_sessions').where({ cart_id: cartId }).count<{ n: number }[]>('* as n'))[0].n);
    const res = await startCheckout(t.app, buyer, cartId);
    expect(res.status).toBe(422);
    expect(problem(res)).toMatchObject({ code: 'payment_setup', detail: PAYMENT_ERROR_MESSAGES.setupDelivery });
    expect(Number((await t.db('checkout_sessions').where({ cart_id: cartId }).count<{ n: number }[]>('* as n'))[0].n)).toBe(before);
  });

  it('when test mode is on, then the same Delivery cart checks out with cards available', async () => {
    const cartId = await fillCart(t.db, {
      userId: fx.users.buyer.id,
      outletId: fx.outlets.dsm,
      storeId: S.central,
      lines: [{ item: items[1], quantity: 2 }],
      fulfillment: 'Delivery',
    });
    const res = await startCheckout(t.app, buyer, cartId);
    expect(res.status).toBe(201);
    expect(res.body.cardPaymentsAvailable).toBe(true);
  });
});
