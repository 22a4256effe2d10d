import type { Browser, Page } from 'playwright-core';
import { createImportQueue, type ImportQueue } from '../apps/api/src/jobs/import-queue';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DESKTOP, FIXTURE_PASSWORD, MOBILE, afterResize, launchBrowser, signIn, snap, startPortal, type Portal } from './harness';

/**
 * Journey of issue 13 in Chromium: the super administrator edits store 2190's delivery charge (typing and
 * blur rules) and cc emails (a comma is refused with 'Invalid Email Addresses'), assigns an outlet, edits an
 * item's price and sees it in the shop, uploads a products CSV with a bad row and reads the row error, then
 * a good one and reads the counts. Screenshots at 1280 and 390 px (screenshots/admin-org-*.png).
 */
let portal: Portal;
let browser: Browser;
let queue: ImportQueue;

beforeAll(async () => {
  portal = await startPortal();
  queue = createImportQueue({
    connectionString: portal.t.config.databaseUrl!,
    db: portal.t.db,
    logger: portal.t.ctx.logger,
    pollingIntervalSeconds: 0.5,
  });
  await queue.start();
  portal.t.ctx.imports = queue;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await queue?.stop();
  await portal?.close();
});

async function snapBoth(page: Page, name: string) {
  await page.setViewportSize(DESKTOP);
  await snap(page, name);
  await page.setViewportSize(MOBILE);
  await afterResize(page);
  // Nothing may widen the page on a phone (tables scroll inside themselves); a late re-render gets 2 s to settle.
  await page.waitForFunction((w) => document.documentElement.scrollWidth === w, MOBILE.width, { timeout: 2_000 }).catch(() => undefined);
  expect([name, await page.evaluate(() => document.documentElement.scrollWidth)]).toEqual([name, MOBILE.width]);
  await snap(page, name);
  await page.setViewportSize(DESKTOP);
}

async function dismissToasts(page: Page) {
  for (const close of await page.getByRole('button', { name: 'Close toast' }).all()) await close.click().catch(() => undefined);
  await page
    .locator('[data-sonner-toast]')
    .first()
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => undefined);
}

const products = readFileSync(join(__dirname, '../apps/api/src/test/fixtures/products.csv'), 'utf8').trimEnd().split('\n');

