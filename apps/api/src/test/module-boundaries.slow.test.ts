import { execFileSync, execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * The Nx module-boundary rule (STYLE.md): apps import libs only, libs never import apps,
 * contracts import only zod. Each case lints a small file placed in a project and expects the refusal.
 */
jest.setTimeout(120_000);
beforeAll(() => {
  // The rule reads Nx's project graph; build it once if no nx command ran yet.
  if (!existsSync('.nx/workspace-data/project-graph.json'))
    execSync('npx nx show projects', { stdio: 'ignore', env: { ...process.env, NX_DAEMON: 'false' } });
});
/** Lints `code` as if it were the file at `filePath` (ESLint CLI over stdin) and returns its errors. */
const errorsOf = async (code: string, filePath: string): Promise<string[]> => {
  let out: string;
  try {
    out = execFileSync(
      process.execPath,
      ['node_modules/eslint/bin/eslint.js', '--stdin', '--stdin-filename', filePath, '--format', 'json'],
      { input: code, encoding: 'utf8' },
    );
  } catch (e) {
    out = (e as { stdout: string }).stdout;
  }
  const [result] = JSON.parse(out) as { messages: { severity: number; ruleId: string; message: string }[] }[];
  return result.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
};

describe('module boundaries', () => {
  it('when the web app imports the API app, then lint fails', async () => {
    expect(
      (
        await errorsOf("import { createApp } from '@portal/api/src/app';\nexport const x = createApp;\n", 'apps/web/src/lib/zz-boundary.ts')
      ).join('\n'),
    ).toMatch(/@nx\/enforce-module-boundaries/);
    expect(
      (
        await errorsOf(
          "import { createApp } from '../../../api/src/app';\nexport const x = createApp;\n",
          'apps/web/src/lib/zz-boundary.ts',
        )
      ).join('\n'),
    ).toMatch(/@nx\/enforce-module-boundaries/);
  });

  it('when the API app imports the web app, then lint fails', async () => {
    expect(
      (await errorsOf("import { api } from '../../../web/src/lib/api';\nexport const x = api;\n", 'apps/api/src/http/zz-boundary.ts')).join(
        '\n',
      ),
    ).toMatch(/@nx\/enforce-module-boundaries/);
  });

  it('when contracts import an app or a server package, then lint fails', async () => {
    expect(
      (
        await errorsOf(
          "import { createApp } from '../../../apps/api/src/app';\nexport const x = createApp;\n",
          'libs/contracts/src/zz-boundary.ts',
        )
      ).join('\n'),
    ).toMatch(/@nx\/enforce-module-boundaries/);
    expect((await errorsOf("import knex from 'knex';\nexport const x = knex;\n", 'libs/contracts/src/zz-boundary.ts')).join('\n')).toMatch(
      /@nx\/enforce-module-boundaries/,
    );
  });

  it('when the web app imports the contracts lib, then lint passes', async () => {
    expect(
      await errorsOf(
        "import { PERMISSIONS } from '@portal/contracts';\nexport const x = PERMISSIONS;\n",
        'apps/web/src/lib/zz-boundary.ts',
      ),
    ).toEqual([]);
  });
});
