import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { GOOD_CARD, fillCart, postOrder, problem, startCheckout, storeItems } from '../orders/test-support';
import { DEFAULT_DEK_NAME, decryptPayload, encryptPayload } from './credentials';
import { createMonetraGateway, mapMonetraResult } from './monetra-gateway';
import { cardBrand, cardLast4 } from './payment-gateway';
import { loadMonetraCredentials, saveMonetraCredentials } from './payments.service';
import { createTestGateway } from './test-gateway';

const KEY = 'ab'.repeat(32);
const card = { cardName: 'Pat Buyer', cardNumber: '4111111111111111', expiration: '12/39', securityCode: '123', zipCode: '50309' };

/** A fake Monetra: answers by card number; records each request (auth header and JSON body). */
interface Seen { auth: string | undefined; body: Record<string, string> }
function fakeMonetra(): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as Record<string, string>;
    seen.push({ auth: req.headers.authorization, body });
    const reply = (status: number, json: object | string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof json === 'string' ? json : JSON.stringify(json));
    };
    if (req.headers.authorization !== `Basic ${Buffer.from('merchant-2190:s3cret').toString('base64')}`) return reply(401, { IS_SUCCESS: false, code: 'SETUP', verbiage: 'Bad credentials' });
    switch (body.account) {
      case '4000000000000002': return reply(200, { IS_SUCCESS: false, code: 'DENY', verbiage: 'DECLINED: insufficient funds', ttid: '9001' });
      case '4000000000000119': return reply(200, { IS_SUCCESS: false, code: 'GENERROR', verbiage: 'Processor unavailable' });
      case '4000000000000500': return reply(500, 'oops');
      case '4000000000000600': return reply(200, 'not json');
      default: return reply(200, { IS_SUCCESS: true, code: 'AUTH', verbiage: 'APPROVED', ttid: '8675309', JSON_Result: { ttid: '8675309' } });
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2/transaction/purchase`, seen, server })));
}

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

describe('test gateway', () => {
  const gw = createTestGateway();
  it.each([
    ['4111 1111 1111 1111', 'approved', 'AUTH'],
    ['4000 0000 0000 0002', 'declined', 'DENY'],
    ['4000 0000 0000 0119', 'error', 'GENERROR'],
    ['5555555555554444', 'approved', 'AUTH'],
  ])('when %s is charged, then it is %s (%s)', async (number, status, code) => {
    const r = await gw.charge({ amount: '10.00', orderNumber: 'ORD-1', storeId: 2190, card: { ...card, cardNumber: number } });
    expect(r).toMatchObject({ status, code });
  });

  it('when brand and last 4 are derived, then only those leave the card', () => {
    expect([cardBrand('4111111111111111'), cardBrand('5555555555554444'), cardBrand('378282246310005'), cardBrand('6011111111111117'), cardBrand('9999999999999')])
      .toEqual(['Visa', 'Mastercard', 'American Express', 'Discover', 'Card']);
    expect(cardLast4('4111 1111 1111 1234')).toBe('1234');
  });
});

describe('Monetra adapter against a fake Monetra server', () => {
  let fake: Awaited<ReturnType<typeof fakeMonetra>>;
  beforeAll(async () => { fake = await fakeMonetra(); });
  afterAll(async () => { await new Promise((ok) => fake.server.close(ok)); });
  const gateway = (url = fake.url, creds: { username: string; password: string } | null = { username: 'merchant-2190', password: 's3cret' }) =>
    createMonetraGateway({ url, timeoutMs: 2000, credentialsFor: async () => creds ?? undefined });

  it('when the card approves, then it is approved with the reference, and the request carried the credentials, 2-decimal amount, currency 840 and the order number', async () => {
    const r = await gateway().charge({ amount: '25.90', orderNumber: 'ORD-123-1', storeId: 2190, card });
    expect(r).toEqual({ status: 'approved', code: 'AUTH', verbiage: 'APPROVED', reference: '8675309' });
    const last = fake.seen.at(-1)!;
    expect(last.auth).toBe(`Basic ${Buffer.from('merchant-2190:s3cret').toString('base64')}`);
    expect(last.body).toMatchObject({ action: 'sale', amount: '25.90', currency: '840', ordernum: 'ORD-123-1', custref: 'ORD-123-1', expdate: '1239', zip: '50309', cv: '123', account: '4111111111111111', nsf: 'no', tokenize: 'no' });
  });

  it('when the card is declined, then it is declined with the gateway\'s verbiage', async () => {
    const r = await gateway().charge({ amount: '1.00', orderNumber: 'ORD-2', storeId: 2190, card: { ...card, cardNumber: '4000000000000002' } });
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
    const closed = await new Promise<string>((ok) => { const s = createServer(); s.listen(0, '127.0.0.1', () => { const p = (s.address() as AddressInfo).port; s.close(() => ok(`http://127.0.0.1:${p}/`)); }); });
    expect(await gateway(closed).charge({ amount: '1.00', orderNumber: 'ORD-4', storeId: 2190, card })).toMatchObject({ status: 'error', code: 'NETWORK' });
  });

  it('when the store has no credentials or no endpoint is configured, then it is an error SETUP without calling out', async () => {
    const before = fake.seen.length;
    expect(await gateway(fake.url, null).charge({ amount: '1.00', orderNumber: 'ORD-5', storeId: 1, card })).toMatchObject({ status: 'error', code: 'SETUP' });
    expect(await createMonetraGateway({ url: undefined, timeoutMs: 1000, credentialsFor: async () => undefined }).charge({ amount: '1.00', orderNumber: 'ORD-6', storeId: 1, card })).toMatchObject({ status: 'error', code: 'SETUP' });
    expect(fake.seen.length).toBe(before);
  });

  it('when answers are mapped, then IS_SUCCESS and code decide approved, declined or error', () => {
    expect(mapMonetraResult({ IS_SUCCESS: true }).status).toBe('approved');
    expect(mapMonetraResult({ code: 'AUTH', IS_SUCCESS: false }).status).toBe('error');
    expect(mapMonetraResult({ code: 'CALL', verbiage: 'Call issuer' })).toMatchObject({ status: 'declined', verbiage: 'Call issuer' });
    expect(mapMonetraResult({ code: 'RETRY' }).status).toBe('error');
    expect(mapMonetraResult({}).status).toBe('error');
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
    const saved = await saveMonetraCredentials(t.db, t.config, { storeId: FIXTURE_STORES.central, environment: 'test', username: 'merchant-2190', password: 's3cret' });
    expect(saved.created).toBe(true);
    const row = await t.db('payment_credentials').where({ id: saved.id }).first();
    expect(row).toMatchObject({ app_code: 'BCC', environment: 'test', store_id: 2190, credential_type: 'Monetra', dek_secret_name: DEFAULT_DEK_NAME });
    expect(row.encrypted_payload).not.toContain('s3cret');
    expect(await loadMonetraCredentials(t.db, t.config, FIXTURE_STORES.central)).toEqual({ username: 'merchant-2190', password: 's3cret' });
    expect(await loadMonetraCredentials(t.db, t.config, FIXTURE_STORES.cyclone)).toBeUndefined();
    const again = await saveMonetraCredentials(t.db, t.config, { storeId: FIXTURE_STORES.central, environment: 'test', username: 'merchant-2190', password: 's3cret', dekName: 'dek-v2' });
    expect(again).toEqual({ id: saved.id, created: false });
  });

  it('when the buyer pays by card, then Monetra is charged with the order total and number and the order is paid with its reference', async () => {
    const [item] = await storeItems(t.db, FIXTURE_STORES.central, 1);
    const buyer = tokenFor(t, fx.users.buyer);
    const cartId = await fillCart(t.db, { userId: fx.users.buyer.id, outletId: fx.outlets.dsm, storeId: FIXTURE_STORES.central, lines: [{ item, quantity: 2 }] });
    const session = await startCheckout(t.app, buyer, cartId);
    expect(session.body.testMode).toBe(false);
    const declined = await postOrder(t.app, buyer, { checkoutToken: session.body.token, paymentMethod: 'card', card: { ...GOOD_CARD, cardNumber: '4000 0000 0000 0002' } });
    expect(declined.status).toBe(402);
    expect(problem(declined).detail).toBe('DECLINED: insufficient funds');
    const res = await postOrder(t.app, buyer, { checkoutToken: session.body.token, paymentMethod: 'card', card: GOOD_CARD });
    expect(res.status).toBe(201);
    expect(fake.seen.at(-1)!.body).toMatchObject({ amount: res.body.total, ordernum: res.body.orderNumber, currency: '840' });
    const pay = await t.db('payments').where({ order_id: res.body.id }).first();
    expect(pay).toMatchObject({ gateway: 'monetra', status: 'approved', gateway_reference: '8675309', card_last4: '1111' });
  });

  it('when the store has no credentials, then the order answers 502 payment_error and is marked error', async () => {
    const [item] = await storeItems(t.db, FIXTURE_STORES.cyclone, 1);
    const buyer = tokenFor(t, fx.users.buyer);
    const cartId = await fillCart(t.db, { userId: fx.users.buyer.id, outletId: fx.outlets.ams, storeId: FIXTURE_STORES.cyclone, lines: [{ item, quantity: 1 }] });
    const session = await startCheckout(t.app, buyer, cartId);
    const res = await postOrder(t.app, buyer, { checkoutToken: session.body.token, paymentMethod: 'card', card: GOOD_CARD });
    expect(res.status).toBe(502);
    const order = await t.db('orders').where({ store_id: FIXTURE_STORES.cyclone, user_id: fx.users.buyer.id }).orderBy('id', 'desc').first();
    expect(order.payment_status).toBe('error');
    expect(await t.db('payments').where({ order_id: order.id }).first()).toMatchObject({ status: 'error', result_code: 'SETUP' });
  });
});
