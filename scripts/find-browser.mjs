// Finds the machine's Chrome or Chromium for the browser journeys (e2e/), the screens and the Lighthouse
// benchmarks, on Linux, macOS and Windows: CHROMIUM_PATH when set, else the first installation that
// chrome-launcher (the maintained finder Lighthouse uses) knows: Google Chrome (stable, beta, canary),
// Chromium, in the standard places of each platform (and CHROME_PATH, which chrome-launcher honours).
//
//   node scripts/find-browser.mjs   prints the executable's path (exit 0), or one line on how to get one (exit 1)
import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Launcher } from 'chrome-launcher';

/** One line: what to do when no browser is found (`why`: what was looked at). */
export const installHint = (why) =>
  `${why}: install Google Chrome (https://www.google.com/chrome/) or Chromium (Debian/Ubuntu: sudo apt-get install chromium; ` +
  'macOS: brew install --cask chromium; Windows: winget install Google.Chrome), or set CHROMIUM_PATH to its executable';

const isExecutable = (path) => {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** `{ path }` of the browser to drive, or `{ hint }`: one line saying why none was found and how to get one. */
export function findBrowser(env = process.env) {
  if (env.CHROMIUM_PATH) {
    return isExecutable(env.CHROMIUM_PATH)
      ? { path: env.CHROMIUM_PATH }
      : { hint: installHint(`CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file`) };
  }
  let found;
  try {
    found = Launcher.getFirstInstallation();
  } catch {
    found = undefined; // chrome-launcher throws on platforms it does not know
  }
  return found && isExecutable(found) ? { path: found } : { hint: installHint('no Chrome or Chromium found on this machine') };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = findBrowser();
  if (r.path) console.log(r.path);
  else {
    console.error(r.hint);
    process.exit(1);
  }
}
