import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PAYMENT_ERROR_MESSAGES } from '@portal/contracts';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { GOOD_CARD, fillCart, postOrder, problem, startCheckout, storeItems } from '../orders/test-support';
import { DEFAULT_DEK_NAME, decryptPayload, encryptPayload } from './credentials';
import { createMonetraGateway, mapMonetraLookup, mapMonetraResult } from './monetra-gateway';
import { cardBrand, cardLast4 } from './payment-gateway';
import { loadMonetraCredentials, saveMonetraCredentials } from './payments.service';
import { createTestGateway } from './test-gateway';
import { startMonetraFake } from '../../test/monetra-fake';

const KEY = 'ab'.repeat(32);
const card = { cardName: 'Pat Buyer', cardNumber: '4111111111111111', expiration: '12/39', securityCode: '123', zipCode: '50309' };

/** The shared local Monetra fake (test/monetra-fake.ts). */
const fakeMonetra = () => startMonetraFake();

describe('credentials encryption (AES-256-GCM)', () => {
  it('when a payload is encrypted, then it is base64 of iv|tag|ciphertext, differs each time, and decrypts back', () => {
    const a = encryptPayload(KEY, '{"username":"u","password":"p"}');
    const b = encryptPayload(KEY, '{"username":"u","password":"p"}');
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64').length).toBe(12 + 16 + 31);
    expect(a).not.toContain('password');
    expect(decryptPayload(KEY, a)).toBe('{"username":"u","password":"p"}');
  });

  it('when the payload is tampered with or the key is wrong, then decryption fails with Decryption failed', () => {
    const p = Buffer.from(encryptPayload(KEY, 'secret'), 'base64');
    p[p.length - 1] ^= 1;
    expect(() => decryptPayload(KEY, p.toString('base64'))).toThrow('Decryption failed');
    expect(() => decryptPayload('cd'.repeat(32), encryptPayload(KEY, 'secret'))).toThrow('Decryption failed');
    expect(() => decryptPayload(KEY, 'short')).toThrow('Decryption failed');
  });
});

describe('test gateway (ledger in test_gateway_charges)', () => {
  let t: TestContext;
  let gw: ReturnType<typeof createTestGateway>;
  beforeAll(async () => {
    t = await createTestContext();
    gw = createTestGateway(t.db);
  });
  afterAll(async () => {
    await t.close();
  });
  it.each([
    ['4111 1111 1111 1111', 'approved', 'AUTH'],
    ['4000 0000 0000 0002', 'declined', 'DENY'],
    ['4000 0000 0000 0119', 'error', 'GENERROR'],
    ['5555555555554444', 'approved', 'AUTH'],
  ])('when %s is charged, then it is %s (%s) and the ledger holds it under the order number', async (number, status, code) => {
    const orderNumber = `ORD-T-${number.replace(/\s/g, '')}`;
    const r = await gw.charge({ amount: '10.00', orderNumber, storeId: 2190, card: { ...card, cardNumber: number } });
    expect(r).toMatchObject({ status, code });
    expect(await t.db('test_gateway_charges').where({ merchant_reference: orderNumber })).toEqual([
      expect.objectContaining({ status, result_code: code, amount: '10.00', card_last4: number.slice(-4) }),
    ]);
    expect(await gw.lookup({ orderNumber, storeId: 2190 })).toEqual({ status, code, verbiage: r.verbiage, reference: r.reference });
  });
  it('when a reference is charged twice, then the second answer is the first outcome and the ledger keeps one row', async () => {
    const first = await gw.charge({ amount: '5.00', orderNumber: 'ORD-TWICE', storeId: 2190, card });
    const second = await gw.charge({
      amount: '5.00',
      orderNumber: 'ORD-TWICE',
      storeId: 2190,
      card: { ...card, cardNumber: '4000000000000002' },
    });
    expect(second).toEqual(first);
    expect(await t.db('test_gateway_charges').where({ merchant_reference: 'ORD-TWICE' })).toHaveLength(1);
  });
  it('when the answer of an approved charge is lost, then the charge answers TIMEOUT but a lookup finds it approved (a new gateway object too: restart)', async () => {
    const r = await gw.charge({
      amount: '7.00',
      orderNumber: 'ORD-LOST',
      storeId: 2190,
      card: { ...card, cardNumber: '4000000000000408' },
    });
    expect(r).toMatchObject({ status: 'error', code: 'TIMEOUT' });
    expect(await createTestGateway(t.db).lookup({ orderNumber: 'ORD-LOST', storeId: 2190 })).toMatchObject({
      status: 'approved',
      code: 'AUTH',
    });
  });
  it('when nothing was charged under a reference, then lookup answers not_found', async () => {
    expect(await gw.lookup({ orderNumber: 'ORD-NEVER', storeId: 2190 })).toMatchObject({ status: 'not_found' });
  });
});

