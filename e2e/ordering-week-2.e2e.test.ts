import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loginAs } from '../apps/api/src/test/harness';
import { DESKTOP, MOBILE, afterResize, launchBrowser, signIn, type Portal, startPortal } from './harness';

/**
 * Journeys of issue 28 (the licensee's ordering week II) in Chromium, store 2190 (America/Chicago):
 * an order after the cut-off gets the next delivery date (the cut-off is moved in the store editor's Settings
 * tab to a time already past today: the API has no test clock); a delivery below the minimum is refused with
 * its shortfall; a claim opened by the buyer and credited by the store appears on the month's statement; the
 * invoice PDF is rendered to PNG with pdftoppm (poppler-utils). Screenshots at 1280 and 390 px go to
 * $SHOTS_DIR (default screenshots/), named week2-*.
 */
let portal: Portal;
let browser: Browser;
const SHOTS = process.env.SHOTS_DIR ?? 'screenshots';
const STORE = 2190;
const TZ = 'America/Chicago';

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await portal?.close();
});

async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, `week2-${name}-${page.viewportSize()?.width ?? 0}.png`), fullPage: true });
}
/** Screenshots at desktop and mobile width, back at desktop afterwards. */
async function shotBoth(page: Page, name: string) {
  await page.setViewportSize(DESKTOP);
  await afterResize(page);
  await shot(page, name);
  await page.setViewportSize(MOBILE);
  await afterResize(page);
  await shot(page, name);
  await page.setViewportSize(DESKTOP);
  await afterResize(page);
}

/** An API call as `email` (setup the journey does not walk through: settings, ready/complete). */
async function apiAs(email: string, method: 'post' | 'patch', path: string, body?: object) {
  const token = await loginAs(portal.t.app, email);
  const res = await request(portal.t.app)[method](`/api/v1${path}`).set('Authorization', `Bearer ${token}`).send(body);
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown>;
}

/** Store-local calendar date + n days (YYYY-MM-DD). */
function chicagoDate(plusDays: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + plusDays);
  return d.toISOString().slice(0, 10);
}
const fmt = (iso: string, o: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', ...o }).format(new Date(`${iso}T00:00:00Z`));
/** "Thu Dec 3" as the cart writes a delivery day. */
const dayText = (iso: string) => `${fmt(iso, { weekday: 'short' })} ${fmt(iso, { month: 'short' })} ${fmt(iso, { day: 'numeric' })}`;
/** "Dec 3, 2026" as the date field and My Orders write a date. */
const dateText = (iso: string) => `${fmt(iso, { month: 'short' })} ${fmt(iso, { day: 'numeric' })}, ${fmt(iso, { year: 'numeric' })}`;

async function newPage(email: string): Promise<{ ctx: BrowserContext; page: Page; errors: string[] }> {
  const ctx = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, portal.baseUrl, email);
  return { ctx, page, errors };
}

/** On /shop: the buyer's outlet Court Avenue Taproom and its store. */
async function chooseCourtAvenue(page: Page, menuName: string) {
  await page.getByRole('button', { name: menuName, exact: true }).click();
  const outlets = page.getByRole('group', { name: 'OUTLETS' });
  const toggle = outlets.getByRole('menuitem', { name: /OUTLETS/ });
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  const item = outlets.getByRole('menuitem', { name: /Court Avenue Taproom/ });
  if ((await item.getAttribute('aria-current')) !== 'true') await item.click();
  else await page.keyboard.press('Escape');
  await page
    .getByTestId('outlet-display')
    .filter({ hasText: /Court Avenue Taproom/ })
    .waitFor();
  await page.getByRole('heading', { level: 1, name: /CENTRAL CITY LIQUOR/ }).waitFor();
}

/** Searches the shop and adds the first product named `name` once. */
async function addFromShop(page: Page, search: string, name: RegExp) {
  await page.goto(`${portal.baseUrl}/shop`);
  const box = page.getByRole('searchbox', { name: 'Search products' });
  await box.fill(search);
  await box.press('Enter');
  const product = page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name }) })
    .first();
  await product.getByRole('button', { name: /Add to Cart/ }).click();
  await product.getByRole('button', { name: /Add to Cart/ }).waitFor();
}

/** Waits for the download `click` starts and saves it under a temporary folder; returns its path. */
async function download(page: Page, click: () => Promise<void>, name: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = join(mkdtempSync(join(tmpdir(), 'week2-')), name);
  await file.saveAs(path);
  return path;
}

