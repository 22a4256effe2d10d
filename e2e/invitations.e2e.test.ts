import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { createApp } from '../apps/api/src/app';
import { createTestContext, type TestContext } from '../apps/api/src/test/harness';
import { seedFixtures, type Fixtures } from '../apps/api/src/test/fixtures';
import { createTransport, deliver } from '../apps/api/src/jobs/mail';
import { renderMail } from '../apps/api/src/lib/mail/render';
import { DESKTOP, MOBILE, launchBrowser, signIn, snap } from './harness';

/**
 * The onboarding journey of issue 11 in Chromium through the built SPA and the real API: an administrator
 * invites a new person with a role and an outlet from the profile menu; the link is taken from the written
 * .eml file; the person accepts, signs in and sees that outlet; a buyer requests an outlet and an
 * administrator approves it from the profile menu's Outlet Requests. Walked at 1280 px and at 390 px;
 * screenshots go to screenshots/invitations-*.png.
 */
jest.setTimeout(300_000);

let t: TestContext;
let f: Fixtures;
let server: Server;
let baseUrl: string;
let browser: Browser;

beforeAll(async () => {
  // Mail is written as .eml files (as `npm start` without SMTP does), not captured in memory.
  const holder: { t?: TestContext } = {};
  t = await createTestContext({
    env: { PUBLIC_URL: '' },
    mailer: {
      enqueue: async (db, m) => {
        const c = holder.t!.config;
        const msg = await renderMail({ db, config: c }, m);
        if (msg) await deliver(c, holder.t!.ctx.logger, createTransport(c), msg);
      },
    },
  });
  holder.t = t;
  f = await seedFixtures(t.db);
  const app = createApp(t.ctx, { webDir: 'dist/web' });
  server = await new Promise((ok) => {
    const s = app.listen(0, '127.0.0.1', () => ok(s));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((ok) => server?.close(ok));
  await t?.close();
});

/** The invitation link in the newest .eml file to `to` (quoted-printable decoded). */
function mailedLink(to: string): string {
  const dir = join(t.config.dataDir, 'mail');
  const files = readdirSync(dir)
    .filter((n) => n.endsWith('.eml'))
    .sort()
    .reverse();
  for (const name of files) {
    const raw = readFileSync(join(dir, name), 'utf8');
    if (!new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'im').test(raw)) continue;
    const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
    const link = /(https?:\/\/\S+\/invitation\/accept\?inv=[A-Za-z0-9_-]+)/.exec(text)?.[1];
    if (link) return link;
  }
  throw new Error(`no invitation mail to ${to}`);
}

async function openPage(viewport: {
  width: number;
  height: number;
}): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const ctx = await browser.newContext({ viewport, locale: 'en-US', reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors, close: () => ctx.close() };
}
/** A viewport screenshot (dialogs are judged as the person sees them, not over a full-length page). */
async function snapView(page: Page, name: string) {
  mkdirSync('screenshots', { recursive: true });
  await page.screenshot({ path: `screenshots/${name}-${page.viewportSize()?.width ?? 0}.png` });
}
async function toast(page: Page, title: string) {
  await page.locator('[data-sonner-toast]').filter({ hasText: title }).first().waitFor();
}
async function dismissToasts(page: Page) {
  for (const b of await page.locator('[data-sonner-toast] [data-close-button]').all()) await b.click().catch(() => undefined);
  await page
    .locator('[data-sonner-toast]')
    .first()
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
}
async function menuItem(page: Page, name: string) {
  await page.locator('header [aria-haspopup="menu"]').last().click();
  await page.getByRole('menu').waitFor();
  await page.getByRole('menuitem', { name }).click();
}

/** Admin invites `email` as an Outlet Buyer of the Des Moines outlet from the profile menu. */
async function inviteFromMenu(page: Page, email: string, shot: string) {
  await menuItem(page, 'Invite User');
  const dialog = page.getByRole('dialog', { name: 'Send User Invitation' });
  await dialog.waitFor();
  await dialog.getByText('Select user roles to see available outlets.').waitFor();
  expect(await dialog.getByRole('button', { name: 'Send Invitation' }).isDisabled()).toBe(true);
  await dialog.getByLabel('First Name').fill('Ivy');
  await dialog.getByLabel('Last Name').fill('Invitee');
  await dialog.getByLabel('Email Address').fill(email);
  await dialog.getByRole('checkbox', { name: /Outlet Buyer/ }).click();
  await dialog.getByLabel('Select Outlets').click();
  await dialog.getByRole('option', { name: /Demo – Court Avenue Taproom/ }).click();
  await page.keyboard.press('Escape');
  await snapView(page, shot);
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  await toast(page, 'Invitation Sent');
  await dialog.waitFor({ state: 'detached' });
  await dismissToasts(page);
}

/** The invitee opens the mailed link, creates the account, signs in and finds the outlet in the header. */
async function acceptAndSignIn(viewport: typeof DESKTOP | typeof MOBILE, email: string, shot: string) {
  const { page, errors, close } = await openPage(viewport);
  await page.goto(mailedLink(email));
  await page.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
  expect(await page.locator('header').count()).toBe(0);
  await page.getByLabel('Password', { exact: true }).fill('Welcome#2026x');
  await page.getByLabel('Confirm Password').fill('Welcome#2026');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByText("Passwords don't match").waitFor();
  await page.getByLabel('Confirm Password').fill('Welcome#2026x');
  // Each invitee a phone of their own: a sign-in phone is unique among active accounts (409 phone_taken).
  await page.getByLabel('Phone (optional)').fill(viewport.width < 768 ? '(515) 555-0101' : '(515) 555-0100');
  await snap(page, `${shot}-form`);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByRole('heading', { name: 'Invitation accepted' }).waitFor();
  await snap(page, `${shot}-accepted`);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.waitForURL(/\/auth/);
  await signIn(page, baseUrl, email, 'Welcome#2026x');
  await page.locator('header').getByText('Demo – Court Avenue Taproom').first().waitFor();
  // The used link now shows the spec's message.
  await page.goto(mailedLink(email));
  await page.getByRole('alert').getByText('This invitation has already been used.', { exact: false }).waitFor();
  await snap(page, `${shot}-used`);
  expect(errors).toEqual([]);
  await close();
}

/** The buyer asks for `outletName` on Edit Profile. */
async function requestOutlet(viewport: typeof DESKTOP | typeof MOBILE, email: string, outletName: string) {
  const { page, close } = await openPage(viewport);
  await signIn(page, baseUrl, email);
  await page.goto(`${baseUrl}/profile`);
  await page.getByRole('button', { name: 'Request more Outlets' }).click();
  await page.getByRole('radio', { name: new RegExp(outletName) }).click();
  await page.getByRole('button', { name: 'Submit Request' }).click();
  await toast(page, 'Request submitted successfully');
  await close();
}

describe('invitations journey', () => {
  it.each([
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
  ] as const)('at %s: invite, accept from the mailed link, sign in; a requested outlet approved', async (_name, viewport) => {
    const invitee = `ivy-${viewport.width}@example.com`;
    const { page: admin, errors, close } = await openPage(viewport);
    await signIn(admin, baseUrl, 'admin@example.com');
    await inviteFromMenu(admin, invitee, 'invitations-dialog');

    await acceptAndSignIn(viewport, invitee, 'invitations-accept');
    const user = (await t.db('users').where({ email: invitee }).first())!;
    expect(await t.db('user_outlets').where({ user_id: user.id }).pluck('outlet_id')).toEqual([f.outlets.dsm]);

    // A buyer asks for an outlet; the administrator approves it from the profile menu.
    const [buyer, outletName, outletId] =
      viewport === DESKTOP
        ? ['buyer@example.com', 'Test – Open Cellar', f.outlets.unassigned]
        : ['other-buyer@example.com', 'Demo – Campustown Bistro', f.outlets.ams];
    await requestOutlet(viewport, buyer, outletName);
    await menuItem(admin, 'Outlet Requests');
    const dialog = admin.getByRole('dialog', { name: 'Outlet requests and invitations' });
    await dialog.getByText(buyer).waitFor();
    await snapView(admin, 'invitations-requests');
    await dialog.getByRole('button', { name: `Approve ${buyer} for ${outletName}` }).click();
    await toast(admin, 'Request approved');
    await dialog.getByText('No pending outlet requests').waitFor();
    await dismissToasts(admin);
    await dialog.getByRole('tab', { name: 'Invitations' }).click();
    await dialog.getByRole('button', { name: 'Accepted' }).click();
    await dialog.getByText(invitee).waitFor();
    await snapView(admin, 'invitations-list');
    const buyerId = (await t.db('users').where({ email: buyer }).first())!.id;
    expect(await t.db('user_outlets').where({ user_id: buyerId, outlet_id: outletId }).first()).toBeTruthy();

    // The buyer now finds the outlet in the profile menu.
    const { page: b, close: closeBuyer } = await openPage(viewport);
    await signIn(b, baseUrl, buyer);
    await b.locator('header [aria-haspopup="menu"]').last().click();
    const outlets = b.getByRole('group', { name: 'OUTLETS' });
    const toggle = outlets.locator('[role=menuitem][aria-expanded="false"]');
    if (await toggle.count()) await toggle.click();
    await outlets.getByText(outletName).waitFor();
    await closeBuyer();
    expect(errors).toEqual([]);
    await close();
  });
});
