import bcrypt from 'bcrypt';
import { grantRoleAtOutlets } from '@portal/seeds';
import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { tokenFor } from '../apps/api/src/test/harness';
import { fillCart, postOrder, startCheckout, storeItems } from '../apps/api/src/modules/orders/test-support';
import { DESKTOP, FIXTURE_PASSWORD, MOBILE, afterResize, launchBrowser, signIn, snap, startPortal, type Portal } from './harness';

/**
 * Issue 9 in Chromium, as a buyer, a store manager, an outlet manager, a catalog viewer and a person with
 * no outlets would try it: re-order into the cart one is looking at, the toast's View Cart over the dialog,
 * Clear cart, Store Orders / My Orders / header at 390 px with whole order numbers, the sticky cart panel,
 * the details dialog's total above the fold, the toast clear of the cards, the no-outlet path, browsing
 * with bcc.items.view, outlet managers' orders and a quiet signed-out load. Screenshots: screenshots/buyer-*.png.
 */
jest.setTimeout(300_000);

let portal: Portal;
let browser: Browser;
const CENTRAL = 2190;
const orderNumbers: string[] = [];

/** A user with `roleCode` (created when absent, holding `codes`) and the given outlets; password FIXTURE_PASSWORD. */
async function addUser(email: string, firstName: string, roleCode: string, outletIds: number[], codes?: string[]) {
  const db = portal.t.db;
  const [u] = await db('users')
    .insert({ email, password_hash: await bcrypt.hash(FIXTURE_PASSWORD, 4), is_active: true })
    .returning('id');
  await db('user_profiles').insert({ user_id: u.id, first_name: firstName, last_name: 'Test', full_name: `${firstName} Test` });
  let role = await db('roles').where({ code: roleCode }).first('id');
  if (!role) {
    [role] = await db('roles').insert({ code: roleCode, role_name: roleCode, role_level: 70, scope_type: 'outlet' }).returning('id');
    for (const code of codes ?? [])
      await db('role_permissions').insert({ role_id: role!.id, permission_id: (await db('permissions').where({ code }).first('id'))!.id });
  }
  await grantRoleAtOutlets(db, u.id, roleCode, outletIds);
  return { id: u.id as string, email };
}

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
  const { t, fixtures: fx } = portal;
  // Two in-store orders of the buyer at Court Avenue × CENTRAL CITY (store 2190), placed through the API.
  const buyerToken = tokenFor(t, fx.users.buyer);
  const items = await storeItems(t.db, CENTRAL, 4);
  for (const lines of [
    [
      { item: items[0], quantity: 2 },
      { item: items[1], quantity: 1 },
    ],
    [
      { item: items[2], quantity: 3 },
      { item: items[3], quantity: 1 },
    ],
  ]) {
    const cartId = await fillCart(t.db, { userId: fx.users.buyer.id, outletId: fx.outlets.dsm, storeId: CENTRAL, lines });
    const s = await startCheckout(t.app, buyerToken, cartId);
    const res = await postOrder(t.app, buyerToken, { checkoutToken: s.body.token, paymentMethod: 'in_store' });
    expect(res.status).toBe(201);
    orderNumbers.push(res.body.orderNumber);
  }
  // The buyer now looks at Campustown Bistro × CENTRAL CITY (the reproduction).
  const sel = await request(t.app)
    .put('/api/v1/me/selection')
    .set('Authorization', `Bearer ${buyerToken}`)
    .send({ outletId: fx.outlets.ams, storeId: CENTRAL });
  expect(sel.status).toBe(200);
  // The store manager looks at CENTRAL CITY (Store Orders lists the selected store).
  const mgr = await request(t.app)
    .put('/api/v1/me/selection')
    .set('Authorization', `Bearer ${tokenFor(t, fx.users.manager)}`)
    .send({ outletId: fx.outlets.dsm, storeId: CENTRAL });
  expect(mgr.status).toBe(200);
  await addUser('outlet-manager@example.com', 'Olive', 'outlet_manager', [fx.outlets.dsm]);
  await addUser('no-outlets@example.com', 'Nora', 'outlet_buyer', []);
  await addUser('catalog-viewer@example.com', 'Cato', 'catalog_viewer', [fx.outlets.dsm], ['bcc.items.view', 'bcc.outlets.read_assigned']);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await portal?.close();
});

async function openPage(viewport: { width: number; height: number }): Promise<Page> {
  const ctx = await browser.newContext({ viewport, locale: 'en-US', reducedMotion: 'reduce' });
  return ctx.newPage();
}

/** The page scrolls sideways (wider than the viewport)? */
const overflowX = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Every element matching `selector` shows its whole text (not clipped: scrollWidth ≤ clientWidth, no ellipsis). */
async function clippedTexts(page: Page, selector: string): Promise<string[]> {
  return page
    .locator(selector)
    .evaluateAll((els) =>
      els
        .filter(
          (el) =>
            el.scrollWidth > el.clientWidth + 1 || (getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth),
        )
        .map((el) => el.textContent ?? ''),
    );
}

