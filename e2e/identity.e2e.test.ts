import type { Browser, Page } from 'playwright-core';
import { DESKTOP, FIXTURE_PASSWORD, MOBILE, launchBrowser, signIn, snap, startPortal, waitForFocus, type Portal } from './harness';

/**
 * The identity journey of issue 3 in Chromium through the built SPA and the real API: sign-in
 * validation messages, a refused sign-in, sign in as the buyer, switch outlet and store in the profile
 * menu, save Edit Profile, log out, forgot password → the link from the captured mail → a new password
 * → sign in with it → log out. Walked at 1280 px and again at 390 px (each walk sets the next password);
 * screenshots go to screenshots/identity-*.png.
 */
jest.setTimeout(300_000);

const EMAIL = 'buyer@example.com';
let portal: Portal;
let browser: Browser;
let password = FIXTURE_PASSWORD;
beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
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

/** Waits for a toast with this title (and description) and closes it so the next screenshot is clean. */
async function toast(page: Page, title: string, description?: string | RegExp) {
  const t = page.locator('[data-sonner-toast]').filter({ hasText: title }).first();
  await t.waitFor();
  if (description) await t.getByText(description).waitFor();
  return t;
}
async function dismissToasts(page: Page) {
  const close = page.locator('[data-sonner-toast] [data-close-button]');
  for (const b of await close.all()) await b.click().catch(() => undefined);
  await page
    .locator('[data-sonner-toast]')
    .first()
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
}

const menuButton = (page: Page) => page.locator('header [aria-haspopup="menu"]').last();
async function openMenu(page: Page) {
  await menuButton(page).click();
  await page.getByRole('menu').waitFor();
}
/** The first selectable (not current, not the section toggle) choice of a menu section. */
async function otherChoice(page: Page, section: 'OUTLETS' | 'STORES') {
  const group = page.getByRole('group', { name: section });
  const toggle = group.locator('[role=menuitem][aria-expanded="false"]');
  if (await toggle.count()) await toggle.click();
  const items = group.locator('[role=menuitem]:not([aria-expanded]):not([aria-disabled="true"])');
  if (!(await items.count())) return null;
  const item = items.first();
  const label = (await item.locator('[data-choice-label]').innerText()).trim();
  return { item, label };
}

/** Switches to another outlet in the profile menu and waits for the toast and the header. */
async function switchOutlet(page: Page) {
  await openMenu(page);
  const outlet = (await otherChoice(page, 'OUTLETS'))!;
  await outlet.item.click();
  await toast(page, 'Outlet switched', `Now viewing ${outlet.label}`);
  await page.getByTestId('outlet-display').filter({ hasText: outlet.label }).waitFor();
  return outlet.label;
}

/** The newest password-reset link the mailer received for `to`, rebased on the portal's address. */
async function resetLinkFor(to: string, after: number): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const mail = portal.t.mail
      .slice(after)
      .reverse()
      .find((m) => m.to === to && m.template === 'password_reset');
    const link = mail?.text.match(/https?:\/\/\S+#token=[\w-]+/)?.[0];
    if (link) {
      const u = new URL(link);
      return `${portal.baseUrl}${u.pathname}${u.search}${u.hash}`;
    }
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`no password reset mail for ${to}`);
}

