import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import apiGlobalSetup from '../apps/api/src/test/global-setup';
import { findBrowser } from './browser';

/**
 * E2E setup: finds Chrome or Chromium (e2e/browser.ts) and hands its path to the test files in
 * CHROMIUM_PATH; without one it says in one line how to get one and skips the journeys
 * (e2e/skip-without-browser.ts). Then the built SPA must exist (built here when missing), then the API's
 * template database.
 */
export default async function globalSetup() {
  const browser = findBrowser();
  if (!browser.path) {
    console.warn(`\n${browser.hint}. The browser journeys (e2e) are skipped.`);
    process.env.E2E_SKIP_REASON = browser.hint;
    return;
  }
  process.env.CHROMIUM_PATH = browser.path;
  if (!existsSync('dist/web/index.html') || !existsSync('dist/api/main.js')) {
    execSync('npx nx run-many -t build --projects=web,api', { stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
  }
  await apiGlobalSetup();
}
