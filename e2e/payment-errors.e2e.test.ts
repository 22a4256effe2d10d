import request from 'supertest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PAYMENT_ERROR_MESSAGES } from '@portal/contracts';
import { tokenFor } from '../apps/api/src/test/harness';
import { FIXTURE_STORES } from '../apps/api/src/test/fixtures';
import { fillCart, storeItems } from '../apps/api/src/modules/orders/test-support';
import { DESKTOP, MOBILE, afterResize, launchBrowser, signIn, snap, startPortal, type Portal } from './harness';

/**
 * The payment screen's error states (issue 16 §4, §5; spec 002 §8) in Chromium: a store without card
 * payments (SETUP, said on the first load; Store Orders warns the manager), then — with test mode on —
 * the answers a payment can meet: 403 with a raw database text, no network, a gateway timeout (504), and a
 * failed in-store order. Screenshots at 1280 and 390 px (screenshots/payment-*.png).
 */
let portal: Portal;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  portal = await startPortal({ PAYMENT_TEST_MODE: 'false' });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: DESKTOP });
  page = await context.newPage();
  await signIn(page, portal.baseUrl, 'buyer@example.com');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await portal?.close();
});

async function snapBoth(name: string) {
  await page.setViewportSize(DESKTOP);
  await snap(page, name);
  await page.setViewportSize(MOBILE);
  await afterResize(page);
  await snap(page, name);
  await page.setViewportSize(DESKTOP);
}

/** A Pickup cart of the buyer at store 2190 with a checkout session (made through the API); opens the payment page. */
async function openPayment() {
  const { t, fixtures } = portal;
  const items = await storeItems(t.db, FIXTURE_STORES.central, 2);
  const cartId = await fillCart(t.db, {
    userId: fixtures.users.buyer.id,
    outletId: fixtures.outlets.dsm,
    storeId: FIXTURE_STORES.central,
    lines: [
      { item: items[0], quantity: 2 },
      { item: items[1], quantity: 1 },
    ],
  });
  const res = await request(portal.t.app)
    .post('/api/v1/checkout-sessions')
    .set('Authorization', `Bearer ${tokenFor(t, fixtures.users.buyer)}`)
    .send({ cartId });
  expect(res.status).toBe(201);
  await page.goto(`${portal.baseUrl}/payment?source=cart&token=${res.body.token}&fulfillmentType=Pickup`);
  await page.getByRole('heading', { name: 'Payment', exact: true }).waitFor();
}

async function payByCard() {
  await page.getByLabel('Card holder name').fill('Blake Buyer');
  await page.getByLabel('Card number').fill('4111111111111111');
  await page.getByLabel('Expiration (MM/YY)').fill('12/39');
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('ZIP code').fill('50309');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

const problemBody = (status: number, code: string, detail: string) => ({
  status,
  contentType: 'application/problem+json',
  body: JSON.stringify({ type: `https://portal.local/problems/${code}`, title: 'Error', status, code, detail, requestId: 'e2e' }),
});

describe('payment error states (issue 16 §4, §5)', () => {
  it('when the store cannot take cards, then the first load says so (SETUP) and offers Pay In-Store only', async () => {
    await openPayment();
    await page.getByTestId('payment-setup').waitFor();
    expect(await page.getByTestId('payment-setup').textContent()).toContain(PAYMENT_ERROR_MESSAGES.setup);
    expect(await page.getByRole('radio', { name: /Credit card/ }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await page.getByRole('button', { name: /Place Order/ }).waitFor();
    await snapBoth('payment-setup');
  }, 60_000);

  it('when the store manager opens Store Orders, then the warning shows', async () => {
    const manager = await browser.newContext({ viewport: DESKTOP });
    const mp = await manager.newPage();
    await signIn(mp, portal.baseUrl, 'manager@example.com');
    await mp.goto(`${portal.baseUrl}/orders`);
    await mp.getByTestId('store-payment-warning').waitFor();
    expect(await mp.getByTestId('store-payment-warning').textContent()).toContain(PAYMENT_ERROR_MESSAGES.setupWarning);
    await snap(mp, 'payment-store-orders-warning');
    await mp.setViewportSize(MOBILE);
    await afterResize(mp);
    await snap(mp, 'payment-store-orders-warning');
    await manager.close();
  }, 60_000);

  it.each([
    [
      '403 with a raw database text',
      'payment-403',
      problemBody(403, 'forbidden', 'permission denied for table orders'),
      PAYMENT_ERROR_MESSAGES.temporarilyUnavailable,
    ],
    [
      'a gateway timeout (504)',
      'payment-timeout',
      { status: 504, contentType: 'text/html', body: '<html>504 Gateway Time-out</html>' },
      PAYMENT_ERROR_MESSAGES.timeout,
    ],
    ['no network', 'payment-network', 'abort', PAYMENT_ERROR_MESSAGES.network],
  ] as const)(
    'when paying by card meets %s, then the page says the mapped text, never the raw one',
    async (_what, name, answer, text) => {
      portal.t.config.paymentTestMode = true;
      await openPayment();
      await page.route('**/api/v1/orders', (route) => (answer === 'abort' ? route.abort('internetdisconnected') : route.fulfill(answer)));
      try {
        await payByCard();
        const alert = page.getByRole('alert').filter({ hasText: text });
        await alert.waitFor({ timeout: 10_000 });
        expect(await page.content()).not.toContain('permission denied for table');
        await snapBoth(name);
      } finally {
        await page.unroute('**/api/v1/orders');
        portal.t.config.paymentTestMode = false;
      }
    },
    60_000,
  );

  it('when an in-store order fails on the server, then it says Failed to create order. Please try again.', async () => {
    await openPayment();
    await page.route('**/api/v1/orders', (route) =>
      route.fulfill(problemBody(500, 'internal_error', 'Something went wrong. Quote request id e2e to support.')),
    );
    try {
      await page.getByTestId('payment-setup').waitFor();
      const answered = page.waitForResponse('**/api/v1/orders');
      await page.getByRole('button', { name: /Place Order/ }).click();
      await answered;
      await page.getByRole('alert').filter({ hasText: 'Failed to create order. Please try again.' }).waitFor({ timeout: 15_000 });
      await snapBoth('payment-instore-failed');
    } finally {
      await page.unroute('**/api/v1/orders');
    }
  }, 60_000);
});
