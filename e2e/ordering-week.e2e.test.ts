import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { seedOrderingWeek } from '@portal/seeds';
import { DESKTOP, FIXTURE_PASSWORD, MOBILE, afterResize, launchBrowser, signIn, snap, startPortal, type Portal } from './harness';

/**
 * The licensee's ordering week I (issue 27) in Chromium through the built SPA and the real API: the buyer builds
 * an order guide (autocomplete, par, keyboard reorder), fills the cart from it with shelf counts, quick-orders 25
 * pasted codes of which 2 are bad, and meets a case-rule refusal in the cart that offers the nearest valid
 * quantity. Screenshots at 1280 and 390 px go to screenshots/ordering-week-*.png (and SHOTS_DIR when set).
 */
jest.setTimeout(300_000);

const SHOTS_DIR = process.env.SHOTS_DIR;
let portal: Portal;
let browser: Browser;
let token = '';
const api = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${portal.baseUrl}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, json: r.status === 204 ? null : await r.json() };
};
interface Rule {
  min: number;
  max: number | null;
  increment: number;
}
interface Product {
  code: string;
  name: string;
  quantityRule: Rule;
}
const first = (r: Rule) => Math.ceil(Math.max(r.min, 1) / r.increment) * r.increment;

async function login(email: string): Promise<string> {
  const r = await fetch(`${portal.baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: FIXTURE_PASSWORD }),
  });
  return ((await r.json()) as { access_token: string }).access_token;
}
/** Runs `fn` with the API calls made as `email`, then as the buyer again. */
async function withToken(email: string, fn: () => Promise<void>) {
  const buyer = token;
  token = await login(email);
  try {
    await fn();
  } finally {
    token = buyer;
  }
}
beforeAll(async () => {
  portal = await startPortal();
  // The demo data of the ordering week (past orders and guides of the demo outlets at 2190, a case rule).
  await seedOrderingWeek(portal.t.db);
  browser = await launchBrowser();
  token = await login('buyer@example.com');
});
afterAll(async () => {
  await browser?.close();
  await portal?.close();
});

async function shot(page: Page, name: string) {
  await snap(page, `ordering-week-${name}`);
  if (SHOTS_DIR) {
    mkdirSync(SHOTS_DIR, { recursive: true });
    await page.screenshot({ path: `${SHOTS_DIR}/${name}-${page.viewportSize()?.width}.png`, fullPage: true });
  }
}
async function openPage(viewport: { width: number; height: number }): Promise<Page> {
  const ctx = await browser.newContext({ viewport, locale: 'en-US', reducedMotion: 'reduce' });
  return ctx.newPage();
}
/** The buyer's outlet and store as the server has them selected. */
async function selection() {
  const s = (await api('GET', '/me/selection')).json as { outletId: number; storeId: number };
  return s;
}
async function cartLines() {
  const { outletId, storeId } = await selection();
  return (await api('GET', `/carts/current?outletId=${outletId}&storeId=${storeId}`)).json as {
    id: number;
    items: { itemCode: string; quantity: number }[];
  };
}

it('buyer at 1280 px: builds a guide, fills the cart with shelf counts, quick-orders 25 pasted codes (2 bad), meets a case-rule refusal', async () => {
  const page = await openPage(DESKTOP);
  await signIn(page, portal.baseUrl, 'buyer@example.com');
  const { storeId } = await selection();
  const vodkas = ((await api('GET', `/stores/${storeId}/products?search=vodka&pageSize=6`)).json as { items: Product[] }).items;
  let all = ((await api('GET', `/stores/${storeId}/products?pageSize=100`)).json as { items: Product[] }).items;
  if (!all.some((p) => p.quantityRule.increment > 1)) {
    // No case rule in the data: the administrator puts one (steps of 6) on a product past the guide's three.
    await withToken('admin@example.com', async () => {
      const found = (await api('GET', `/admin/items?search=${all[5].code}`)).json as { items: { id: number; code: string }[] };
      const item = found.items.find((i) => i.code === all[5].code)!;
      expect((await api('PATCH', `/admin/items/${item.id}`, { quantityRule: { min: 6, max: null, increment: 6 } })).status).toBe(200);
    });
    all = ((await api('GET', `/stores/${storeId}/products?pageSize=100`)).json as { items: Product[] }).items;
  }
  const ruled = all.find((p) => p.quantityRule.increment > 1);
  expect(ruled).toBeDefined();

  // 1. A new guide with three lines: autocomplete by name, then codes; par 12; one moved by keyboard; saved.
  await page.goto(`${portal.baseUrl}/order-guides`);
  await page.getByRole('heading', { level: 1, name: 'Order guides' }).waitFor();
  await page
    .getByRole('button', { name: /New guide|Create a guide/ })
    .first()
    .click();
  await page.getByRole('dialog').getByLabel('Guide name').fill('E2E weekly');
  await page.getByRole('button', { name: 'Create guide' }).click();
  await page.getByRole('button', { name: /^E2E weekly \d+ lines?$/ }).waitFor();
  const add = page.getByLabel('Add item (code or name)');
  await add.fill(vodkas[0].name.slice(0, 8));
  await page.getByRole('option').first().waitFor();
  await add.press('ArrowDown');
  await add.press('Enter');
  await page.getByLabel('Par (bottles)').fill('12');
  await page.getByLabel('Par (bottles)').press('Enter');
  const table = page.getByRole('table', { name: 'Guide lines in order' });
  for (const p of [vodkas[1], vodkas[2]]) {
    await add.fill(p.code);
    await add.press('Enter');
    await page.getByLabel('Par (bottles)').fill('12');
    await page.getByLabel('Par (bottles)').press('Enter');
    // A typed code is looked up before its line appears with the product's name.
    await table.getByText(p.name, { exact: true }).waitFor();
  }
  await table.getByRole('row').nth(3).waitFor();
  expect(await table.getByRole('row').count()).toBe(4);
  const order = () => table.locator('tbody tr td:nth-child(2) > p:first-child').allInnerTexts();
  const [a, b, c] = [vodkas[0].name, vodkas[1].name, vodkas[2].name];
  // Move buttons (keyboard: Enter on "Move … down").
  await table.getByRole('button', { name: `Move ${a} down` }).press('Enter');
  expect(await order()).toEqual([b, a, c]);
  await table.getByRole('button', { name: `Move ${c} up` }).press('Enter');
  expect(await order()).toEqual([b, c, a]);
  // The drag handle with the mouse: the first line dropped on the last.
  const from = (await table.getByRole('button', { name: `Drag ${b}` }).boundingBox())!;
  const to = (await table.getByRole('row').nth(3).boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + 20, { steps: 4 });
  await page.mouse.move(from.x + from.width / 2, to.y + to.height / 2 + 10, { steps: 10 });
  await page.mouse.up();
  await page.waitForFunction((name) => document.querySelector('table tbody tr:nth-child(3) td:nth-child(2) > p')?.textContent === name, b);
  expect(await order()).toEqual([c, a, b]);
  // Toasts of the steps before (line added, guide created) close first: one sliding in must not take the click.
  for (const close of await page.getByRole('button', { name: 'Close toast' }).all()) await close.click().catch(() => undefined);
  await page
    .locator('[data-sonner-toast]')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
  const guidePatched = page.waitForResponse((r) => r.request().method() === 'PATCH' && /\/order-guides\/\d+$/.test(r.url()));
  await page.getByRole('button', { name: 'Save changes' }).click();
  expect((await guidePatched).status()).toBe(200);
  await page.getByRole('button', { name: 'Saved' }).waitFor();
  const gid = Number(new URL(page.url()).searchParams.get('guide'));
  const savedGuide = (await api('GET', `/order-guides/${gid}`)).json as { lines: { itemCode: string }[] };
  expect(savedGuide.lines.map((l) => l.itemCode)).toEqual([vodkas[2].code, vodkas[0].code, vodkas[1].code]);
  await shot(page, '01-guide');

  // 2. Fill the cart: 5 on the shelf of the first product, the others blank.
  await api('DELETE', `/carts/${(await cartLines()).id}`);
  await page.getByRole('button', { name: 'Fill cart from guide' }).click();
  await page.getByLabel(`On shelf: ${vodkas[0].name}`).fill('5');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  const result = page.getByRole('region', { name: 'Fill result' });
  await result.getByText(/Added to the cart \(\d+\)/).waitFor();
  const line = (await cartLines()).items.find((l) => l.itemCode === vodkas[0].code);
  expect(line!.quantity).toBeGreaterThanOrEqual(7);
  expect(line!.quantity % vodkas[0].quantityRule.increment).toBe(0);
  await shot(page, '02-guide-filled');

  // 3. Quick order: 23 of the store's codes + an unknown one + one the store does not carry.
  await api('DELETE', `/carts/${(await cartLines()).id}`);
  const good = all.slice(0, 23).map((p) => `${p.code}\t${first(p.quantityRule)}`);
  const notCarried = (await portal.t
    .db('items')
    .whereNotIn(
      'code',
      all.map((p) => p.code),
    )
    .first('code')) as { code: string } | undefined;
  const pasted = [...good.slice(0, 10), 'NO-SUCH-CODE\t2', ...good.slice(10), `${notCarried?.code ?? 'ZZ-404'}\t1`].join('\n');
  await page.goto(`${portal.baseUrl}/quick-order`);
  await page.getByLabel('Item codes and quantities').fill(pasted);
  await page.getByRole('button', { name: /Add pasted lines/ }).click();
  await page.getByText('25 lines from the pasted text added to the grid.').waitFor();
  await page.getByRole('button', { name: 'Add all valid lines (25)' }).click();
  await page.getByText('23 added.').waitFor();
  await page.getByText('2 need attention.').waitFor();
  expect((await cartLines()).items).toHaveLength(23);
  await page.getByRole('listitem').filter({ hasText: 'NO-SUCH-CODE' }).scrollIntoViewIfNeeded();
  await shot(page, '03-quick-order');

  // 4. A case-rule refusal in the cart: one more than the increment → the message and "Use N".
  const inc = ruled!.quantityRule.increment;
  const cart = await cartLines();
  if (!cart.items.some((l) => l.itemCode === ruled!.code)) await api('POST', `/carts/${cart.id}/items`, { itemCode: ruled!.code });
  await page.goto(`${portal.baseUrl}/cart`);
  // Names repeat across sizes: the line is found by its item code.
  const box = page
    .getByRole('listitem')
    .filter({ hasText: `#${ruled!.code}` })
    .getByRole('textbox', { name: `Quantity of ${ruled!.name}` });
  await box.fill(String(inc + 1));
  await box.press('Enter');
  await page.getByText('Quantity not allowed').waitFor();
  const use = page.getByRole('button', { name: /^Use \d+$/ });
  const nearest = Number((await use.innerText()).replace(/\D/g, ''));
  expect(nearest % inc).toBe(0);
  await shot(page, '04-case-rule');
  const patched = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/items/') && r.status() === 200);
  await use.click();
  await patched;
  expect((await cartLines()).items.find((l) => l.itemCode === ruled!.code)?.quantity).toBe(nearest);

  // 5. The suggested order and the shop's case facts.
  await page.goto(`${portal.baseUrl}/suggested-order`);
  await page.getByRole('heading', { level: 1, name: 'Suggested order' }).waitFor();
  // Lines with their basis when the outlet (or the store's history) has some, else the empty state.
  await page
    .getByText(/a week|Nothing to suggest yet/)
    .first()
    .waitFor();
  await shot(page, '05-suggested');
  await page.goto(`${portal.baseUrl}/shop`);
  await page.getByRole('button', { name: /Browse all products/ }).click();
  await page
    .getByText(/per case/)
    .first()
    .waitFor();
  await shot(page, '06-shop');

  // 6. The Des Moines outlet (demo history and guides): its suggestion with a basis per line, turned into a guide.
  const before = await selection();
  await api('PUT', '/me/selection', { outletId: portal.fixtures.outlets.dsm, storeId: 2190 });
  await page.goto(`${portal.baseUrl}/suggested-order`);
  await page
    .getByText(/a week/)
    .first()
    .waitFor();
  await shot(page, '05-suggested-history');
  await page.getByRole('button', { name: 'Save as guide' }).click();
  await page.getByRole('dialog').getByLabel('Guide name').fill('From the suggestion');
  await page.getByRole('button', { name: 'Create guide' }).click();
  await page.waitForURL(/\/order-guides\?guide=\d+/);
  await page.getByRole('button', { name: /^From the suggestion \d+ lines?$/ }).waitFor();
  await page.getByRole('table', { name: 'Guide lines in order' }).waitFor();
  await shot(page, '01-guides-demo');
  await api('PUT', '/me/selection', before);
});

