import bcrypt from 'bcrypt';
import { grantRole, grantRoleAtOutlets } from '@portal/seeds';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, FIXTURE_PASSWORD, MOBILE, launchBrowser, signIn, snap, startPortal, type Portal } from './harness';

/**
 * The administration journey of issue 12 in Chromium through the built SPA and the real API: a board
 * administrator opens Admin from the profile menu, finds a user in the Users tab, changes their outlets and
 * a role, saves and sees the toast, finds the change in the list; cannot edit themselves; the super
 * administrator flips a role permission (and back) in the Roles tab, reads the Audit tab and deletes a test
 * user through the Danger Zone. Walked at 1280 px and at 390 px; screenshots go to
 * screenshots/admin-users-*.png. The demo data has no board administrator: one is created here.
 */
jest.setTimeout(300_000);

let portal: Portal;
let browser: Browser;
type U = { id: string; email: string };
const users: Record<string, U> = {};

async function makeUser(key: string, email: string, role: string, outletCodes: string[], names: [string, string]) {
  const db = portal.t.db;
  const hash = await bcrypt.hash(FIXTURE_PASSWORD, 4);
  const [row] = await db('users').insert({ email, password_hash: hash }).returning('id');
  await db('user_profiles').insert({ user_id: row.id, first_name: names[0], last_name: names[1], full_name: names.join(' ') });
  const outletIds = await db('outlets').whereIn('outlet_code', outletCodes).pluck('id');
  await grantRoleAtOutlets(db, row.id, role, outletIds);
  users[key] = { id: row.id, email };
}

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
  await makeUser('boardAdmin', 'board-admin@example.com', 'board_admin', ['DEMO-DSM-01'], ['Bea', 'Board']);
  await makeUser('tara', 'tara.target@example.com', 'outlet_viewer', ['DEMO-DSM-01'], ['Tara', 'Target']);
  await makeUser('tom', 'tom.target@example.com', 'outlet_viewer', ['DEMO-DSM-01'], ['Tom', 'Target']);
  await makeUser('dana', 'dana.disposable@example.com', 'outlet_viewer', ['DEMO-AMS-01'], ['Dana', 'Disposable']);
  await makeUser('dave', 'dave.disposable@example.com', 'outlet_viewer', ['DEMO-AMS-01'], ['Dave', 'Disposable']);
  // Scoped grants (ARCHITECTURE §11): an outlet manager of Des Moines, and a person working there and in Davenport.
  await makeUser('om', 'olive.manager@example.com', 'outlet_manager', ['DEMO-DSM-01'], ['Olive', 'Manager']);
  await makeUser('shared', 'sam.shared@example.com', 'outlet_viewer', ['DEMO-DSM-01'], ['Sam', 'Shared']);
  const dav = (await portal.t.db('outlets').where({ outlet_code: 'DEMO-DAV-01' }).first('id'))!;
  await grantRole(portal.t.db, users.shared.id, 'outlet_buyer', [dav.id]);
});
afterAll(async () => {
  await browser?.close();
  await portal?.close();
});