async function walk(viewport: { width: number; height: number }, nextPassword: string) {
  const { page, errors } = await openPage(viewport);
  const base = portal.baseUrl;

  // The sign-in screen and its validation messages.
  await page.goto(`${base}/auth`);
  await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  await snap(page, 'identity-01-sign-in');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByText('You must provide either an email or phone number and a password').waitFor();
  await page.getByText('Password is required').waitFor();
  expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
  await snap(page, 'identity-02-sign-in-validation');

  // A wrong password is refused with the server's message.
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password', { exact: true }).fill('Not-the-password1!');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await toast(page, 'Login Failed', 'Invalid email or password.');
  await snap(page, 'identity-03-sign-in-refused');
  await dismissToasts(page);

  // Sign in as the buyer: /shop with the board, the outlet and the profile menu.
  await signIn(page, base, EMAIL, password);
  const outletDisplay = page.getByTestId('outlet-display');
  await outletDisplay.filter({ hasText: /Demo/ }).waitFor();
  expect(await menuButton(page).innerText()).toContain('Blake');

  // Profile menu: switch outlet.
  await openMenu(page);
  await page.getByRole('group', { name: 'OUTLETS' }).waitFor();
  await page.getByRole('menuitem', { name: 'Log Out' }).waitFor();
  await page.screenshot({ path: `screenshots/identity-04-profile-menu-${viewport.width}.png` });
  await page.keyboard.press('Escape');
  await switchOutlet(page);
  await snap(page, 'identity-05-outlet-switched');
  await dismissToasts(page);

  // Profile menu: switch store (the Des Moines outlet has one active store: then go back to Ames first).
  await openMenu(page);
  await page.getByRole('group', { name: 'STORES' }).locator('[role=menuitem][aria-current="true"]').waitFor();
  let store = await otherChoice(page, 'STORES');
  if (!store) {
    await page.keyboard.press('Escape');
    await switchOutlet(page);
    await dismissToasts(page);
    await openMenu(page);
    await page.getByRole('group', { name: 'STORES' }).locator('[role=menuitem][aria-current="true"]').waitFor();
    store = (await otherChoice(page, 'STORES'))!;
  }
  await store.item.click();
  await toast(page, 'Store switched', `Now shopping from ${store.label}`);
  await openMenu(page);
  expect(await page.getByRole('group', { name: 'STORES' }).locator('[role=menuitem][aria-current="true"]').innerText()).toContain(
    store.label,
  );
  await page.screenshot({ path: `screenshots/identity-06-store-switched-${viewport.width}.png` });

  // Edit Profile: change the phone and save.
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  await page.waitForURL(/\/profile$/);
  await page.getByRole('heading', { level: 1, name: 'Edit Profile' }).waitFor();
  await page.getByRole('heading', { name: 'My Roles' }).waitFor();
  await page.getByText('Outlet Buyer').first().waitFor();
  await page.locator('#my-outlets').getByRole('listitem').first().waitFor();
  await dismissToasts(page);
  await snap(page, 'identity-07-edit-profile');
  const phone = viewport.width > 500 ? '(515) 555-0199' : '(515) 555-0123';
  await page.getByLabel('Phone').fill(phone);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await toast(page, 'Profile updated', 'Your profile has been successfully updated.');
  const stored = await portal.t.db('user_profiles as p').join('users as u', 'u.id', 'p.user_id').where('u.email', EMAIL).first('p.phone');
  // Stored in E.164 (issue 26 §7: the phone one may sign in with).
  expect(stored.phone).toBe(`+1${phone.replace(/\D/g, '')}`);
  await page.getByRole('button', { name: /Request more Outlets/ }).click();
  await page.getByRole('button', { name: 'Submit Request' }).waitFor();
  expect(await page.getByRole('button', { name: 'Submit Request' }).isDisabled()).toBe(true);
  await page.getByRole('link', { name: 'My Outlets' }).click();
  await page.waitForFunction(() => document.querySelector('a[href="#my-outlets"]')?.getAttribute('aria-current') === 'location');
  await page.screenshot({ path: `screenshots/identity-08-edit-profile-request-outlets-${viewport.width}.png` });
  await page.getByRole('button', { name: 'Cancel' }).click();
  await dismissToasts(page);

  // Log out.
  await openMenu(page);
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await toast(page, 'Logged out successfully', 'You have been successfully logged out');
  await page.waitForURL(/\/auth$/);
  await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  await dismissToasts(page);

  // Forgot password → Check your email.
  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
  await snap(page, 'identity-09-forgot');
  const mailsBefore = portal.t.mail.length;
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  await page.getByText(EMAIL).waitFor();
  await snap(page, 'identity-10-check-email');

  // The link from the mail opens reset mode; the URL is cleaned to /auth.
  const link = await resetLinkFor(EMAIL, mailsBefore);
  await page.goto(link);
  await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
  await page.waitForURL(/\/auth$/);
  expect(page.url()).not.toContain('token');
  await page.getByLabel('New Password').fill(nextPassword);
  expect(await page.locator('li[data-met="true"]').count()).toBe(5);
  await page.getByLabel('Confirm Password').fill(nextPassword);
  await snap(page, 'identity-11-reset-password');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await toast(page, 'Password updated successfully', 'Please log in with your new password.');
  await page.waitForURL(/\/auth\?mode=login$/);
  await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  await snap(page, 'identity-12-reset-done');
  await dismissToasts(page);

  // The used link is refused now.
  await page.goto(link);
  await page.getByLabel('New Password').fill(`${nextPassword}x`);
  await page.getByLabel('Confirm Password').fill(`${nextPassword}x`);
  await page.getByRole('button', { name: 'Update Password' }).click();
  await toast(page, 'Password reset failed');
  await page.getByRole('heading', { name: 'Invalid or Expired Reset Link' }).waitFor();
  await snap(page, 'identity-13-reset-link-used');
  await dismissToasts(page);

  // Sign in with the new password, then log out.
  await signIn(page, base, EMAIL, nextPassword);
  password = nextPassword;
  await openMenu(page);
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await page.waitForURL(/\/auth$/);
  await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();

  // Signed out, a guarded page sends the person to /auth.
  await page.goto(`${base}/profile`);
  await page.waitForURL(/\/auth$/);

  expect(errors).toEqual([]);
  await page.context().close();
}