it('buyer at 390 px: every ordering screen fits the phone (guide in fill mode, quick order with results, print view)', async () => {
  const page = await openPage(MOBILE);
  await signIn(page, portal.baseUrl, 'buyer@example.com');
  await afterResize(page);
  const fits = async (path: string) => {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect({ path, overflow }).toEqual({ path, overflow: 0 });
  };
  await page.goto(`${portal.baseUrl}/order-guides`);
  await page.getByRole('heading', { level: 1, name: 'Order guides' }).waitFor();
  await page.getByRole('table', { name: 'Guide lines in order' }).waitFor();
  await shot(page, '01-guide');
  await fits('/order-guides');
  await page.getByRole('button', { name: 'Fill cart from guide' }).click();
  await shot(page, '02-guide-fill');
  await fits('/order-guides fill');
  await page.emulateMedia({ media: 'print' });
  await shot(page, '08-guide-print');
  await page.emulateMedia({ media: 'screen' });

  const { storeId } = await selection();
  const some = ((await api('GET', `/stores/${storeId}/products?pageSize=3`)).json as { items: Product[] }).items;
  await page.goto(`${portal.baseUrl}/quick-order`);
  await page
    .getByLabel('Item codes and quantities')
    .fill([...some.map((p) => `${p.code} ${first(p.quantityRule)}`), 'NO-SUCH-CODE 2'].join('\n'));
  await page.getByRole('button', { name: /Add pasted lines/ }).click();
  await page.getByRole('button', { name: 'Add all valid lines (4)' }).click();
  await page.getByText('1 need attention.').waitFor();
  await shot(page, '03-quick-order');
  await fits('/quick-order');

  for (const [path, heading, name] of [
    ['/suggested-order', 'Suggested order', '05-suggested'],
    ['/cart', /Cart/, '04-cart'],
  ] as const) {
    await page.goto(`${portal.baseUrl}${path}`);
    await page.getByRole('heading', { level: 1, name: heading }).first().waitFor();
    await page.waitForLoadState('networkidle');
    await shot(page, name);
    await fits(path);
  }
});

