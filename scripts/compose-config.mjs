// Validates docker-compose.yml and docker-compose.prod.yml as `docker compose config` does (schema,
// interpolation, required variables), without a Docker engine. The prod file's required variables
// (`${VAR:?…}`) get placeholder values. Uses `docker compose` (v2) when the docker CLI has it, else a
// `docker-compose` binary: v2, or Debian's 1.29, whose Compose schema predates the top-level `name`, so
// for it that one key is checked here and left out of the copy it validates.
//   node scripts/compose-config.mjs   one line per file; exit 1 when one is invalid, 0 ("skipped") with no compose
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const COMPOSE_FILES = ['docker-compose.yml', 'docker-compose.prod.yml'];

/** The compose command found: `{ cmd, args, v1 }`, or undefined. */
export function findCompose() {
  const works = (cmd, args) => {
    const r = spawnSync(cmd, [...args, 'version'], { encoding: 'utf8' });
    return r.status === 0 ? `${r.stdout}${r.stderr}` : undefined;
  };
  if (works('docker', ['compose'])) return { cmd: 'docker', args: ['compose'], v1: false };
  const v = works('docker-compose', []);
  if (v) return { cmd: 'docker-compose', args: [], v1: /version 1\./.test(v) };
  return undefined;
}

/** Validates one compose file; answers `{ ok, message }`. */
export function checkComposeFile(compose, file) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const env = { PATH: process.env.PATH, HOME: process.env.HOME ?? tmpdir() };
  for (const m of text.matchAll(/\$\{(\w+):\?/g)) env[m[1]] = 'placeholder';
  let path = join(ROOT, file);
  let work;
  if (compose.v1 && /^name:/m.test(text)) {
    const name = /^name:\s*(.*?)\s*$/m.exec(text)?.[1];
    if (!name || !/^[a-z0-9][a-z0-9_-]*$/.test(name))
      return { ok: false, message: `${file}: top-level name "${name}" is not a valid project name` };
    work = mkdtempSync(join(tmpdir(), 'compose-'));
    path = join(work, file);
    writeFileSync(path, text.replace(/^name:.*\n/m, ''));
  }
  try {
    const r = spawnSync(compose.cmd, [...compose.args, '--project-directory', ROOT, '-f', path, 'config', '-q'], { encoding: 'utf8', env });
    const out = `${r.stdout}${r.stderr}`.trim().split('\n').filter(Boolean).join(' ');
    return { ok: r.status === 0, message: `${file}: ${r.status === 0 ? 'valid' : `invalid: ${out}`}` };
  } finally {
    if (work) rmSync(work, { recursive: true, force: true });
  }
}

function main() {
  const compose = findCompose();
  if (!compose) {
    console.log('compose files: skipped (neither `docker compose` nor `docker-compose` is installed)');
    return;
  }
  const how = `${[compose.cmd, ...compose.args].join(' ')} config${compose.v1 ? ' (1.x: the top-level name checked apart)' : ''}`;
  let failed = 0;
  for (const f of COMPOSE_FILES) {
    const r = checkComposeFile(compose, f);
    if (!r.ok) failed++;
    console.log(`${r.message} (${how})`);
  }
  if (failed) process.exit(1);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