it('buyer at 1280 px: validation, sign in, switch outlet and store, Edit Profile, log out, reset by mail, sign in again', async () => {
  await walk(DESKTOP, 'Amber-Cask#7319');
});

it('buyer at 390 px: the same journey on a phone', async () => {
  await walk(MOBILE, 'Oak-Barrel#5824');
});

it('admin on a small phone: the gated items, System default outlet, w-72 and scroll buttons moving 70 %; w-64 at 1280 px', async () => {
  const { page, errors } = await openPage({ width: 390, height: 640 });
  await signIn(page, portal.baseUrl, 'admin@example.com');
  await page.getByTestId('outlet-display').filter({ hasNotText: 'Loading outlet...' }).waitFor();
  await openMenu(page);
  const menu = page.getByRole('menu');
  for (const name of [
    'Shop',
    'My Cart',
    'My Orders',
    'Pricing Calculator',
    'Manage Store Orders',
    'Invite User',
    'Admin',
    'Edit Profile',
    'Log Out',
  ]) {
    expect(await menu.getByRole('menuitem', { name, exact: true }).count()).toBe(1);
  }
  expect(await menu.getByRole('menuitem', { name: /System default outlet/ }).count()).toBe(1);
  expect((await menu.boundingBox())!.width).toBe(288);

  const viewport = page.getByTestId('menu-viewport');
  const visible = await viewport.evaluate((el) => el.clientHeight);
  expect(await viewport.evaluate((el) => el.scrollHeight)).toBeGreaterThan(visible);
  await page.getByRole('button', { name: 'Scroll down' }).click();
  // One step is 70 % of the visible height, unless the end of the list comes first.
  await page.waitForFunction((h) => {
    const el = document.querySelector('[data-testid="menu-viewport"]');
    return el !== null && el.clientHeight === h && Math.abs(el.scrollTop - Math.min(0.7 * h, el.scrollHeight - h)) < 2;
  }, visible);
  await page.getByRole('button', { name: 'Scroll up' }).waitFor();
  await page.screenshot({ path: 'screenshots/identity-14-admin-menu-scrolled-390.png' });

  await menu.getByRole('menuitem', { name: 'Invite User' }).click();
  await page.getByRole('dialog', { name: 'Send User Invitation' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await page.setViewportSize(DESKTOP);
  await openMenu(page);
  expect((await page.getByRole('menu').boundingBox())!.width).toBe(256);
  await page.screenshot({ path: 'screenshots/identity-14-admin-menu-1280.png' });
  expect(errors).toEqual([]);
  await page.context().close();
});

it('a user without outlet access: the header says No outlet assigned and the menu No outlets available', async () => {
  for (const vp of [DESKTOP, MOBILE]) {
    const { page, errors } = await openPage(vp);
    await signIn(page, portal.baseUrl, 'noroles@example.com');
    await page.getByTestId('outlet-display').filter({ hasText: 'No outlet assigned' }).waitFor();
    await openMenu(page);
    await page.getByRole('menu').getByText('No outlets available').waitFor();
    await page.getByRole('menu').getByText('Select an outlet first').waitFor();
    await page.screenshot({ path: `screenshots/identity-15-no-outlets-${vp.width}.png` });
    expect(await page.getByRole('menuitem', { name: 'Admin', exact: true }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  }
});

it('keyboard only: Tab through the sign-in form, Enter signs in, the menu opens with Enter and Escape returns focus', async () => {
  const { page, errors } = await openPage(DESKTOP);
  await page.goto(`${portal.baseUrl}/auth`);
  await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el?.getAttribute('aria-label') || el?.id || el?.textContent?.trim() || '';
    });
  const order: string[] = [];
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    order.push(await focused());
  }
  expect(order).toEqual(['Liquor Ordering Portal', 'login-email', 'login-password', 'Show password', 'Forgot Password?', 'Sign In']);
  await page.getByLabel('Email').focus();
  await page.keyboard.type('manager@example.com');
  await page.keyboard.press('Tab');
  await page.keyboard.type(FIXTURE_PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/shop/);
  await page.getByTestId('outlet-display').filter({ hasNotText: 'Loading outlet...' }).waitFor();

  await menuButton(page).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menu').waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitem');
  await page.screenshot({ path: 'screenshots/identity-16-menu-keyboard-1280.png' });
  await page.keyboard.press('Escape');
  await page.getByRole('menu').waitFor({ state: 'detached' });
  await waitForFocus(menuButton(page));
  expect(errors).toEqual([]);
  await page.context().close();
});