async function openPage(viewport: { width: number; height: number }): Promise<{ page: Page; errors: string[] }> {
  const ctx = await browser.newContext({ viewport, locale: 'en-US', reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors };
}
async function toast(page: Page, text: string) {
  const t = page.locator('[data-sonner-toast]').filter({ hasText: text }).first();
  await t.waitFor();
  return t;
}
async function dismissToasts(page: Page) {
  for (const b of await page.locator('[data-sonner-toast] [data-close-button]').all()) await b.click().catch(() => undefined);
  await page
    .locator('[data-sonner-toast]')
    .first()
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
}
/** Polls `read` until it deep-equals `want` (5 s), then asserts it. */
async function eventually<T>(read: () => Promise<T>, want: T) {
  let got = await read();
  for (let i = 0; i < 50 && JSON.stringify(got) !== JSON.stringify(want); i++) {
    await new Promise((ok) => setTimeout(ok, 100));
    got = await read();
  }
  expect(got).toEqual(want);
}
const outletIdsOf = async (u: U) =>
  (
    await portal.t
      .db('user_outlets as uo')
      .join('outlets as o', 'o.id', 'uo.outlet_id')
      .where('uo.user_id', u.id)
      .orderBy('o.outlet_code')
      .select('o.outlet_code')
  ).map((r) => r.outlet_code);
const rolesOf = async (u: U) =>
  (
    await portal.t
      .db('role_grants as ur')
      .join('roles as r', 'r.id', 'ur.role_id')
      .where('ur.user_id', u.id)
      .orderBy('r.code')
      .distinct('r.code')
  ).map((r) => r.code);

/** Board administrator: Admin from the profile menu, find the user, change outlets and a role, save. */
async function boardAdminEdits(viewport: typeof DESKTOP | typeof MOBILE, target: U, search: string, fullName: string) {
  const { page, errors } = await openPage(viewport);
  await signIn(page, portal.baseUrl, users.boardAdmin.email);
  await page.locator('header [aria-haspopup="menu"]').last().click();
  await page.getByRole('menuitem', { name: 'Admin' }).click();
  await page.waitForURL(/\/admin$/);
  // Users is the first tab a board administrator sees (no Data Synch); no tab shows without its permission.
  await page.getByRole('tab', { name: 'Users', selected: true }).waitFor();
  expect(await page.getByRole('tab', { name: 'Data Synch' }).count()).toBe(0);
  await page.getByRole('tab', { name: 'Audit' }).waitFor();
  // The Users tab hosts the invitations feature: Invite User and the outlet requests / invitations panels.
  await page.getByRole('button', { name: 'Invite User' }).waitFor();
  await page.getByLabel('Search users').fill(search);
  const link = page.getByRole('link', { name: fullName });
  await link.first().waitFor();
  // The search (300 ms debounce) narrows the list to the match.
  await page.getByText('Val Viewer').first().waitFor({ state: 'detached' });
  await snap(page, 'admin-users-list');
  await link.first().click();
  await page.waitForURL(new RegExp(`/admin/users/${target.id}$`));
  await page.getByRole('heading', { name: 'Edit User' }).waitFor();
  const save = page.getByRole('button', { name: 'Save Changes' });
  expect(await save.isDisabled()).toBe(true);
  // The system admin outlet is not offered outside super administration; the board's outlets are.
  // Outlets are picked through the searchable picker (issue 26 §4).
  await page.getByLabel('Outlets', { exact: true }).click();
  await page.getByRole('combobox', { name: 'Search outlets' }).fill('Campustown');
  await page.getByRole('option', { name: /Demo – Campustown Bistro/ }).click();
  await page.keyboard.press('Escape');
  expect(await save.isDisabled()).toBe(false);
  // A phone belongs to one active account (issue 26 §7): each width gives its target its own number.
  const phone = viewport === DESKTOP ? '0123' : '0124';
  await page.getByLabel('Phone Number').fill(`(515) 555-${phone}`);
  // A role is added at once (its own request), then the rest goes out with Save Changes.
  await page.getByLabel('Role to add').selectOption({ label: 'Outlet Buyer' });
  await page.getByRole('button', { name: 'Add role' }).click();
  await page.getByRole('list', { name: 'Assigned roles' }).getByText('Outlet Buyer').first().waitFor();
  await eventually(() => rolesOf(target), ['outlet_buyer', 'outlet_viewer']);
  await page.evaluate(() => window.scrollTo(0, 0));
  await snap(page, 'admin-users-edit');
  await save.click();
  await toast(page, 'User information updated successfully');
  await page.evaluate(() => window.scrollTo(0, 0));
  await snap(page, 'admin-users-saved');
  await dismissToasts(page);
  expect(await outletIdsOf(target)).toEqual(['DEMO-AMS-01', 'DEMO-DSM-01']);
  expect((await portal.t.db('user_profiles').where({ user_id: target.id }).first())!.phone).toBe(`+1515555${phone}`);
  expect(await save.isDisabled()).toBe(true);
  // Removing a role applies at once too.
  await page.getByRole('button', { name: 'Remove Outlet Viewer · Demo – Court Avenue Taproom' }).click();
  await eventually(() => rolesOf(target), ['outlet_buyer']);
  // Back on the Users tab (Back arrow), the list shows the saved roles.
  await page.getByRole('button', { name: 'Back to users' }).click();
  await page.waitForURL(/\/admin$/);
  await page.getByRole('tab', { name: 'Users', selected: true }).waitFor();
  await page.getByLabel('Search users').fill(search);
  await page.getByText('Val Viewer').first().waitFor({ state: 'detached' });
  const rowOf =
    viewport.width >= 768
      ? page.getByRole('row', { name: new RegExp(fullName) })
      : page.getByRole('listitem').filter({ hasText: fullName });
  await rowOf.getByText('Outlet Buyer').first().waitFor();
  expect(await rowOf.getByText('Outlet Viewer').count()).toBe(0);
  // A board administrator cannot edit their own account.
  await page.goto(`${portal.baseUrl}/admin/users/${users.boardAdmin.id}`);
  await page.getByText('You cannot edit your own account settings. Only super administrators can edit their own accounts.').waitFor();
  await snap(page, 'admin-users-denied');
  await page.getByRole('button', { name: 'Back to Admin' }).click();
  await page.waitForURL(/\/admin$/);
  expect(errors).toEqual([]);
  await page.context().close();
}

/** Super administrator: Roles and Audit tabs, then Danger Zone → delete a test user. */
async function superAdminDeletes(viewport: typeof DESKTOP | typeof MOBILE, target: U, fullName: string) {
  const { page, errors } = await openPage(viewport);
  await signIn(page, portal.baseUrl, 'admin@example.com');
  await page.goto(`${portal.baseUrl}/admin`);
  await page.getByRole('tab', { name: 'Roles' }).click();
  await page.getByRole('switch', { name: 'bcc.users.super_admin' }).waitFor();
  await snap(page, 'admin-users-roles');
  // A permission switch applies at once (and is switched back).
  if (viewport.width >= 768)
    await page
      .getByRole('navigation', { name: 'Roles' })
      .getByRole('button', { name: /Outlet Viewer/ })
      .click();
  else await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Outlet Viewer (level 60)' });
  const checkout = page.getByRole('switch', { name: 'bcc.carts.checkout' });
  expect(await checkout.getAttribute('aria-checked')).toBe('false');
  await checkout.click();
  await toast(page, 'Permission updated');
  expect(
    await portal.t
      .db('role_permissions as rp')
      .join('roles as r', 'r.id', 'rp.role_id')
      .join('permissions as p', 'p.id', 'rp.permission_id')
      .where({ 'r.code': 'outlet_viewer', 'p.code': 'bcc.carts.checkout' })
      .first('rp.role_id'),
  ).toBeDefined();
  await dismissToasts(page);
  await checkout.click();
  await toast(page, 'Permission updated');
  await dismissToasts(page);
  expect(await checkout.getAttribute('aria-checked')).toBe('false');
  await page.getByRole('tab', { name: 'Audit' }).click();
  await page.getByRole('list', { name: 'Audit entries' }).waitFor();
  await snap(page, 'admin-users-audit');
  await page.goto(`${portal.baseUrl}/admin/users/${target.id}`);
  await page.getByText('Danger Zone').waitFor();
  await page.getByRole('button', { name: 'Delete User' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Are you absolutely sure?' });
  await dialog.waitFor();
  await dialog.getByText(target.email).waitFor();
  // The dialog as the viewer sees it (viewport, not the full page).
  await page.screenshot({ path: `screenshots/admin-users-delete-dialog-${viewport.width}.png` });
  await dialog.getByRole('button', { name: 'Yes, delete user' }).click();
  await toast(page, 'User deleted successfully');
  await page.waitForURL(/\/admin$/);
  await page.getByRole('tab', { name: 'Users', selected: true }).waitFor();
  expect(await portal.t.db('users').where({ id: target.id }).first()).toBeUndefined();
  await page.getByLabel('Search users').fill(fullName.split(' ')[0]);
  await page.getByText('No users found').waitFor();
  expect(errors).toEqual([]);
  await page.context().close();
}

it('at 1280 px: a board administrator edits a user; the super administrator deletes one', async () => {
  await boardAdminEdits(DESKTOP, users.tara, 'tara', 'Tara Target');
  await superAdminDeletes(DESKTOP, users.dana, 'Dana Disposable');
});

it('at 390 px: the same journey', async () => {
  await boardAdminEdits(MOBILE, users.tom, 'tom.target@', 'Tom Target');
  await superAdminDeletes(MOBILE, users.dave, 'Dave Disposable');
});

/**
 * Scoped grants (issue 22): the invite dialog asks for stores when a store-level role is chosen; an outlet
 * manager sees a person's grants with where they are held, changes only those at their outlet, and leaves the
 * profile of someone who also works elsewhere alone.
 */
async function scopedGrants(viewport: typeof DESKTOP | typeof MOBILE, email: string) {
  const { page, errors } = await openPage(viewport);
  await signIn(page, portal.baseUrl, 'admin@example.com');
  await page.goto(`${portal.baseUrl}/admin`);
  await page.getByRole('tab', { name: 'Users' }).click();
  await page.getByRole('button', { name: 'Invite User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send User Invitation' });
  await dialog.getByLabel('First Name').fill('Stella');
  await dialog.getByLabel('Last Name').fill('Store');
  await dialog.getByLabel('Email Address').fill(email);
  await dialog.getByLabel(/^Store Manager/).check();
  await dialog.getByText('Select Stores').waitFor();
  await dialog.getByLabel('Select Stores').click();
  await dialog.getByRole('combobox', { name: 'Search stores' }).fill('CENTRAL CITY');
  await dialog.getByRole('option', { name: /^CENTRAL CITY LIQUOR/ }).click();
  await page.keyboard.press('Escape');
  await page.screenshot({ path: `screenshots/admin-invite-store-role-${viewport.width}.png` });
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  await toast(page, 'Invitation Sent');
  const inv = await portal.t.db('invitations').where({ email }).first('store_ids', 'outlet_ids');
  expect(inv).toEqual({ store_ids: [2190], outlet_ids: [] });
  await page.context().close();

  const om = await openPage(viewport);
  await signIn(om.page, portal.baseUrl, users.om.email);
  await om.page.goto(`${portal.baseUrl}/admin/users/${users.shared.id}`);
  await om.page.getByRole('heading', { name: 'Edit User' }).waitFor();
  const list = om.page.getByRole('list', { name: 'Assigned roles' });
  await list.getByText('at Demo – Court Avenue Taproom').waitFor();
  await list.getByText('at Demo – Riverfront Oyster Bar').waitFor();
  expect(await list.getByText('read-only').count()).toBe(1);
  await om.page.getByText("This person also works at places you don't manage").waitFor();
  expect(await om.page.getByLabel('First Name *').getAttribute('readonly')).not.toBeNull();
  await snap(om.page, 'admin-users-scoped-grants');
  expect([...errors, ...om.errors]).toEqual([]);
  await om.page.context().close();
}

it('at 1280 and 390 px: store roles are invited at stores; grants elsewhere are read-only', async () => {
  await scopedGrants(DESKTOP, 'stella.store@example.com');
  await scopedGrants(MOBILE, 'stella.mobile@example.com');
});
