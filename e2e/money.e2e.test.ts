import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { saveMonetraCredentials } from '../apps/api/src/modules/payments/payments.service';
import { FAKE_MONETRA_USER, startMonetraFake, type MonetraFake } from '../apps/api/src/test/monetra-fake';
import { DESKTOP, MOBILE, afterResize, launchBrowser, signIn, snap, startPortal, type Portal } from './harness';

/**
 * Journey of issue 8 §1 and §4 in Chromium, test mode off against the local Monetra fake: a card charge
 * whose answer is lost (the fake answers after the timeout and its lookup is down) leaves the order
 * pending. The buyer sees "Payment being confirmed" in My Orders; the store manager sees it under
 * "Needs attention" in Store Orders with the order number as reference, presses "Check again" once the
 * gateway answers lookups, and the order is settled paid (it leaves the section and shows under New).
 * Screenshots at 1280 and 390 px (screenshots/money-*.png).
 */
let portal: Portal;
let browser: Browser;
let fake: MonetraFake;
let orderNumber = '';

beforeAll(async () => {
  fake = await startMonetraFake();
  portal = await startPortal({
    PAYMENT_TEST_MODE: 'false',
    MONETRA_URL: fake.url,
    PAYMENT_CREDENTIALS_KEY: 'ab'.repeat(32),
    MONETRA_TIMEOUT_MS: '1000',
  });
  browser = await launchBrowser();
  const { t, fixtures: fx } = portal;
  await saveMonetraCredentials(t.db, t.config, { storeId: 2190, environment: 'test', ...FAKE_MONETRA_USER });
  for (const u of [fx.users.buyer, fx.users.manager]) {
    await t.db('user_profiles').where({ user_id: u.id }).update({ last_selected_outlet_id: fx.outlets.dsm, last_selected_store_id: 2190 });
  }
  // The buyer's card order: the sale reaches the gateway, its answer is lost and the lookup is down.
  const [item] = await t
    .db('inventory as inv')
    .join('items as i', 'i.id', 'inv.item_id')
    .where({ 'inv.store_id': 2190, 'i.active': true })
    .orderBy('i.code')
    .limit(1)
    .select('i.id', 'i.code', 'i.retail');
  const [cart] = await t.db('carts').insert({ user_id: fx.users.buyer.id, outlet_id: fx.outlets.dsm, store_id: 2190 }).returning('id');
  await t.db('cart_items').insert({ cart_id: cart.id, item_id: item.id, item_code: item.code, quantity: 2, unit_price: item.retail });
  const login = await request(t.app).post('/api/v1/auth/login').send({ email: fx.users.buyer.email, password: 'Fixture#Pass1' });
  const auth = `Bearer ${login.body.access_token}`;
  const session = await request(t.app).post('/api/v1/checkout-sessions').set('Authorization', auth).send({ cartId: cart.id });
  fake.delayMs = 1500;
  fake.lookupDown = true;
  const res = await request(t.app)
    .post('/api/v1/orders')
    .set('Authorization', auth)
    .set('Idempotency-Key', 'e2e-money-1')
    .send({
      checkoutToken: session.body.token,
      paymentMethod: 'card',
      card: { cardName: 'Blake Buyer', cardNumber: '4111111111111111', expiration: '12/39', securityCode: '123', zipCode: '50309' },
    });
  expect(res.status).toBe(409);
  fake.delayMs = 0;
  orderNumber = (await t.db('orders').where({ user_id: fx.users.buyer.id, payment_status: 'pending' }).first('order_number'))!.order_number;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await portal?.close();
  await fake?.close();
});

async function snapBoth(page: Page, name: string) {
  await page.setViewportSize(DESKTOP);
  await snap(page, name);
  await page.setViewportSize(MOBILE);
  await afterResize(page);
  await snap(page, name);
  await page.setViewportSize(DESKTOP);
}

describe('money journey (issue 8)', () => {
  it('when a card payment is unconfirmed, then the buyer sees "Payment being confirmed" and the manager settles it with Check again', async () => {
    const { baseUrl } = portal;
    const buyer = await browser.newPage({ viewport: DESKTOP });
    await signIn(buyer, baseUrl, 'buyer@example.com');
    await buyer.goto(`${baseUrl}/order-history`);
    await buyer.getByRole('heading', { name: 'My Orders' }).waitFor();
    await buyer.getByText(orderNumber).first().waitFor();
    await buyer.getByText('Payment being confirmed').first().waitFor();
    await snapBoth(buyer, 'money-my-orders-pending');
    await buyer.close();

    const m = await browser.newPage({ viewport: DESKTOP });
    await signIn(m, baseUrl, 'manager@example.com');
    await m.goto(`${baseUrl}/orders`);
    const section = m.getByRole('region', { name: /Needs attention/ });
    await section.waitFor();
    await section.getByText('Payment unconfirmed').waitFor();
    expect(await section.getByText(orderNumber).count()).toBe(2);
    await section.getByText('ending 1111').waitFor();
    await snapBoth(m, 'money-needs-attention');

    // The gateway cannot be asked yet: the order stays; once it can, Check again settles it paid.
    await section.getByRole('button', { name: `Check again order ${orderNumber}` }).click();
    await m.getByText('The gateway could not confirm the charge yet', { exact: false }).first().waitFor();
    fake.lookupDown = false;
    await section.getByRole('button', { name: `Check again order ${orderNumber}` }).click();
    await m.getByText('The gateway approved the charge', { exact: false }).first().waitFor();
    await section.waitFor({ state: 'detached' });
    await m.getByRole('tabpanel').getByText(orderNumber).waitFor();
    expect(await portal.t.db('orders').where({ order_number: orderNumber }).first('payment_status')).toEqual({ payment_status: 'paid' });
    expect(fake.seen.filter((s) => s.body.action === 'sale' && s.body.ordernum === orderNumber)).toHaveLength(1);
    await snapBoth(m, 'money-settled');
    await m.close();
  }, 90_000);
});
