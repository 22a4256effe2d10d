/**
 * `npm run bench -- screens [--label NAME] [--web-dir DIR] [--width 390|1280]`: a full-page screenshot of every screen of the SPA at
 * 390 and 1280 px, to show that a change made pages faster without changing them (issue 15 §4 acceptance).
 *   1. builds the SPA with Vite into a temporary folder (or takes an existing build with --web-dir);
 *   2. per width, serves it with the real API (createApp) on a fresh database with the test fixtures
 *      (e2e/harness.ts: real stores and items, the demo accounts) on the benchmarks' server (bench/support.ts
 *      benchServer), dropped after;
 *   3. in the machine's Chrome or Chromium (playwright-core; e2e/browser.ts finds it) visits every screen as the anonymous visitor, the buyer, the store
 *      manager and the administrator (sign-in modes, invitation, not found, shop, pricing dialog, cart, date
 *      picker, payment, confirmation, my orders, order details, profile, pricing calculator, store orders,
 *      every admin tab, store editor, user editor, the profile menu and its dialogs) and saves
 *      bench/results/screens/<label>/<screen>-<width>.png. Math.random is seeded and animations are off, so two
 *      runs of the same build give the same pictures; times of day are masked.
 * `npm run bench -- screens --compare before after`: compares two sets pixel by pixel (in Chromium: both PNGs
 *   drawn on a canvas) and prints screen, width, differing pixels; a picture of each difference goes to
 *   bench/results/screens/diff-<a>-<b>/.
 * A record, never a test.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { findBrowser } from '../e2e/browser';
import { BenchSkipped, BenchUsageError, benchArgs, benchServer, type BenchInfo } from './support';

export const info: BenchInfo = {
  title: 'a screenshot of every screen at 390 and 1280 px (or --compare two sets)',
  about:
    "A full-page screenshot of every screen of the SPA at 390 and 1280 px in the machine's Chrome or Chromium, into bench/results/screens/<label>/; --compare a b prints the differing pixels per screen of two such sets.",
  options: {
    label: { type: 'string', value: 'NAME', default: 'current', help: 'the set’s folder under bench/results/screens/' },
    'web-dir': { type: 'string', value: 'DIR', help: 'an existing SPA build instead of building one' },
    width: { type: 'string', value: '390|1280', help: 'only this width (default both)' },
    compare: { type: 'boolean', help: 'compare two sets: npm run bench -- screens --compare a b' },
  },
  quick: ['--width', '1280', '--label', 'quick'],
};
/** `--compare a b` takes two positional arguments. */
export const positionals = true;

const ROOT = resolve(__dirname, '..');
const OUT = join(ROOT, 'bench/results/screens');
const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

/** A deterministic Math.random (the sign-in background is one of 14 per visit). */
const SEEDED_RANDOM = `(() => { let s = 42; Math.random = () => { s = (s * 16807) % 2147483647; return (s - 1) / 2147483646; }; })();`;

interface Shot {
  name: string;
  width: number;
}

/**
 * Values that differ on every run, written over with placeholders of the same length so the layout stays:
 * order numbers (they carry the time they were placed) and UUIDs (audit entries, sessions).
 */
const NORMALIZE_TEXT = `(() => {
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = w.nextNode(); n; n = w.nextNode()) {
    const t = n.nodeValue
      .replace(/ORD-\\d{10,}-[A-Z0-9]+/g, (m) => 'ORD-' + '0'.repeat(m.length - 4))
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '00000000-0000-0000-0000-000000000000');
    if (t !== n.nodeValue) n.nodeValue = t;
  }
})()`;

async function settle(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page
    .locator('.animate-spin')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => undefined);
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(300);
}

async function dismissToasts(page: Page) {
  for (const close of await page.getByRole('button', { name: 'Close toast' }).all()) await close.click().catch(() => undefined);
  await page
    .locator('[data-sonner-toast]')
    .first()
    .waitFor({ state: 'detached', timeout: 8_000 })
    .catch(() => undefined);
}

class Shooter {
  readonly shots: Shot[] = [];
  constructor(
    private readonly dir: string,
    private readonly width: number,
  ) {}
  async snap(page: Page, name: string, opts: { toasts?: boolean } = {}) {
    await settle(page);
    if (!opts.toasts) await dismissToasts(page);
    await page.evaluate(NORMALIZE_TEXT);
    // Times of day and "x minutes ago" change between runs; everything else must not.
    const mask: Locator[] = [
      page.getByText(/\b\d{1,2}:\d{2}\s?(AM|PM|am|pm)\b/),
      page.getByText(/\b(minutes?|seconds?|hours?) ago\b/),
      page.getByText(/Session expires in/),
    ];
    await page.screenshot({
      path: join(this.dir, `${name}-${this.width}.png`),
      fullPage: true,
      animations: 'disabled',
      caret: 'hide',
      mask,
      maskColor: '#ff00ff',
    });
    this.shots.push({ name, width: this.width });
    console.log(`  ${name}-${this.width}.png`);
  }
}

