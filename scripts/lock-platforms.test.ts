import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { forgetParents, missingSiblings } from './lock-platforms.mjs';

/**
 * Any platform (issue 24 §1): `npm ci` installs only what package-lock.json names, so every Linux x64
 * native package must have its macOS arm64, macOS x64 and Windows x64 siblings locked beside it.
 */
const ROOT = join(__dirname, '..');
const pkg = (version: string, extra: object = {}) => ({ version, ...extra });

describe('package-lock.json platform siblings', () => {
  it('when the committed lock file is read, then every Linux x64 native package has its macOS and Windows siblings', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
    expect(missingSiblings(lock)).toEqual([]);
    const names = Object.keys(lock.packages);
    for (const family of ['@swc/core', '@tailwindcss/oxide', '@unrs/resolver-binding', '@esbuild/', 'lightningcss'])
      expect(names.filter((n) => n.includes(family) && /darwin-arm64|darwin-x64|win32-x64/.test(n)).length).toBeGreaterThanOrEqual(3);
  });

  it('when a family lacks its Windows x64 and macOS packages, then each gap is named, and musl-only packages are not families', () => {
    const lock = {
      packages: {
        '': pkg('1.0.0'),
        'node_modules/@swc/core': pkg('1.16.22', { optionalDependencies: { '@swc/core-linux-x64-gnu': '1.16.22' } }),
        'node_modules/@swc/core-linux-x64-gnu': pkg('1.16.22'),
        'node_modules/@swc/core-linux-x64-musl': pkg('1.16.22'),
        'node_modules/@esbuild/linux-x64': pkg('0.28.2'),
        'node_modules/@esbuild/darwin-arm64': pkg('0.28.2'),
        'node_modules/@esbuild/darwin-x64': pkg('0.28.2'),
        'node_modules/@esbuild/win32-x64': pkg('0.28.2'),
      },
    };
    expect(missingSiblings(lock)).toEqual([
      { pkg: '@swc/core-linux-x64-gnu', platform: 'macOS arm64' },
      { pkg: '@swc/core-linux-x64-gnu', platform: 'macOS x64' },
      { pkg: '@swc/core-linux-x64-gnu', platform: 'Windows x64' },
    ]);
    expect(forgetParents(lock, ['@swc/core-linux-x64-gnu'])).toEqual(['node_modules/@swc/core']);
    expect(lock.packages).not.toHaveProperty(['node_modules/@swc/core']);
  });

  it('when package.json is read, then no install script rewrites the lock file and lock:refresh regenerates it', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(manifest.scripts.postinstall).toBeUndefined();
    expect(manifest.scripts['lock:refresh']).toBe('node scripts/lock-platforms.mjs --refresh');
  });
});
