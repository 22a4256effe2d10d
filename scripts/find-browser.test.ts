import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBrowser } from '../e2e/browser';

/**
 * The browser journeys find Chrome or Chromium on any platform (issue 24 §1): CHROMIUM_PATH wins when it
 * names an executable; a wrong one (or none found) is one line saying how to install one or set CHROMIUM_PATH.
 */
describe('finding a browser for the journeys (scripts/find-browser.mjs)', () => {
  const saved = process.env.CHROMIUM_PATH;
  afterEach(() => {
    if (saved === undefined) delete process.env.CHROMIUM_PATH;
    else process.env.CHROMIUM_PATH = saved;
  });

  it('when CHROMIUM_PATH names an executable file, then that file is the browser', () => {
    const fake = join(mkdtempSync(join(tmpdir(), 'browser-')), 'chrome');
    writeFileSync(fake, '#!/bin/sh\n');
    chmodSync(fake, 0o755);
    process.env.CHROMIUM_PATH = fake;
    expect(findBrowser()).toEqual({ path: fake });
  });

  it('when CHROMIUM_PATH names nothing, then one line says so and how to install a browser or set CHROMIUM_PATH', () => {
    process.env.CHROMIUM_PATH = join(tmpdir(), 'no-such-browser');
    const r = findBrowser();
    expect(r.path).toBeUndefined();
    expect(r.hint).toContain(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} is not an executable file`);
    expect(r.hint).toMatch(/install Google Chrome .* or set CHROMIUM_PATH/);
    expect(r.hint).not.toContain('\n');
  });
});