describe('card facts', () => {
  it('when brand and last 4 are derived, then only those leave the card', () => {
    expect([
      cardBrand('4111111111111111'),
      cardBrand('5555555555554444'),
      cardBrand('378282246310005'),
      cardBrand('6011111111111117'),
      cardBrand('9999999999999'),
    ]).toEqual(['Visa', 'Mastercard', 'American Express', 'Discover', 'Card']);
    expect(cardLast4('4111 1111 1111 1234')).toBe('1234');
  });
});

describe('Monetra adapter against a fake Monetra server', () => {
  // A fresh fake for each test: its ledger, the requests it saw and its ttid counters start over.
  let fake: Awaited<ReturnType<typeof fakeMonetra>>;
  beforeEach(async () => {
    fake = await fakeMonetra();
  });
  afterEach(async () => {
    await fake.close();
  });
  const gateway = (
    url = fake.url,
    creds: { username: string; password: string } | null = { username: 'merchant-2190', password: 's3cret' },
  ) => createMonetraGateway({ url, timeoutMs: 2000, credentialsFor: async () => creds ?? undefined });

  it('when the card approves, then it is approved with the reference, and the request carried the credentials, 2-decimal amount, currency 840 and the order number', async () => {
    const r = await gateway().charge({ amount: '25.90', orderNumber: 'ORD-123-1', storeId: 2190, card });
    expect(r).toEqual({ status: 'approved', code: 'AUTH', verbiage: 'APPROVED', reference: '8675309' });
    const last = fake.seen.at(-1)!;
    expect(last.auth).toBe(`Basic ${Buffer.from('merchant-2190:s3cret').toString('base64')}`);
    expect(last.body).toMatchObject({
      action: 'sale',
      amount: '25.90',
      currency: '840',
      ordernum: 'ORD-123-1',
      custref: 'ORD-123-1',
      expdate: '1239',
      zip: '50309',
      cv: '123',
      account: '4111111111111111',
      nsf: 'no',
      tokenize: 'no',
    });
  });

  it("when the card is declined, then it is declined with the gateway's verbiage", async () => {
    const r = await gateway().charge({
      amount: '1.00',
      orderNumber: 'ORD-2',
      storeId: 2190,
      card: { ...card, cardNumber: '4000000000000002' },
    });
    expect(r).toEqual({ status: 'declined', code: 'DENY', verbiage: 'DECLINED: insufficient funds', reference: '9001' });
  });

  it.each([
    ['a gateway error code', '4000000000000119', 'GENERROR'],
    ['an HTTP 500', '4000000000000500', 'HTTP_500'],
    ['a body that is not JSON', '4000000000000600', 'HTTP_200'],
  ])('when Monetra answers %s, then it is an error (%s)', async (_what, number, code) => {
    const r = await gateway().charge({ amount: '1.00', orderNumber: 'ORD-3', storeId: 2190, card: { ...card, cardNumber: number } });
    expect(r).toMatchObject({ status: 'error', code });
  });

  it('when Monetra cannot be reached, then it is an error NETWORK', async () => {
    const closed = await new Promise<string>((ok) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => ok(`http://127.0.0.1:${p}/`));
      });
    });
    expect(await gateway(closed).charge({ amount: '1.00', orderNumber: 'ORD-4', storeId: 2190, card })).toMatchObject({
      status: 'error',
      code: 'NETWORK',
    });
  });

  it('when the store has no credentials or no endpoint is configured, then it is an error SETUP without calling out', async () => {
    const before = fake.seen.length;
    expect(await gateway(fake.url, null).charge({ amount: '1.00', orderNumber: 'ORD-5', storeId: 1, card })).toMatchObject({
      status: 'error',
      code: 'SETUP',
    });
    expect(
      await createMonetraGateway({ url: undefined, timeoutMs: 1000, credentialsFor: async () => undefined }).charge({
        amount: '1.00',
        orderNumber: 'ORD-6',
        storeId: 1,
        card,
      }),
    ).toMatchObject({ status: 'error', code: 'SETUP' });
    expect(fake.seen.length).toBe(before);
  });

  it('when answers are mapped, then IS_SUCCESS and code decide approved, declined or error', () => {
    expect(mapMonetraResult({ IS_SUCCESS: true }).status).toBe('approved');
    expect(mapMonetraResult({ code: 'AUTH', IS_SUCCESS: false }).status).toBe('error');
    expect(mapMonetraResult({ code: 'CALL', verbiage: 'Call issuer' })).toMatchObject({ status: 'declined', verbiage: 'Call issuer' });
    expect(mapMonetraResult({ code: 'RETRY' }).status).toBe('error');
    expect(mapMonetraResult({}).status).toBe('error');
  });

  it('when a charge is looked up by its order number, then Monetra is asked with admin gut and the approved sale is found with its ttid', async () => {
    const sale = await gateway().charge({ amount: '12.34', orderNumber: 'ORD-LOOK-1', storeId: 2190, card });
    const found = await gateway().lookup({ orderNumber: 'ORD-LOOK-1', storeId: 2190 });
    expect(found).toEqual({ status: 'approved', code: 'AUTH', verbiage: 'APPROVED', reference: sale.reference });
    expect(fake.seen.at(-1)!.body).toMatchObject({ action: 'admin', admin: 'gut', ordernum: 'ORD-LOOK-1' });
    await gateway().charge({ amount: '1.00', orderNumber: 'ORD-LOOK-2', storeId: 2190, card: { ...card, cardNumber: '4000000000000002' } });
    expect(await gateway().lookup({ orderNumber: 'ORD-LOOK-2', storeId: 2190 })).toMatchObject({ status: 'declined', code: 'DENY' });
    expect(await gateway().lookup({ orderNumber: 'ORD-NEVER', storeId: 2190 })).toMatchObject({ status: 'not_found' });
  });

  it('when the lookup cannot be made, then it is unavailable (never not_found)', async () => {
    const closed = await new Promise<string>((ok) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => ok(`http://127.0.0.1:${p}/`));
      });
    });
    expect(await gateway(closed).lookup({ orderNumber: 'ORD-X', storeId: 2190 })).toMatchObject({ status: 'unavailable', code: 'NETWORK' });
    expect(await gateway(fake.url, null).lookup({ orderNumber: 'ORD-X', storeId: 2190 })).toMatchObject({
      status: 'unavailable',
      code: 'SETUP',
    });
    expect(mapMonetraLookup({ code: 'DENY' }, 'ORD-X').status).toBe('unavailable');
  });
});

