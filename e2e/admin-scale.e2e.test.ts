import { mkdirSync } from 'node:fs';
import bcrypt from 'bcrypt';
import { grantRoleAtOutlets } from '@portal/seeds';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, FIXTURE_PASSWORD, MOBILE, afterResize, launchBrowser, signIn, snap, startPortal, type Portal } from './harness';

/**
 * Administration at scale (issue 26) in Chromium through the built SPA and the real API: the super
 * administrator filters the Users list (search and status in the URL), selects rows, deactivates them in bulk
 * through the confirmation that states the count, reads the per-item outcome, and finds the list where it
 * was (page, search) after opening a user and going Back. Walked at 1280 px (a table) and at 390 px (cards,
 * no sideways scrolling). Screenshots: screenshots/admin-scale-*.png and /work/shots/h1/ when it exists.
 */
jest.setTimeout(300_000);

let portal: Portal;
let browser: Browser;
const SHOTS = process.env.H1_SHOTS_DIR ?? '/work/shots/h1';

async function makeUsers(prefix: string, n: number): Promise<string[]> {
  const db = portal.t.db;
  const hash = await bcrypt.hash(FIXTURE_PASSWORD, 4);
  const outlet = (await db('outlets').where({ outlet_code: 'DEMO-DSM-01' }).first('id'))!;
  const ids: string[] = [];
  for (let i = 1; i <= n; i++) {
    const num = String(i).padStart(2, '0');
    const [row] = await db('users')
      .insert({ email: `${prefix}-${num}@example.com`, password_hash: hash })
      .returning('id');
    await db('user_profiles').insert({
      user_id: row.id,
      first_name: 'Bulk',
      last_name: `${prefix} ${num}`,
      full_name: `Bulk ${prefix} ${num}`,
    });
    await grantRoleAtOutlets(db, row.id, 'outlet_viewer', [outlet.id]);
    ids.push(row.id);
  }
  return ids;
}

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await portal?.close();
});

async function shot(page: Page, name: string) {
  await snap(page, `admin-scale-${name}`);
  try {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/admin-scale-${name}-${page.viewportSize()?.width}.png`, fullPage: true });
  } catch {
    /* the shots folder is optional */
  }
}

async function bulkDeactivate(viewport: typeof DESKTOP | typeof MOBILE, prefix: string) {
  const ids = await makeUsers(prefix, 6);
  const ctx = await browser.newContext({ viewport, locale: 'en-US', reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, portal.baseUrl, 'admin@example.com');
  await page.goto(`${portal.baseUrl}/admin?tab=users&size=50`);
  await page.getByLabel('Search users').fill(prefix);
  await page.waitForURL(new RegExp(`q=${prefix}`));
  await page.getByText(`${prefix}-06@example.com`).first().waitFor();
  await afterResize(page);
  await shot(page, 'users-list');
  // No sideways scrolling at either width: the table (1280) or the cards (390) fit the window.
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((e) => `${e.tagName}.${e.className}`.slice(0, 120)),
  );
  expect(wide).toEqual([]);

  // Select four of the six, then deactivate them after the confirmation that states the count.
  for (const n of ['01', '02', '03', '04']) await page.getByRole('checkbox', { name: `Select Bulk ${prefix} ${n}` }).click();
  const bar = page.getByRole('region', { name: 'Bulk actions' });
  await bar.getByText('4 users selected').waitFor();
  await bar.getByRole('button', { name: 'Deactivate' }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByText('Deactivate 4 users?').waitFor();
  await page.screenshot({ path: `screenshots/admin-scale-confirm-${viewport.width}.png` });
  try {
    await page.screenshot({ path: `${SHOTS}/admin-scale-confirm-${viewport.width}.png` });
  } catch {
    /* optional */
  }
  await dialog.getByRole('button', { name: 'Deactivate (4)' }).click();
  await page.getByRole('status').filter({ hasText: '4 deactivated' }).waitFor();
  const active = await portal.t.db('users').whereIn('id', ids).orderBy('email').pluck('is_active');
  expect(active).toEqual([false, false, false, false, true, true]);
  const audits = await portal.t
    .db('audit_log')
    .where({ action: 'user.deactivated' })
    .whereIn('entity_id', ids)
    .count<{ n: string }[]>('* as n');
  expect(Number(audits[0].n)).toBe(4);
  await shot(page, 'users-after-bulk');

  // The status filter narrows to the deactivated ones; the state stays in the URL through Edit User and Back.
  await page.getByLabel('Status', { exact: true }).selectOption('inactive');
  await page.waitForURL(/status=inactive/);
  await page.getByText(`${prefix}-05@example.com`).first().waitFor({ state: 'detached' });
  await page
    .getByRole('link', { name: `Bulk ${prefix} 01` })
    .first()
    .click();
  await page.waitForURL(new RegExp(`/admin/users/${ids[0]}$`));
  await page.goBack();
  await page.waitForURL(/status=inactive/);
  expect(await page.getByLabel('Search users').inputValue()).toBe(prefix);
  await page.getByText(`${prefix}-04@example.com`).first().waitFor();
  expect(errors).toEqual([]);
  await ctx.close();
}

it('at 1280 px: bulk deactivate from the users list, with the list state kept in the URL', async () => {
  await bulkDeactivate(DESKTOP, 'wide');
});

it('at 390 px: the same journey on cards', async () => {
  await bulkDeactivate(MOBILE, 'narrow');
});

it('the stores, outlets and items lists sort, filter and page at 1280 px and become cards at 390 px', async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP, locale: 'en-US', reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, portal.baseUrl, 'admin@example.com');
  for (const [tab, label, header] of [
    ['stores', 'Stores', 'City'],
    ['outlets', 'Outlets', 'Name'],
    ['items', 'Items', 'Price'],
  ] as const) {
    await page.setViewportSize(DESKTOP);
    await afterResize(page);
    await page.goto(`${portal.baseUrl}/admin?tab=${tab}`);
    const table = page.getByRole('table', { name: label });
    await table.waitFor();
    // Sorting by a header goes to the server and into the URL (aria-sort follows).
    await table.getByRole('button', { name: header }).click();
    await page.waitForURL(/sort=/);
    await table.locator('th[aria-sort="ascending"], th[aria-sort="descending"]').filter({ hasText: header }).waitFor();
    await page.getByRole('navigation', { name: 'Pagination' }).getByLabel('Rows per page').selectOption('50');
    await page.waitForURL(/size=50/);
    await shot(page, `${tab}-list`);
    await page.setViewportSize(MOBILE);
    await afterResize(page);
    await page.getByRole('list', { name: label }).waitFor();
    const wide = await page.evaluate(
      () => [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).length,
    );
    expect([tab, wide]).toEqual([tab, 0]);
    await shot(page, `${tab}-list`);
  }
  expect(errors).toEqual([]);
  await ctx.close();
});