it('super administrator: store settings, assigned outlet, item price seen in the shop, CSV imports with a row error then counts', async () => {
  const { baseUrl, t } = portal;
  // The admin shops at store 2190 through the Des Moines outlet; the price check uses an item it carries.
  await t
    .db('user_profiles')
    .where({ user_id: portal.fixtures.users.admin.id })
    .update({ last_selected_outlet_id: portal.fixtures.outlets.dsm, last_selected_store_id: 2190 });
  const item = await t
    .db('inventory as v')
    .join('items as i', 'i.id', 'v.item_id')
    .where('v.store_id', 2190)
    .orderBy('i.code')
    .first('i.id', 'i.code', 'i.name');
  const page = await browser.newPage({ viewport: DESKTOP });
  await signIn(page, baseUrl, 'admin@example.com');

  // Store editor: Settings with the delivery charge rules and cc emails.
  await page.goto(`${baseUrl}/admin/store/2190`);
  await page.getByRole('heading', { level: 1, name: 'CENTRAL CITY LIQUOR, INC.' }).waitFor();
  await page.getByRole('tab', { name: 'Settings' }).click();
  const charge = page.getByLabel('Delivery charge (USD)');
  await charge.fill('');
  await charge.pressSequentially('$7.555');
  expect(await charge.inputValue()).toBe('7.55');
  await charge.fill('7.5');
  await charge.blur();
  expect(await charge.inputValue()).toBe('7.50');
  const cc = page.getByLabel('Order confirmation CC emails');
  await cc.fill('orders@example.com, manager@example.com');
  await page.getByRole('button', { name: 'Save Store' }).click();
  await page.getByText('Invalid Email Addresses').first().waitFor();
  await snapBoth(page, 'admin-org-01-store-settings-invalid-emails');
  await dismissToasts(page);
  await cc.fill('orders@example.com;manager@example.com');
  await page.getByRole('button', { name: 'Save Store' }).click();
  await page.getByText('Store saved').waitFor();
  expect(await t.db('stores').where({ id: 2190 }).first('delivery_charge', 'orderconf_ccemails')).toEqual({
    delivery_charge: '7.50',
    orderconf_ccemails: 'orders@example.com;manager@example.com',
  });
  await snapBoth(page, 'admin-org-02-store-settings-saved');
  await dismissToasts(page);

  // Assigned Outlets: assign the open test outlet.
  await page.getByRole('tab', { name: 'Assigned Outlets' }).click();
  await page.getByLabel('Assign an outlet').fill('Open Cellar');
  await page.getByRole('button', { name: 'Assign Test – Open Cellar' }).click();
  await page.getByRole('table', { name: 'Assigned outlets' }).getByText('Test – Open Cellar').waitFor();
  expect(await t.db('store_outlets').where({ store_id: 2190, outlet_id: portal.fixtures.outlets.unassigned })).toHaveLength(1);
  await snapBoth(page, 'admin-org-03-assigned-outlets');
  await dismissToasts(page);

  // Back to the admin dashboard on the Stores tab, then Items: edit the price.
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('tab', { name: 'Stores', selected: true }).waitFor();
  await page.getByRole('tab', { name: 'Items' }).click();
  await page.getByLabel('Search items by name or code').fill(item.code);
  const row = page.getByRole('row').filter({ hasText: item.code });
  await row.getByRole('button', { name: /^Edit/ }).click();
  const price = page.getByLabel('Price (USD) *');
  await price.fill('-3');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Amount cannot be negative').waitFor();
  await price.fill('123.45');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Item updated').waitFor();
  await row.getByText('$123.45').waitFor();
  expect((await t.db('items').where({ id: item.id }).first('retail'))!.retail).toBe('123.45');
  await snapBoth(page, 'admin-org-04-items');
  await dismissToasts(page);

  // The shop shows the new price.
  await page.goto(`${baseUrl}/shop`);
  const box = page.getByRole('searchbox', { name: 'Search products' });
  await box.fill(item.code);
  await box.press('Enter');
  await page.getByRole('article').filter({ hasText: '$123.45' }).first().waitFor();

  // Data Synch: a bad row, then a good file.
  await page.goto(`${baseUrl}/admin`);
  await page.getByRole('tab', { name: 'Data Synch' }).click();
  const bad = products[2].split(',');
  bad[15] = 'abc';
  await page.getByLabel('CSV files to import').setInputFiles({
    name: 'products-bad.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from([products[0], products[1], bad.join(',')].join('\n') + '\n'),
  });
  await page.getByRole('button', { name: 'Upload and import' }).click();
  const errors = page.getByRole('table', { name: 'Row errors' });
  await errors.waitFor();
  await errors.getByRole('cell', { name: 'State Bottle Retail' }).waitFor();
  expect(await errors.getByRole('row').nth(1).textContent()).toContain('products-bad.csv3State Bottle Retail"abc" is not an amount');
  await snapBoth(page, 'admin-org-05-import-row-error');
  await dismissToasts(page);
  await page
    .getByLabel('CSV files to import')
    .setInputFiles({ name: 'products-good.csv', mimeType: 'text/csv', buffer: Buffer.from(products.slice(0, 6).join('\n') + '\n') });
  await page.getByRole('button', { name: 'Upload and import' }).click();
  await page.getByText('Import finished.').waitFor();
  const result = page.getByRole('table', { name: 'Import result per file' });
  // Five known rows: the item whose price was edited above goes back to the file's price (updated), the rest are unchanged.
  const edited = products.slice(1, 6).some((l) => l.startsWith(`${item.code},`)) ? 1 : 0;
  expect(await result.getByRole('row').nth(1).textContent()).toBe(`products-good.csvItems (products)50${edited}${5 - edited}Imported`);
  await page.getByRole('progressbar', { name: 'Import progress' }).and(page.locator('[aria-valuenow="100"]')).waitFor();
  await snapBoth(page, 'admin-org-06-import-counts');
  await page.close();
}, 180_000);