it('administrator at 1280 and 390 px: sets an item quantity rule in the item editor (a max below the min is refused)', async () => {
  const page = await openPage(DESKTOP);
  await signIn(page, portal.baseUrl, 'admin@example.com');
  await page.goto(`${portal.baseUrl}/admin`);
  await page.getByRole('tab', { name: 'Items' }).click();
  const item = (await portal.t.db('items').orderBy('code').first('id', 'code')) as { id: number; code: string };
  await page.getByLabel('Search items by name or code').fill(item.code);
  await page.getByRole('row').filter({ hasText: item.code }).getByRole('button', { name: /^Edit/ }).click();
  const rule = page.getByRole('group', { name: 'Quantity rule (bottles)' });
  await rule.getByLabel('Minimum').fill('12');
  await rule.getByLabel('Maximum').fill('6');
  await rule.getByLabel('Step').fill('6');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('A whole number, at least the minimum').waitFor();
  await shot(page, '07-admin-item-rule');
  await page.setViewportSize(MOBILE);
  await afterResize(page);
  await shot(page, '07-admin-item-rule');
  await page.setViewportSize(DESKTOP);
  await rule.getByLabel('Maximum').fill('');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Item updated').waitFor();
  await withToken('admin@example.com', async () => {
    const found = (await api('GET', `/admin/items?search=${item.code}`)).json as { items: { code: string; quantityRule: unknown }[] };
    expect(found.items.find((i) => i.code === item.code)?.quantityRule).toEqual({ min: 12, max: null, increment: 6 });
  });
});

