import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { createApp } from '../apps/api/src/app';
import { createTestContext, FIXTURE_PASSWORD, type TestContext } from '../apps/api/src/test/harness';
import { seedFixtures, type Fixtures } from '../apps/api/src/test/fixtures';
import { findBrowser } from './browser';

/**
 * Journeys through the real built SPA (dist/web) and the real API on a fresh database with the test
 * fixtures (real stores 2190/4129/2614…, demo accounts with password FIXTURE_PASSWORD).
 */
export interface Portal {
  baseUrl: string;
  t: TestContext;
  fixtures: Fixtures;
  close(): Promise<void>;
}

export async function startPortal(env: Record<string, string> = {}): Promise<Portal> {
  // Live streams (GET /me/events) as in production: an hour long (the API tests' 0.3 s would make them reconnect).
  const t = await createTestContext({ env: { PUBLIC_URL: '', LIVE_STREAM_MAX_SECONDS: '3600', ...env } });
  const fixtures = await seedFixtures(t.db);
  // E2E_WEB_DIR: journeys against another build of the SPA (e.g. one built before a change, to see a test fail).
  const app = createApp(t.ctx, { webDir: process.env.E2E_WEB_DIR ?? 'dist/web' });
  const server: Server = await new Promise((ok) => {
    const s = app.listen(0, '127.0.0.1', () => ok(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    t,
    fixtures,
    async close() {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
      await t.close();
    },
  };
}

/**
 * The machine's Chrome or Chromium (CHROMIUM_PATH, else found by e2e/browser.ts), headless, with the flags
 * this machine needs (no downloads, no background networking). Rejects with the one-line install hint when
 * there is none.
 */
export async function launchBrowser(): Promise<Browser> {
  const found = findBrowser();
  if (!found.path) throw new Error(found.hint);
  return chromium.launch({
    executablePath: found.path,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

export const DESKTOP = { width: 1280, height: 800 } as const;
export const MOBILE = { width: 390, height: 844 } as const;

/**
 * After a viewport change: waits until the window has the new width and two frames have painted (the
 * re-render the resize caused is on screen), instead of a fixed pause.
 */
export async function afterResize(page: Page) {
  const w = page.viewportSize()?.width ?? 0;
  await page.waitForFunction((width) => window.innerWidth === width, w);
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

/** Saves a full-page screenshot as screenshots/<name>-<width>.png (look at it). */
export async function snap(page: Page, name: string) {
  mkdirSync('screenshots', { recursive: true });
  const w = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `screenshots/${name}-${w}.png`, fullPage: true });
}

/**
 * Waits until the element is the document's active element and fails after `timeout` ms if focus never
 * arrives. Radix menus and popovers give focus back to their trigger from a timer after the content has
 * left the DOM, so a check right after the close would race that timer.
 */
export async function waitForFocus(locator: Locator, timeout = 5000) {
  const handle = await locator.elementHandle();
  await locator.page().waitForFunction((el) => el === document.activeElement, handle, { timeout });
}

/** Signs in through the /auth screen and waits for /shop. */
export async function signIn(page: Page, baseUrl: string, email: string, password = FIXTURE_PASSWORD) {
  await page.goto(`${baseUrl}/auth`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(/\/shop/);
}

export { FIXTURE_PASSWORD };