it('super administrator: outlet dialog rules, boards, and a payment credential added, decrypted with the password and tested', async () => {
  const { baseUrl, t } = portal;
  const page = await browser.newPage({ viewport: DESKTOP });
  await signIn(page, baseUrl, 'admin@example.com');
  await page.goto(`${baseUrl}/admin`, { waitUntil: 'networkidle' });

  // Outlets: required fields and the state rule, then a created outlet.
  await page.getByRole('tab', { name: 'Outlets' }).click();
  await page.getByRole('button', { name: 'Add Outlet' }).click();
  await page.getByRole('button', { name: 'Create Outlet' }).click();
  await page.getByText('Outlet name is required').waitFor();
  await page.getByText('Outlet code is required').waitFor();
  const state = page.getByLabel('State');
  await state.fill('iowa');
  expect(await state.inputValue()).toBe('IO');
  await state.fill('i');
  await page.getByLabel('Outlet name *').fill('Journey Tavern');
  await page.getByLabel('Outlet code *').fill('JT-1');
  await page.getByLabel('Board *').selectOption({ label: 'Iowa Alcoholic Beverages Division' });
  await page.getByRole('button', { name: 'Create Outlet' }).click();
  await page.getByText('State must be exactly 2 letters (e.g., NY, CA)').waitFor();
  await snapBoth(page, 'admin-org-07-outlet-dialog');
  await state.fill('ia');
  await page.getByRole('button', { name: 'Create Outlet' }).click();
  await page.getByRole('cell', { name: 'JT-1' }).waitFor();
  expect(await t.db('outlets').where({ outlet_code: 'JT-1' }).first('state')).toEqual({ state: 'IA' });
  await dismissToasts(page);

  // Boards with their active store counts.
  await page.getByRole('tab', { name: 'Boards' }).click();
  await page.getByRole('table', { name: 'Boards' }).getByRole('cell', { name: 'Iowa Alcoholic Beverages Division', exact: true }).waitFor();
  await snapBoth(page, 'admin-org-08-boards');

  // Credentials: add Monetra credentials for store 2190, then decrypt them with the password.
  await page.getByRole('tab', { name: 'Credentials' }).click();
  await page.getByRole('button', { name: 'Add Credentials' }).click();
  await page.getByLabel('Find store').fill('central');
  await page.getByLabel('Store *').selectOption({ value: '2190' });
  await page.getByLabel('Secret name *').fill('portal-payment-credentials-v1');
  await page.getByLabel('Merchant username *').fill('merchant-2190');
  await page.getByLabel('Merchant password *').fill('journey-s3cret');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('table', { name: 'Payment credentials' }).getByText('CENTRAL CITY LIQUOR, INC.').waitFor();
  expect(await page.getByRole('table', { name: 'Payment credentials' }).textContent()).not.toContain('journey-s3cret');
  await dismissToasts(page);
  await page.getByRole('button', { name: 'Decrypt credentials of CENTRAL CITY LIQUOR, INC.' }).click();
  await page.getByLabel('Your current password').fill('wrong-password');
  await page.getByRole('button', { name: 'Decrypt', exact: true }).click();
  await page.getByText('The current password is not correct.').waitFor();
  await page.getByLabel('Your current password').fill(FIXTURE_PASSWORD);
  await page.getByRole('button', { name: 'Decrypt', exact: true }).click();
  await page
    .getByLabel('Decrypted payload')
    .getByText(/journey-s3cret/)
    .waitFor();
  await snapBoth(page, 'admin-org-09-credentials-decrypted');
  expect(await t.db('audit_log').where({ action: 'payment_credential.revealed' })).toHaveLength(1);
  await page.close();
}, 180_000);