it('buyer at 1280 px: 200 pasted lines render and stay responsive to typing (numbers logged, not asserted)', async () => {
  const page = await openPage(DESKTOP);
  await signIn(page, portal.baseUrl, 'buyer@example.com');
  await page.goto(`${portal.baseUrl}/quick-order`);
  const text = Array.from({ length: 200 }, (_, i) => `${10000 + i}\t${(i % 6) + 1}`).join('\n');
  await page.getByLabel('Item codes and quantities').fill(text);
  const t0 = Date.now();
  await page.getByRole('button', { name: /Add pasted lines/ }).click();
  await page.getByLabel('Quantity, line 200').waitFor();
  const pasteMs = Date.now() - t0;
  const box = page.getByLabel('Quantity, line 150');
  const t1 = Date.now();
  await box.fill('');
  await box.pressSequentially('12');
  await page.waitForFunction(
    () => (document.querySelector('[data-qo-grid] li:nth-child(150) input[inputmode="numeric"]') as HTMLInputElement)?.value === '12',
  );
  const typeMs = Date.now() - t1;
  console.warn(`quick order, 200 pasted lines: rendered in ${pasteMs} ms; typing 2 digits in line 150 took ${typeMs} ms`);
  expect(await page.getByRole('button', { name: 'Add all valid lines (200)' }).isEnabled()).toBe(true);
});
