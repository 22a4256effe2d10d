import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The machine's Chrome or Chromium for the journeys and the screen benchmarks, found by
 * scripts/find-browser.mjs (CHROMIUM_PATH, else chrome-launcher's finder on Linux, macOS and Windows). It
 * runs as a child process because chrome-launcher is an ES module that jest's CommonJS runtime cannot load.
 * Answers `{ path }`, or `{ hint }`: one line on how to install one or set CHROMIUM_PATH.
 */
export function findBrowser(): { path: string; hint?: undefined } | { path?: undefined; hint: string } {
  const r = spawnSync(process.execPath, [join(__dirname, '../scripts/find-browser.mjs')], { encoding: 'utf8', env: process.env });
  const path = r.stdout?.trim();
  if (r.status === 0 && path) return { path };
  const hint = (r.stderr ?? '').trim().split('\n').pop();
  return { hint: hint || `no Chrome or Chromium found (${r.error?.message ?? `exit ${r.status}`}); set CHROMIUM_PATH to its executable` };
}