describe('Monetra end to end: stored credentials and POST /orders with test mode off', () => {
  let t: TestContext;
  let fx: Fixtures;
  let fake: Awaited<ReturnType<typeof fakeMonetra>>;
  beforeAll(async () => {
    fake = await fakeMonetra();
    t = await createTestContext({ env: { PAYMENT_TEST_MODE: 'false', MONETRA_URL: fake.url, PAYMENT_CREDENTIALS_KEY: KEY } });
    fx = await seedFixtures(t.db);
  });
  afterAll(async () => {
    await t.close();
    await new Promise((ok) => fake.server.close(ok));
  });

  it('when credentials are saved, then the row holds only ciphertext with the DEK name, and they load back decrypted', async () => {
    // The store starts without credentials (another test may have saved them first).
    await t.db('payment_credentials').where({ store_id: FIXTURE_STORES.central }).del();
    const saved = await saveMonetraCredentials(t.db, t.config, {
      storeId: FIXTURE_STORES.central,
      environment: 'test',
      username: 'merchant-2190',
      password: 's3cret',
    });
    expect(saved.created).toBe(true);
    const row = await t.db('payment_credentials').where({ id: saved.id }).first();
    expect(row).toMatchObject({
      app_code: 'BCC',
      environment: 'test',
      store_id: 2190,
      credential_type: 'Monetra',
      dek_secret_name: DEFAULT_DEK_NAME,
    });
    expect(row!.encrypted_payload).not.toContain('s3cret');
    expect(await loadMonetraCredentials(t.db, t.config, FIXTURE_STORES.central)).toEqual({ username: 'merchant-2190', password: 's3cret' });
    expect(await loadMonetraCredentials(t.db, t.config, FIXTURE_STORES.cyclone)).toBeUndefined();
    const again = await saveMonetraCredentials(t.db, t.config, {
      storeId: FIXTURE_STORES.central,
      environment: 'test',
      username: 'merchant-2190',
      password: 's3cret',
      dekName: 'dek-v2',
    });
    expect(again).toEqual({ id: saved.id, created: false });
  });

  it('when the buyer pays by card, then Monetra is charged with the order total and number and the order is paid with its reference', async () => {
    // The store's Monetra credentials (saved here too, whichever test runs first).
    await saveMonetraCredentials(t.db, t.config, {
      storeId: FIXTURE_STORES.central,
      environment: 'test',
      username: 'merchant-2190',
      password: 's3cret',
    });
    const [item] = await storeItems(t.db, FIXTURE_STORES.central, 1);
    const buyer = tokenFor(t, fx.users.buyer);
    const cartId = await fillCart(t.db, {
      userId: fx.users.buyer.id,
      outletId: fx.outlets.dsm,
      storeId: FIXTURE_STORES.central,
      lines: [{ item, quantity: 2 }],
    });
    const session = await startCheckout(t.app, buyer, cartId);
    expect(session.body.testMode).toBe(false);
    const declined = await postOrder(t.app, buyer, {
      checkoutToken: session.body.token,
      paymentMethod: 'card',
      card: { ...GOOD_CARD, cardNumber: '4000 0000 0000 0002' },
    });
    expect(declined.status).toBe(402);
    expect(problem(declined).detail).toBe('DECLINED: insufficient funds');
    const res = await postOrder(t.app, buyer, { checkoutToken: session.body.token, paymentMethod: 'card', card: GOOD_CARD });
    expect(res.status).toBe(201);
    expect(fake.seen.at(-1)!.body).toMatchObject({ amount: res.body.total, ordernum: res.body.orderNumber, currency: '840' });
    const pay = await t.db('payments').where({ order_id: res.body.id }).first();
    expect(pay).toMatchObject({ gateway: 'monetra', status: 'approved', gateway_reference: '8675309', card_last4: '1111' });
  });

  it('when the store has no credentials, then the card payment is refused up front: 422 payment_setup, no order, no charge', async () => {
    const [item] = await storeItems(t.db, FIXTURE_STORES.cyclone, 1);
    const buyer = tokenFor(t, fx.users.buyer);
    const cartId = await fillCart(t.db, {
      userId: fx.users.buyer.id,
      outletId: fx.outlets.ams,
      storeId: FIXTURE_STORES.cyclone,
      lines: [{ item, quantity: 1 }],
    });
    const session = await startCheckout(t.app, buyer, cartId);
    expect(session.body.cardPaymentsAvailable).toBe(false);
    const seenBefore = fake.seen.length;
    const res = await postOrder(t.app, buyer, { checkoutToken: session.body.token, paymentMethod: 'card', card: GOOD_CARD });
    expect(res.status).toBe(422);
    expect(problem(res)).toMatchObject({ code: 'payment_setup', detail: PAYMENT_ERROR_MESSAGES.setup });
    expect(await t.db('orders').where({ store_id: FIXTURE_STORES.cyclone, user_id: fx.users.buyer.id }).first()).toBeUndefined();
    expect(fake.seen.length).toBe(seenBefore);
    const inStore = await postOrder(t.app, buyer, { checkoutToken: session.body.token, paymentMethod: 'in_store' });
    expect(inStore.status).toBe(201);
  });
});
