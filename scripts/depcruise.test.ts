import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The API's import rules (.dependency-cruiser.cjs, issue 25 item 2): a small tree with one breach of each rule
 * has each refused under the rule's name. (The repository itself is cruised by `npm run depcruise` in .ci/run.)
 */
jest.setTimeout(120_000);
const ROOT = join(__dirname, '..');
const BIN = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/** Runs dependency-cruiser with the project's config over `paths` in `cwd`; answers the broken rules as `rule: from → to`. */
function violations(cwd: string, paths: string[]): string[] {
  const run = spawnSync(process.execPath, [BIN, ...paths, '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  if (!run.stdout) throw new Error(run.stderr);
  const result = JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
}

describe('dependency-cruiser rules', () => {
  it('when a tree breaks each rule once, then each breach is named by its rule', () => {
    const dir = mkdtempSync(join(tmpdir(), 'depcruise-'));
    try {
      const files: Record<string, string> = {
        'tsconfig.base.json': '{ "compilerOptions": { "module": "commonjs" } }',
        'apps/api/src/main.ts': "import './jobs/mail';\nimport './app';\n",
        'apps/api/src/app.ts': "import './routes';\n",
        'apps/api/src/routes.ts': "import './modules/orders/orders.routes';\n",
        'apps/api/src/jobs/mail.ts': "import '../lib/mail';\n",
        'apps/api/src/lib/mail.ts': "import '../http/route';\n", // foundation → http glue
        'apps/api/src/http/route.ts': "import '../http/errors';\n",
        'apps/api/src/http/errors.ts': 'export const e = 1;\n',
        'apps/api/src/modules/orders/orders.routes.ts': "import './orders.service';\n",
        // a service → jobs/, a service → http glue, orders ↔ webhooks, another module's helper file
        'apps/api/src/modules/orders/orders.service.ts':
          "import '../../jobs/mail';\nimport '../../http/route';\nimport '../webhooks/webhooks.service';\nimport '../payments/readiness';\n",
        'apps/api/src/modules/webhooks/webhooks.service.ts': "import '../orders/orders.repository';\n",
        'apps/api/src/modules/orders/orders.repository.ts': "import '../../http/errors';\n",
        'apps/api/src/modules/payments/readiness.ts': 'export const r = 1;\n',
        'apps/web/src/app.tsx': "import '../../api/src/app';\n",
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      const found = violations(dir, ['apps/api/src', 'apps/web/src']);
      const api = (p: string) => `apps/api/src/${p}`;
      expect(found).toEqual(
        expect.arrayContaining([
          `foundation-imports-only-foundation: ${api('lib/mail.ts')} → ${api('http/route.ts')}`,
          `jobs-only-from-main: ${api('modules/orders/orders.service.ts')} → ${api('jobs/mail.ts')}`,
          `modules-not-up: ${api('modules/orders/orders.service.ts')} → ${api('http/route.ts')}`,
          `no-repository-of-another-module: ${api('modules/webhooks/webhooks.service.ts')} → ${api('modules/orders/orders.repository.ts')}`,
          `other-modules-through-their-service: ${api('modules/orders/orders.service.ts')} → ${api('modules/payments/readiness.ts')}`,
          `web-never-imports-api: apps/web/src/app.tsx → ${api('app.ts')}`,
        ]),
      );
      expect(found.some((v) => v.startsWith('no-module-cycle: '))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