describe('buyer (issue 9 §1, §3, §8, §9)', () => {
  it('when the buyer looks at Campustown × CENTRAL CITY and re-orders a Court Avenue order, then View Cart in the toast is reachable over the dialog and the Campustown cart holds the lines; Clear cart empties it after a confirmation', async () => {
    const page = await openPage(DESKTOP);
    await signIn(page, portal.baseUrl, 'buyer@example.com');
    await page.goto(`${portal.baseUrl}/order-history`);
    await page.getByText('Demo – Campustown Bistro | CENTRAL CITY LIQUOR, INC.').waitFor();
    await page.getByRole('button', { name: `View Details of order ${orderNumbers[0]}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // §9: the order total is in view on a 1280 × 800 screen without scrolling the dialog.
    const total = dialog.getByText('Order Total', { exact: true });
    await total.waitFor();
    const box = await total.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(DESKTOP.height);
    await snap(page, 'buyer-order-details');
    await dialog.getByRole('button', { name: /Re-Order these items/ }).click();
    await page.getByText('2 item(s) from this order have been added to your cart.').waitFor();
    await snap(page, 'buyer-reorder-toast');
    // §3: the toast's View Cart takes a click (the order dialog does not swallow it).
    await page.getByRole('button', { name: 'View Cart' }).click({ timeout: 5_000 });
    await page.waitForURL(/\/cart$/);
    // §1: the cart the buyer is looking at (Campustown × CENTRAL CITY) got the lines.
    await page.getByText('CENTRAL CITY LIQUOR, INC. | Demo – Campustown Bistro').waitFor();
    await page.getByText('2 products', { exact: true }).waitFor();
    const {
      t: { db },
      fixtures: fx,
    } = portal;
    const cartOf = (outletId: number) =>
      db('carts as c')
        .join('cart_items as i', 'i.cart_id', 'c.id')
        .where({ 'c.user_id': fx.users.buyer.id, 'c.outlet_id': outletId, 'c.store_id': CENTRAL, 'c.status': 'active' })
        .count({ n: '*' })
        .first();
    expect(Number((await cartOf(fx.outlets.ams))?.n)).toBe(2);
    expect(Number((await cartOf(fx.outlets.dsm))?.n)).toBe(0);

    // §8: Clear cart, with a confirmation; Cancel keeps the cart.
    await page.getByRole('button', { name: 'Clear cart' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Clear your cart?' });
    await confirm.waitFor();
    await snap(page, 'buyer-clear-cart-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('2 products', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Clear cart' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Clear cart' }).click();
    await page.getByText('Your cart is empty').first().waitFor();
    await page.getByText('Cart cleared').waitFor();
    expect(Number((await cartOf(fx.outlets.ams))?.n)).toBe(0);
    await page.context().close();
  });

  it('when the buyer scrolls the shop at 1280 px, then the sticky Your Cart panel stays below the header, and an added toast does not cover a product card', async () => {
    const page = await openPage(DESKTOP);
    await signIn(page, portal.baseUrl, 'buyer@example.com');
    await page.getByRole('heading', { name: 'Your Cart' }).waitFor();
    // §9: without a search the welcome shows instead of the whole catalogue; Browse all products lists it.
    await page.getByText('Ready to start ordering?').waitFor();
    expect(await page.getByRole('article').count()).toBe(0);
    await page.getByRole('button', { name: /Browse all products/ }).click();
    await page.getByRole('article').first().waitFor();
    expect(await page.getByText('Ready to start ordering?').count()).toBe(0);
    await page.mouse.wheel(0, 1600);
    await page.waitForTimeout(400);
    const header = await page.locator('header').first().boundingBox();
    const panel = await page.getByRole('complementary', { name: 'Cart' }).getByRole('heading', { name: 'Your Cart' }).boundingBox();
    expect(header && panel).toBeTruthy();
    expect(panel!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
    // What the person sees (viewport, not full page): the panel under the header after scrolling.
    await page.screenshot({ path: 'screenshots/buyer-shop-scrolled-1280.png' });

    // §9: after an add, the toast sits over the cart column, not over any product card.
    const card = page.getByRole('article').last();
    await card.scrollIntoViewIfNeeded();
    await card.getByRole('button', { name: /Add to Cart/ }).click();
    const toast = page.locator('[data-sonner-toast]').first();
    await toast.waitFor();
    await page.waitForTimeout(400);
    const tb = (await toast.boundingBox())!;
    const cards = await page.getByRole('article').evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x, y: r.y, w: r.width, h: r.height };
      }),
    );
    const overlaps = cards.filter((c) => c.x < tb.x + tb.width && tb.x < c.x + c.w && c.y < tb.y + tb.height && tb.y < c.y + c.h);
    expect(overlaps).toEqual([]);
    await snap(page, 'buyer-shop-toast');
    await page.context().close();
  });
});

describe('390 px (issue 9 §2)', () => {
  it('when the buyer opens My Orders and the shop on a phone, then nothing scrolls sideways and order numbers and header names are whole', async () => {
    const page = await openPage(MOBILE);
    await signIn(page, portal.baseUrl, 'buyer@example.com');
    await page.getByRole('heading', { level: 1, name: /^Shop/ }).waitFor();
    expect(await overflowX(page)).toBeLessThanOrEqual(0);
    expect(await clippedTexts(page, 'header a')).toEqual([]);
    await snap(page, 'buyer-shop');
    await page.goto(`${portal.baseUrl}/order-history`);
    for (const n of orderNumbers) await page.getByText(n, { exact: true }).waitFor();
    expect(await overflowX(page)).toBeLessThanOrEqual(0);
    expect(await clippedTexts(page, '[data-testid="order-number"]')).toEqual([]);
    expect(await clippedTexts(page, 'header a')).toEqual([]);
    await snap(page, 'buyer-my-orders');
    await page.setViewportSize(DESKTOP);
    await page.getByRole('columnheader', { name: 'Order Number' }).waitFor();
    expect(await clippedTexts(page, '[data-testid="order-number"]')).toEqual([]);
    await snap(page, 'buyer-my-orders');
    await page.context().close();
  });

  it('when the store manager opens Store Orders on a phone, then the cards fit (total and Mark Ready visible) with whole order numbers', async () => {
    const page = await openPage(MOBILE);
    await signIn(page, portal.baseUrl, 'manager@example.com');
    await page.goto(`${portal.baseUrl}/orders`);
    for (const n of orderNumbers) await page.getByText(n, { exact: true }).first().waitFor();
    expect(await overflowX(page)).toBeLessThanOrEqual(0);
    expect(await clippedTexts(page, '[data-testid="order-number"]')).toEqual([]);
    const mark = page.getByRole('button', { name: `Mark Ready order ${orderNumbers[0]}` });
    const box = (await mark.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(MOBILE.width);
    await snap(page, 'buyer-store-orders');
    await page.setViewportSize(DESKTOP);
    await afterResize(page);
    await snap(page, 'buyer-store-orders');
    await page.context().close();
  });
});

describe('outlet manager, no outlets, catalog viewer, signed out (issue 9 §4, §5, §6, §10)', () => {
  it('when the outlet manager opens Manage Store Orders, then every order of their outlet shows with the outlet subtitle and no Mark Ready', async () => {
    const page = await openPage(DESKTOP);
    await signIn(page, portal.baseUrl, 'outlet-manager@example.com');
    await page.locator('header [aria-haspopup="menu"]').last().click();
    await page.getByRole('menuitem', { name: 'Manage Store Orders' }).click();
    await page.waitForURL(/\/orders$/);
    await page.getByText('Showing all orders for Outlet: Demo – Court Avenue Taproom').waitFor();
    for (const n of orderNumbers) await page.getByText(n, { exact: true }).first().waitFor();
    expect(await page.getByRole('button', { name: /^Mark Ready/ }).count()).toBe(0);
    await snap(page, 'buyer-outlet-manager-orders');
    await page.context().close();
  });

  it("when a person with no outlets signs in, then the shop says so in the spec's words and Request Outlets leads to the request panel", async () => {
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await openPage(viewport);
      await signIn(page, portal.baseUrl, 'no-outlets@example.com');
      await page.getByText('No outlets assigned to your account. Please contact support.').first().waitFor();
      expect(await overflowX(page)).toBeLessThanOrEqual(0);
      await snap(page, 'buyer-no-outlets');
      await page.getByRole('link', { name: 'Request Outlets' }).click();
      await page.waitForURL(/\/profile#my-outlets$/);
      await page.getByRole('button', { name: /Request more Outlets/ }).waitFor();
      await page.context().close();
    }
  });

  it("when a user with bcc.items.view but not bcc.carts.use opens the shop, then the catalog shows with Add to Cart disabled and the spec's title", async () => {
    const page = await openPage(DESKTOP);
    await signIn(page, portal.baseUrl, 'catalog-viewer@example.com');
    const search = page.getByRole('searchbox', { name: 'Search products' });
    await search.fill('vodka');
    await search.press('Enter');
    const add = page
      .getByRole('article')
      .first()
      .getByRole('button', { name: /Add to Cart/ });
    await add.waitFor();
    expect(await add.isDisabled()).toBe(true);
    expect(await add.getAttribute('title')).toBe("You don't have permission to add items to cart");
    await snap(page, 'buyer-catalog-viewer');
    await page.context().close();
  });

  it('when a signed-out person loads the portal, then no request fails and the console has no error', async () => {
    const page = await openPage(DESKTOP);
    const errors: string[] = [];
    const failed: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${portal.baseUrl}/`);
    await page.waitForURL(/\/auth/);
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await page.waitForTimeout(500);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