describe('ordering week II journeys (issue 28)', () => {
  it('when the cut-off has passed, then the cart shows the next delivery date and the order is delivered then', async () => {
    const tomorrow = chicagoDate(1);
    const dayAfter = chicagoDate(2);
    await apiAs('admin@example.com', 'patch', `/admin/stores/${STORE}`, {
      orderDays: [0, 1, 2, 3, 4, 5, 6],
      cutoffLocalTime: '23:59',
      deliveryLeadDays: 1,
    });

    const buyer = await newPage('buyer@example.com');
    const b = buyer.page;
    await chooseCourtAvenue(b, 'Blake');
    await addFromShop(b, 'canadian club', /^CANADIAN CLUB WHISKY$/i);
    await addFromShop(b, 'canadian club', /^CANADIAN CLUB WHISKY$/i);
    await b.goto(`${portal.baseUrl}/cart`);
    await b.getByRole('radio', { name: /Delivery/ }).click();
    const cutoff = b.getByTestId('cutoff-text');
    await cutoff.filter({ hasText: `for delivery ${dayText(tomorrow)}` }).waitFor();
    expect(await cutoff.textContent()).toMatch(/^Order by \w{3} 11:59 pm for delivery /);
    // The calendar offers delivery dates only: tomorrow is picked.
    await b.getByRole('button', { name: 'Delivery date' }).click();
    const dayName = new RegExp(`${fmt(tomorrow, { month: 'long' })} ${Number(tomorrow.slice(8))}(st|nd|rd|th)`);
    await b.getByRole('button', { name: dayName }).first().click();
    await b
      .getByRole('button', { name: 'Delivery date' })
      .filter({ hasText: dateText(tomorrow) })
      .waitFor();
    await shotBoth(b, 'cart-schedule');

    // The administrator moves the cut-off to midnight: today's has passed.
    const admin = await newPage('admin@example.com');
    const a = admin.page;
    await a.goto(`${portal.baseUrl}/admin/store/${STORE}`);
    await a.getByRole('tab', { name: 'Settings' }).click();
    const cut = a.getByLabel('Cut-off time');
    await cut.fill('00:00');
    await a.getByRole('button', { name: 'Save ordering settings' }).click();
    await a.getByText('Ordering settings saved').waitFor();
    await shotBoth(a, 'store-settings');
    expect(admin.errors).toEqual([]);
    await admin.ctx.close();

    // Back in the cart: the next delivery date, and the chosen date flagged as past its cut-off.
    await b.reload();
    await cutoff.filter({ hasText: `for delivery ${dayText(dayAfter)}` }).waitFor();
    await b
      .getByRole('alert')
      .filter({ hasText: `The cut-off for ${dayText(tomorrow)} has passed` })
      .waitFor();
    await shotBoth(b, 'cart-after-cutoff');
    await b.getByRole('button', { name: `Deliver ${dayText(dayAfter)}` }).click();
    await b
      .getByRole('button', { name: 'Delivery date' })
      .filter({ hasText: dateText(dayAfter) })
      .waitFor();

    // Checkout and pay: the order is for the next delivery date.
    await b.getByRole('button', { name: 'Checkout', exact: true }).click();
    await b.waitForURL(/\/payment\?/);
    await b
      .getByTestId('checkout-schedule')
      .filter({ hasText: `for delivery ${dayText(dayAfter)}` })
      .waitFor();
    await shotBoth(b, 'checkout-schedule');
    await b.getByLabel('Card holder name').fill('Blake Buyer');
    await b.getByLabel('Card number').pressSequentially('4111111111111111');
    await b.getByLabel('Expiration (MM/YY)').pressSequentially('1230');
    await b.getByLabel('Security code').fill('123');
    await b.getByLabel('ZIP code').fill('50309');
    await b.getByRole('button', { name: /^Pay \$/ }).click();
    await b.waitForURL(/\/order-confirmation\/\d+$/, { timeout: 20_000 });
    await b.goto(`${portal.baseUrl}/order-history`);
    await b
      .getByRole('button', { name: /View Details of order/ })
      .first()
      .click();
    await b.getByRole('dialog').getByText(dateText(dayAfter)).waitFor();
    expect(buyer.errors).toEqual([]);
    await buyer.ctx.close();
    await apiAs('admin@example.com', 'patch', `/admin/stores/${STORE}`, { cutoffLocalTime: '14:00' });
  }, 300_000);

  it('when a delivery is below the store minimum, then the cart and the refused checkout name the shortfall; pickup has none', async () => {
    await apiAs('admin@example.com', 'patch', `/admin/stores/${STORE}`, { deliveryMinimumMl: 9000, cutoffLocalTime: '23:59' });
    const buyer = await newPage('buyer@example.com');
    const b = buyer.page;
    await chooseCourtAvenue(b, 'Blake');
    await addFromShop(b, 'canadian club', /^CANADIAN CLUB WHISKY$/i);
    await b.goto(`${portal.baseUrl}/cart`);
    await b.getByRole('radio', { name: /Delivery/ }).click();
    const note = b.getByTestId('delivery-minimum');
    await note.filter({ hasText: /Add \d+(\.\d)? L more for delivery/ }).waitFor();
    await shotBoth(b, 'cart-minimum');
    await b.getByRole('button', { name: 'Checkout', exact: true }).click();
    await b.getByText('Below the delivery minimum').waitFor();
    await b
      .locator('[data-sonner-toast]')
      .filter({ hasText: /Add \d+(\.\d)? L more for delivery/ })
      .waitFor();
    await shot(b, 'cart-minimum-refused');
    expect(b.url()).toMatch(/\/cart$/);
    await b.getByRole('radio', { name: /Pickup/ }).click();
    await note.waitFor({ state: 'detached' });
    expect(buyer.errors).toEqual([]);
    await buyer.ctx.close();
    await apiAs('admin@example.com', 'patch', `/admin/stores/${STORE}`, { deliveryMinimumMl: null, cutoffLocalTime: '14:00' });
  }, 300_000);

  it('when the buyer places an emergency order after the cut-off, then it skips the calendar, carries the fee and is among tomorrow’s deliveries', async () => {
    const tomorrow = chicagoDate(1);
    await apiAs('admin@example.com', 'patch', `/admin/stores/${STORE}`, { cutoffLocalTime: '00:00', emergencyFee: '25.00' });
    const buyer = await newPage('buyer@example.com');
    const b = buyer.page;
    await chooseCourtAvenue(b, 'Blake');
    await addFromShop(b, 'canadian club', /^CANADIAN CLUB WHISKY$/i);
    await b.goto(`${portal.baseUrl}/cart`);
    await b.getByRole('radio', { name: /Delivery/ }).click();
    await b
      .getByTestId('cutoff-text')
      .filter({ hasText: `for delivery ${dayText(chicagoDate(2))}` })
      .waitFor();
    await b.getByRole('checkbox', { name: /Emergency order/ }).click();
    await b.getByTestId('cutoff-text').filter({ hasText: 'Emergency order' }).waitFor();
    await shotBoth(b, 'cart-emergency');
    await b.getByRole('button', { name: 'Checkout', exact: true }).click();
    await b.waitForURL(/\/payment\?/);
    await b.getByTestId('checkout-schedule').filter({ hasText: 'Emergency order' }).waitFor();
    await b.getByText('Emergency order fee').waitFor();
    await b.getByText(dateText(tomorrow)).first().waitFor();
    await shotBoth(b, 'checkout-emergency');
    await b.getByLabel('Card holder name').fill('Blake Buyer');
    await b.getByLabel('Card number').pressSequentially('4111111111111111');
    await b.getByLabel('Expiration (MM/YY)').pressSequentially('1230');
    await b.getByLabel('Security code').fill('123');
    await b.getByLabel('ZIP code').fill('50309');
    await b.getByRole('button', { name: /^Pay \$/ }).click();
    await b.waitForURL(/\/order-confirmation\/\d+$/, { timeout: 20_000 });
    const orderId = Number(b.url().split('/').pop());
    expect(buyer.errors).toEqual([]);
    await buyer.ctx.close();

    const manager = await newPage('manager@example.com');
    const m = manager.page;
    await chooseCourtAvenue(m, 'Morgan');
    await m.goto(`${portal.baseUrl}/orders`);
    const list = m.getByRole('group', { name: "Tomorrow's deliveries" });
    await list
      .getByRole('group', { name: /^Delivery ORD-/ })
      .filter({ hasText: 'Emergency' })
      .waitFor();
    await shotBoth(m, 'store-tomorrows-deliveries');
    await list
      .getByRole('button', { name: /View delivery ORD-/ })
      .first()
      .click();
    await m
      .getByRole('dialog')
      .getByText(/Delivery ·/)
      .waitFor();
    expect(manager.errors).toEqual([]);
    await manager.ctx.close();
    expect(orderId).toBeGreaterThan(0);
    await apiAs('admin@example.com', 'patch', `/admin/stores/${STORE}`, { cutoffLocalTime: '14:00', emergencyFee: '0.00' });
  }, 300_000);

  it('when the buyer reports a damaged bottle and the store credits it, then the claim shows on both sides and on the month’s statement; the invoice renders', async () => {
    const buyer = await newPage('buyer@example.com');
    const b = buyer.page;
    await chooseCourtAvenue(b, 'Blake');
    await addFromShop(b, 'canadian club', /^CANADIAN CLUB WHISKY$/i);
    await b.goto(`${portal.baseUrl}/cart`);
    await b.getByRole('radio', { name: /Pickup/ }).click();
    await b.waitForTimeout(300);
    await b.getByRole('button', { name: 'Checkout', exact: true }).click();
    await b.waitForURL(/\/payment\?/);
    await b.getByRole('radio', { name: /Pay In-Store/ }).click();
    await b.getByRole('button', { name: /Place Order/ }).click();
    await b.waitForURL(/\/order-confirmation\/\d+$/, { timeout: 20_000 });
    const orderId = Number(b.url().split('/').pop());
    await apiAs('manager@example.com', 'post', `/orders/${orderId}/ready`);
    const done = await apiAs('manager@example.com', 'post', `/orders/${orderId}/complete`);
    const orderNumber = String(done.orderNumber);

    // My Orders: the invoice PDF, then Report a problem.
    await b.goto(`${portal.baseUrl}/order-history`);
    await b.getByRole('button', { name: `View Details of order ${orderNumber}` }).click();
    const dialog = b.getByRole('dialog');
    const invoice = await download(b, () => dialog.getByRole('button', { name: /Download invoice \(PDF\)/ }).click(), 'invoice.pdf');
    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', invoice, join(SHOTS, 'week2-invoice')]);
    expect(execFileSync('pdftotext', [invoice, '-']).toString()).toContain(orderNumber);
    await dialog.getByRole('button', { name: 'Report a problem' }).click();
    const report = b.getByRole('dialog', { name: /Report a problem/ });
    await report.getByRole('checkbox', { name: /CANADIAN CLUB WHISKY/i }).click();
    await report.getByRole('combobox', { name: 'Reason' }).selectOption('damaged');
    await report.getByRole('textbox', { name: 'Note (optional)' }).fill('One bottle arrived broken in the case');
    await shotBoth(b, 'claim-report');
    await report.getByRole('button', { name: 'Send claim' }).click();
    await b.getByText('Problem reported').waitFor();
    await dialog.getByTestId('claim').filter({ hasText: 'Open' }).waitFor();
    await shot(b, 'claim-opened');

    // The store manager resolves it with a credit from the order's details.
    const manager = await newPage('manager@example.com');
    const m = manager.page;
    await chooseCourtAvenue(m, 'Morgan');
    await m.goto(`${portal.baseUrl}/orders`);
    await m.getByRole('heading', { name: /Tomorrow's deliveries/ }).waitFor();
    await m.getByRole('tab', { name: /Completed/ }).click();
    await m
      .getByRole('tabpanel')
      .getByRole('button', { name: `View Details of order ${orderNumber}` })
      .click();
    const details = m.getByRole('dialog');
    await details.getByTestId('claim').waitFor();
    await shotBoth(m, 'claim-store');
    await details.getByRole('button', { name: 'Resolve' }).click();
    const resolve = m.getByRole('dialog', { name: /Resolve claim/ });
    await resolve.getByRole('radio', { name: 'Credit' }).click();
    await resolve.getByRole('textbox', { name: 'Note (optional)' }).fill('Credited on your statement');
    await resolve.getByRole('button', { name: 'Resolve claim' }).click();
    await m.getByText('Claim resolved').waitFor();
    await details
      .getByTestId('claim-resolution')
      .filter({ hasText: /Credit/ })
      .waitFor();
    await shot(m, 'claim-resolved');
    await m.keyboard.press('Escape');
    await shotBoth(m, 'store-orders');
    expect(manager.errors).toEqual([]);
    await manager.ctx.close();

    // The buyer sees the outcome and finds the credit on this month's statement.
    await b.reload();
    await b.getByRole('button', { name: `View Details of order ${orderNumber}` }).click();
    await dialog
      .getByTestId('claim-resolution')
      .filter({ hasText: /Credit/ })
      .waitFor();
    await shotBoth(b, 'claim-buyer-resolved');
    await b.keyboard.press('Escape');
    await shotBoth(b, 'order-history');
    const statement = await download(b, () => b.getByRole('button', { name: 'Download statement (PDF)' }).click(), 'statement.pdf');
    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', statement, join(SHOTS, 'week2-statement')]);
    const text = execFileSync('pdftotext', [statement, '-']).toString();
    expect(text).toContain(orderNumber);
    expect(text).toMatch(/credit/i);
    expect(buyer.errors).toEqual([]);
    await buyer.ctx.close();
  }, 300_000);
});