async function newPage(browser: Browser, viewport: { width: number; height: number }): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport, locale: 'en-US', timezoneId: 'America/Chicago', reducedMotion: 'reduce' });
  await ctx.addInitScript(SEEDED_RANDOM);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log(`  page error: ${e.message}`));
  return { ctx, page };
}

async function signIn(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/auth`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(/\/shop/);
}

/** Chooses the buyer's outlet by name in the header's profile menu (the server keeps the selection). */
async function chooseOutlet(page: Page, name: RegExp) {
  await page.locator('header [aria-haspopup="menu"]').last().click();
  const item = page.getByRole('menuitem', { name });
  if (!(await item.isVisible())) await page.getByRole('menuitem', { name: /OUTLETS/ }).click();
  if ((await item.getAttribute('aria-current')) === 'true') {
    await page.keyboard.press('Escape');
    return;
  }
  await item.click();
  await page.getByTestId('outlet-display').filter({ hasText: name }).first().waitFor();
}

async function openProfileMenu(page: Page) {
  await page.locator('header [aria-haspopup="menu"]').last().click();
  await page.getByRole('menu').first().waitFor();
}

/** Runs one user's journey; a failure is said and the next journey runs (its screenshots are then missing). */
async function block(name: string, fn: () => Promise<void>) {
  try {
    await fn();
  } catch (e) {
    process.exitCode = 1;
    console.log(`  ${name}: FAILED ${(e as Error).message.split('\n')[0]}`);
  }
}

/** Every screen at one width, on a fresh database. */
async function shootWidth(browser: Browser, webDir: string, dir: string, viewport: { width: number; height: number }) {
  process.env.E2E_WEB_DIR = webDir;
  const { startPortal, FIXTURE_PASSWORD } = await import('../e2e/harness');
  const portal = await startPortal();
  const { baseUrl, fixtures } = portal;
  const s = new Shooter(dir, viewport.width);
  try {
    // The anonymous visitor.
    await block('anonymous', async () => {
      const { ctx, page } = await newPage(browser, viewport);
      await page.goto(`${baseUrl}/auth`);
      await page.getByRole('button', { name: 'Sign In' }).waitFor();
      await s.snap(page, '01-auth-sign-in');
      await page.goto(`${baseUrl}/auth?mode=forgot`);
      await s.snap(page, '02-auth-forgot-password');
      await page.goto(`${baseUrl}/auth?intent=recovery`);
      await s.snap(page, '03-auth-reset-invalid-link');
      await page.goto(`${baseUrl}/auth`);
      await page.getByLabel('Email').fill('buyer@example.com');
      await page.getByLabel('Password', { exact: true }).fill('wrong-password-1');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page
        .getByRole('alert')
        .first()
        .waitFor({ timeout: 10_000 })
        .catch(() => undefined);
      await s.snap(page, '04-auth-sign-in-refused', { toasts: true });
      await page.goto(`${baseUrl}/invitation/accept`);
      await s.snap(page, '05-invitation-accept-no-token');
      await page.goto(`${baseUrl}/invitation/accept?token=${'0'.repeat(64)}`);
      await s.snap(page, '06-invitation-accept-unknown-token');
      await page.goto(`${baseUrl}/no-such-page`);
      await s.snap(page, '07-not-found');
      await ctx.close();
    });

    // The buyer: shop, pricing, cart, payment, confirmation, my orders, profile, pricing calculator.
    await block('buyer', async () => {
      const { ctx, page } = await newPage(browser, viewport);
      await signIn(page, baseUrl, 'buyer@example.com', FIXTURE_PASSWORD);
      await page.getByText('Ready to start ordering?').waitFor();
      await chooseOutlet(page, /Court Avenue Taproom/);
      await page.getByRole('heading', { level: 1, name: /CENTRAL CITY LIQUOR/ }).waitFor();
      await s.snap(page, '10-shop-welcome');
      await page.getByRole('button', { name: /Browse all products/ }).click();
      await page.getByText(/^Showing 1-30 of \d+ items$/).waitFor();
      await s.snap(page, '11-shop-all-products');
      const search = page.getByRole('searchbox', { name: 'Search products' });
      await search.fill('vodka');
      await search.press('Enter');
      await page.getByText(/^Showing 1-\d+ of \d+ items$/).waitFor();
      await page.getByText('Ready to start ordering?').waitFor({ state: 'detached' });
      await s.snap(page, '12-shop-search-vodka');
      await page.getByRole('button', { name: 'List view' }).click();
      await page.getByRole('article').first().waitFor({ state: 'detached' });
      await s.snap(page, '13-shop-list-view');
      await page.getByRole('button', { name: 'Grid view' }).click();
      await page.getByRole('article').first().waitFor();
      await page
        .getByRole('button', { name: /^Pricing/ })
        .first()
        .click();
      await page.getByRole('dialog', { name: 'Pricing Analysis' }).waitFor();
      await s.snap(page, '14-shop-pricing-dialog');
      await page.keyboard.press('Escape');
      for (const n of [0, 1]) {
        const added = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/items') && r.status() === 200);
        await Promise.all([
          added,
          page
            .getByRole('article')
            .nth(n)
            .getByRole('button', { name: /^Add to Cart/ })
            .click(),
        ]);
      }
      await page.getByRole('link', { name: /^View cart: 2 products/ }).waitFor();
      await s.snap(page, '15-shop-two-added');
      await search.fill('zzqx');
      await search.press('Enter');
      await page.getByText('No products found', { exact: true }).waitFor();
      await s.snap(page, '16-shop-no-results');

      await page.goto(`${baseUrl}/cart`);
      await page.getByText('2 products').waitFor();
      await s.snap(page, '20-cart');
      const delivery = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/fulfillment'));
      await Promise.all([delivery, page.getByRole('radio', { name: /Delivery/ }).click()]);
      await page.getByLabel('Select Pickup/Delivery Date (Optional)').click();
      await page.getByRole('grid').waitFor();
      // The calendar shows this month: the same day gives the same picture.
      await s.snap(page, '21-cart-date-picker');
      await page.keyboard.press('Escape');
      await page.getByRole('grid').waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Checkout', exact: true }).click();
      await page.waitForURL(/\/payment\?/);
      await page.getByRole('heading', { name: 'Payment', exact: true }).waitFor();
      await s.snap(page, '22-payment');
      await page.getByRole('button', { name: /^Pay \$/ }).click();
      await s.snap(page, '23-payment-card-errors');
      await page.getByLabel('Card holder name').fill('Blake Buyer');
      await page.getByLabel('Card number').pressSequentially('4111111111111111');
      await page.getByLabel('Expiration (MM/YY)').pressSequentially('1230');
      await page.getByLabel('Security code').fill('123');
      await page.getByLabel('ZIP code').fill('50309');
      await page.getByRole('button', { name: /^Pay \$/ }).click();
      await page.waitForURL(/\/order-confirmation\/\d+$/, { timeout: 30_000 });
      await s.snap(page, '24-order-confirmation');

      await page.goto(`${baseUrl}/order-history`);
      await page.getByRole('heading', { name: 'My Orders' }).waitFor();
      await s.snap(page, '30-my-orders');
      const details = page.getByRole('button', { name: /details|View/i }).first();
      if (await details.isVisible().catch(() => false)) {
        await details.click();
        await page
          .getByRole('dialog')
          .first()
          .waitFor({ timeout: 5_000 })
          .catch(() => undefined);
        await s.snap(page, '31-my-orders-details');
        await page.keyboard.press('Escape');
      }
      // An unknown order: the confirmation falls back to the latest order.
      await page.goto(`${baseUrl}/order-confirmation/999999`);
      await s.snap(page, '32-order-confirmation-unknown');
      await page.goto(`${baseUrl}/payment`);
      await page.getByText('Invalid access route. Please use the checkout process.').waitFor();
      await s.snap(page, '33-payment-denied', { toasts: true });
      await page.waitForURL(/\/cart$/, { timeout: 10_000 });
      await s.snap(page, '34-cart-empty');

      await page.goto(`${baseUrl}/profile`);
      await s.snap(page, '40-profile');
      await page.goto(`${baseUrl}/pricing-calculator`);
      await page.getByRole('heading', { level: 1, name: 'Pricing Calculator' }).waitFor();
      await s.snap(page, '41-pricing-calculator');
      await openProfileMenu(page);
      await s.snap(page, '42-profile-menu');
      await page.keyboard.press('Escape');
      await ctx.close();
    });

    // The store manager: store orders.
    await block('manager', async () => {
      const { ctx, page } = await newPage(browser, viewport);
      await signIn(page, baseUrl, 'manager@example.com', FIXTURE_PASSWORD);
      await page.goto(`${baseUrl}/orders`);
      await s.snap(page, '50-store-orders');
      const details = page.getByRole('button', { name: /details|View/i }).first();
      if (await details.isVisible().catch(() => false)) {
        await details.click();
        await page
          .getByRole('dialog')
          .first()
          .waitFor({ timeout: 5_000 })
          .catch(() => undefined);
        await s.snap(page, '51-store-orders-details');
        await page.keyboard.press('Escape');
      }
      await ctx.close();
    });

    // The administrator: every admin tab, the store and user editors, the profile menu's dialogs.
    await block('admin', async () => {
      const { ctx, page } = await newPage(browser, viewport);
      await signIn(page, baseUrl, 'admin@example.com', FIXTURE_PASSWORD);
      await page.goto(`${baseUrl}/admin`);
      await page.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
      const tabs = page.getByRole('tab');
      await tabs.first().waitFor();
      const labels = await tabs.allInnerTexts();
      for (const [i, label] of labels.entries()) {
        await tabs.nth(i).click();
        await s.snap(
          page,
          `6${String.fromCharCode(97 + i)}-admin-${label
            .trim()
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '-')}`,
        );
      }
      await page.goto(`${baseUrl}/admin/store/2190`);
      await s.snap(page, '70-admin-store-editor');
      await page.goto(`${baseUrl}/admin/users/${fixtures.users.buyer.id}`);
      await s.snap(page, '71-admin-edit-user');
      await page.goto(`${baseUrl}/shop`);
      await openProfileMenu(page);
      await s.snap(page, '72-admin-profile-menu');
      for (const [n, item] of [
        ['73-invite-user-dialog', /Invite User/],
        ['74-outlet-requests-dialog', /Outlet Requests/],
      ] as const) {
        if (!(await page.getByRole('menu').first().isVisible())) await openProfileMenu(page);
        const entry = page.getByRole('menuitem', { name: item }).first();
        await entry.scrollIntoViewIfNeeded();
        await entry.click();
        await page.getByRole('dialog').first().waitFor();
        await s.snap(page, n);
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').first().waitFor({ state: 'detached' });
      }
      await ctx.close();
    });
  } finally {
    await portal.close();
  }
  return s.shots;
}

/** The pixel comparison, run in Chromium as plain JavaScript (tsx's helpers do not exist in the page). */
const COMPARE_IN_PAGE = `async ([ua, ub]) => {
          const load = (u) =>
            new Promise((ok, ko) => {
              const i = new Image();
              i.onload = () => ok(i);
              i.onerror = ko;
              i.src = u;
            });
          const [ia, ib] = await Promise.all([load(ua), load(ub)]);
          const w = Math.max(ia.width, ib.width);
          const h = Math.max(ia.height, ib.height);
          const data = (img) => {
            const c = document.createElement('canvas');
            c.width = w;
            c.height = h;
            const g = c.getContext('2d');
            g.drawImage(img, 0, 0);
            return g.getImageData(0, 0, w, h).data;
          };
          const pa = data(ia);
          const pb = data(ib);
          const c = document.createElement('canvas');
          c.width = w;
          c.height = h;
          const g = c.getContext('2d');
          const out = g.createImageData(w, h);
          let n = 0;
          for (let p = 0; p < pa.length; p += 4) {
            const same = pa[p] === pb[p] && pa[p + 1] === pb[p + 1] && pa[p + 2] === pb[p + 2] && pa[p + 3] === pb[p + 3];
            if (!same) n++;
            // The difference in red over a faded copy of the first picture.
            out.data[p] = same ? 255 - (255 - pa[p]) / 4 : 255;
            out.data[p + 1] = same ? 255 - (255 - pa[p + 1]) / 4 : 0;
            out.data[p + 2] = same ? 255 - (255 - pa[p + 2]) / 4 : 0;
            out.data[p + 3] = 255;
          }
          g.putImageData(out, 0, 0);
          return { n, sizeA: \`\${ia.width}×\${ia.height}\`, sizeB: \`\${ib.width}×\${ib.height}\`, png: n ? c.toDataURL('image/png') : '' };
        }`;

/** Compares two sets pixel by pixel in Chromium; returns the table rows. */
async function compare(a: string, b: string): Promise<string> {
  const { launchBrowser } = await import('../e2e/harness');
  const da = join(OUT, a);
  const db = join(OUT, b);
  const diffDir = join(OUT, `diff-${a}-${b}`);
  rmSync(diffDir, { recursive: true, force: true });
  mkdirSync(diffDir, { recursive: true });
  const files = [...new Set([...readdirSync(da), ...readdirSync(db)])].filter((f) => f.endsWith('.png')).sort();
  const browser = await launchBrowser();
  const page = await browser.newPage();
  const rows: Array<{ screen: string; width: string; diff: string; note: string }> = [];
  try {
    for (const f of files) {
      const [, screen, width] = /^(.*)-(\d+)\.png$/.exec(f) ?? [f, f, '?'];
      if (!existsSync(join(da, f)) || !existsSync(join(db, f))) {
        rows.push({ screen, width, diff: '-', note: `only in ${existsSync(join(da, f)) ? a : b}` });
        continue;
      }
      const ua = `data:image/png;base64,${readFileSync(join(da, f)).toString('base64')}`;
      const ub = `data:image/png;base64,${readFileSync(join(db, f)).toString('base64')}`;
      const r = (await page.evaluate(`(${COMPARE_IN_PAGE})(${JSON.stringify([ua, ub])})`)) as {
        n: number;
        sizeA: string;
        sizeB: string;
        png: string;
      };
      if (r.png) writeFileSync(join(diffDir, f), Buffer.from(r.png.split(',')[1], 'base64'));
      rows.push({ screen, width, diff: String(r.n), note: r.sizeA === r.sizeB ? r.sizeA : `${r.sizeA} → ${r.sizeB}` });
    }
  } finally {
    await browser.close();
  }
  const w = Math.max(...rows.map((r) => r.screen.length), 6);
  console.log(`${'screen'.padEnd(w)}  width  differing pixels  size`);
  for (const r of rows) console.log(`${r.screen.padEnd(w)}  ${r.width.padStart(5)}  ${r.diff.padStart(16)}  ${r.note}`);
  const changed = rows.filter((r) => r.diff !== '0');
  console.log(
    `${rows.length} pictures, ${rows.length - changed.length} identical, ${changed.length} different (pictures of the differences: ${diffDir})`,
  );
  writeFileSync(join(OUT, `compare-${a}-${b}.json`), `${JSON.stringify(rows, null, 2)}\n`);
  return `${rows.length} pictures, ${rows.length - changed.length} identical, ${changed.length} different`;
}

/** Entry point for bench/run.ts. */
export async function run(args: string[] = []): Promise<string> {
  const { values, positionals: sets } = benchArgs(args, info, { positionals: true });
  if (values.compare ? sets.length !== 2 : sets.length) throw new BenchUsageError('screens takes two set names only with --compare a b');
  const widths = values.width ? WIDTHS.filter((w) => String(w.width) === values.width) : WIDTHS;
  if (!widths.length) throw new BenchUsageError(`--width must be 390 or 1280 (got ${values.width})`);
  const found = findBrowser();
  if (!found.path) throw new BenchSkipped(found.hint);
  if (values.compare) return compare(sets[0], sets[1]);
  const label = values.label as string;
  console.log(
    `load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const dir = join(OUT, label);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let webDir = values['web-dir'] ? resolve(values['web-dir'] as string) : undefined;
  let built: string | undefined;
  if (!webDir) {
    built = webDir = mkdtempSync(join(tmpdir(), 'portal-screens-web-'));
    console.log(`building the SPA into ${webDir}…`);
    const { buildSpa } = await import('./frontend');
    await buildSpa(webDir, { report: false });
  }
  // The API tests' template database (migrated, reference data), cloned per width by e2e/harness.ts.
  process.env.TEST_DATABASE_URL ??= benchServer();
  const { default: globalSetup, withDatabase } = await import('../apps/api/src/test/global-setup');
  await globalSetup();
  const { launchBrowser } = await import('../e2e/harness');
  const browser = await launchBrowser();
  try {
    let total = 0;
    for (const viewport of widths) {
      console.log(`${viewport.width} px:`);
      total += (await shootWidth(browser, webDir, dir, viewport)).length;
    }
    console.log(`${total} screenshots in ${dir}`);
    return `${total} screenshots at ${widths.map((w) => w.width).join(' and ')} px in bench/results/screens/${label}/`;
  } finally {
    await browser.close();
    const { createDb } = await import('../apps/api/src/db/knex');
    const admin = createDb(withDatabase(process.env.PORTAL_TEST_SERVER!, 'postgres'), { max: 1 });
    await admin.raw(`DROP DATABASE IF EXISTS ${process.env.PORTAL_TEST_TEMPLATE} WITH (FORCE)`);
    await admin.destroy();
    if (built) rmSync(built, { recursive: true, force: true });
  }
}
