// The lock file must give every developer platform the native binaries Linux gets: `npm ci` installs only
// what package-lock.json names, so a native family (@swc/core, esbuild, nx, rollup…) whose macOS or Windows
// package is missing there fails on that platform with "Cannot find native binding".
//
//   node scripts/lock-platforms.mjs            check: one line per missing sibling, exit 1 when any
//   node scripts/lock-platforms.mjs --refresh  `npm run lock:refresh`: regenerate package-lock.json with npm
//
// --refresh copies the manifests and the lock file to a temporary folder WITHOUT node_modules (npm drops
// other platforms' optional packages when it builds the tree from an installed node_modules, npm/cli#4828),
// forgets the lock entries of the families that lack a sibling (so npm resolves them afresh, with all their
// optional platform packages), runs `npm install --package-lock-only --ignore-scripts` there, copies the lock
// file back and checks it. Use it after changing dependencies or merging branches that did.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The platforms a developer may clone on besides Linux x64, each with the name endings its packages use. */
export const REQUIRED_SIBLINGS = {
  'macOS arm64': ['darwin-arm64'],
  'macOS x64': ['darwin-x64'],
  'Windows x64': ['win32-x64-msvc', 'win32-x64', 'windows-x64'],
};
const LINUX_X64 = /linux-x64(-gnu)?$/;

/** Package name of a lock-file key (`node_modules/a/node_modules/@s/b` → `@s/b`). */
const nameOf = (key) => key.replace(/^.*node_modules\//, '');

/**
 * Every Linux x64 (glibc) platform package of a parsed package-lock.json (lockfileVersion 2 or 3) that lacks
 * a macOS arm64, macOS x64 or Windows x64 sibling: `[{ pkg, platform }]`, empty when the lock is complete.
 */
export function missingSiblings(lock) {
  const names = new Set(Object.keys(lock.packages ?? {}).map(nameOf));
  const gaps = [];
  for (const pkg of [...names].filter((n) => LINUX_X64.test(n) && !/musl/.test(n)).sort()) {
    for (const [platform, endings] of Object.entries(REQUIRED_SIBLINGS)) {
      if (!endings.some((e) => names.has(pkg.replace(LINUX_X64, e)))) gaps.push({ pkg, platform });
    }
  }
  return gaps;
}

/** Number of Linux x64 native families in the lock (what the check compares). */
export const familyCount = (lock) =>
  new Set(
    Object.keys(lock.packages ?? {})
      .map(nameOf)
      .filter((n) => LINUX_X64.test(n) && !/musl/.test(n)),
  ).size;

/**
 * The lock with the entries of every package that names one of `pkgs` as a dependency removed (the
 * family's parent, e.g. node_modules/@swc/core for @swc/core-linux-x64-gnu), so npm re-resolves them from
 * the registry with all their optional dependencies. Returns the removed keys.
 */
export function forgetParents(lock, pkgs) {
  const removed = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key) continue;
    const deps = { ...entry.dependencies, ...entry.optionalDependencies };
    if (pkgs.some((p) => p in deps)) {
      delete lock.packages[key];
      removed.push(key);
    }
  }
  return removed;
}

/** The workspace folders of package.json (`apps/*` style globs of one level, or plain folders). */
function workspaceDirs(root, pkg) {
  const dirs = [];
  for (const w of pkg.workspaces ?? []) {
    if (w.endsWith('/*')) {
      const base = w.slice(0, -2);
      for (const d of readdirSync(join(root, base), { withFileTypes: true }))
        if (d.isDirectory() && existsSync(join(root, base, d.name, 'package.json'))) dirs.push(join(base, d.name));
    } else dirs.push(w);
  }
  return dirs;
}

/** `npm run lock:refresh`: see the header. Throws when npm fails; returns the gaps left (none when complete). */
export function refreshLock(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const work = mkdtempSync(join(tmpdir(), 'lock-refresh-'));
  try {
    for (const f of ['package.json', '.npmrc', ...workspaceDirs(root, pkg).map((d) => join(d, 'package.json'))])
      if (existsSync(join(root, f))) cpSync(join(root, f), join(work, f));
    const lockPath = join(root, 'package-lock.json');
    if (existsSync(lockPath)) {
      const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
      const removed = forgetParents(lock, [...new Set(missingSiblings(lock).map((g) => g.pkg))]);
      if (removed.length)
        console.log(`re-resolving ${removed.length} native famil${removed.length === 1 ? 'y' : 'ies'}: ${removed.map(nameOf).join(', ')}`);
      writeFileSync(join(work, 'package-lock.json'), JSON.stringify(lock, null, 2) + '\n');
    }
    console.log('npm install --package-lock-only (no node_modules)…');
    execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: work,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
    cpSync(join(work, 'package-lock.json'), lockPath);
    return missingSiblings(JSON.parse(readFileSync(lockPath, 'utf8')));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function main() {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const gaps = process.argv.includes('--refresh')
    ? refreshLock(root)
    : missingSiblings(JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')));
  for (const g of gaps) console.error(`package-lock.json: ${g.pkg} has no ${g.platform} sibling locked`);
  if (gaps.length) {
    console.error('fix: npm run lock:refresh (regenerates the lock file with every platform’s optional binaries)');
    process.exit(1);
  }
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  console.log(`package-lock.json: ${familyCount(lock)} native families, each with its macOS arm64, macOS x64 and Windows x64 sibling`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
