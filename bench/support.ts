/**
 * What the benchmarks that run the API as a child process share: the real data files, a throw-away
 * database on the machine's PostgreSQL, a free port, the child's RSS, waiting for it to answer, stopping it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb, type Db } from '../apps/api/src/db/knex';

const ROOT = resolve(__dirname, '..');

/** One option of a benchmark: `--name VALUE` (string) or `--name` (boolean), with its help line. */
export interface BenchOption {
  type: 'string' | 'boolean';
  /** The value's placeholder in the help (`S`, `N`, `PATH`). */
  value?: string;
  default?: string;
  help: string;
}
/** What a benchmark says about itself: `npm run bench -- <name> --help` prints it; `all --quick` runs `quick`. */
export interface BenchInfo {
  /** A few words for the list of benchmarks. */
  title: string;
  about: string;
  options: Record<string, BenchOption>;
  /** Arguments for a brief run (`npm run bench -- all --quick`). */
  quick: string[];
}
/** A bad command line: bench/run.ts prints the message in one line and exits 2. */
export class BenchUsageError extends Error {}
/** The benchmark cannot run on this machine (e.g. no browser): bench/run.ts prints why and exits 0. */
export class BenchSkipped extends Error {}

/** The help text of benchmark `name`. */
export function benchHelp(name: string, info: BenchInfo): string {
  const flags = Object.entries(info.options).map(([k, o]) => [`--${k}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`, o] as const);
  const w = Math.max(...flags.map(([f]) => f.length), 8);
  return [
    `usage: npm run bench -- ${name}${flags.map(([f]) => ` [${f}]`).join('')}`,
    '',
    info.about,
    '',
    'options:',
    ...flags.map(([f, o]) => `  ${f.padEnd(w)}  ${o.help}${o.default !== undefined ? ` (default ${o.default})` : ''}`),
    `  ${'--help'.padEnd(w)}  this text (the benchmark does not run)`,
    '',
    `quick run (npm run bench -- all --quick): npm run bench -- ${name} ${info.quick.join(' ')}`.trimEnd(),
  ].join('\n');
}

/**
 * `argv` parsed against the benchmark's options (node:util parseArgs, strict): string options as strings
 * (their defaults filled in), boolean ones as booleans. Throws BenchUsageError on an unknown option or a
 * missing value.
 */
export function benchArgs(argv: string[], info: BenchInfo, opts: { positionals?: boolean } = {}) {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: opts.positionals ?? false,
      options: Object.fromEntries(
        Object.entries(info.options).map(([k, o]) => [
          k,
          o.type === 'string' && o.default !== undefined ? { type: o.type, default: o.default } : { type: o.type },
        ]),
      ),
    });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (e) {
    throw new BenchUsageError((e as Error).message.split('\n')[0]);
  }
}

/** A positive number from option `--name`'s value; BenchUsageError when it is not one. */
export function positive(value: string | boolean | undefined, name: string): number {
  const n = Number(value);
  if (typeof value !== 'string' || !Number.isFinite(n) || n <= 0)
    throw new BenchUsageError(`--${name} must be a positive number (got ${String(value)})`);
  return n;
}

/** The repository's real data folder: SHARED_DATA_DIR when set, else data/iowa-abd (carried by every clone). */
export const dataDir = () => (process.env.SHARED_DATA_DIR ? resolve(process.env.SHARED_DATA_DIR) : join(ROOT, 'data/iowa-abd'));

/** The real data file `name` (plain or .gz) in dataDir(). */
export function dataFile(name: string): string {
  const d = dataDir();
  for (const f of [join(d, name), join(d, `${name}.gz`)]) if (existsSync(f)) return f;
  throw new Error(`${name} not found in ${d}${process.env.SHARED_DATA_DIR ? ' (SHARED_DATA_DIR)' : ''}`);
}

/** The small real-data fixture of the API tests (5 stores, 90 items): apps/api/src/test/fixtures/<name>. */
export const fixtureFile = (name: 'stores.csv' | 'products.csv' | 'store_items.csv') => join(ROOT, 'apps/api/src/test/fixtures', name);

/**
 * The PostgreSQL server the benchmarks use, as a URL to its `postgres` database: DATABASE_URL's server, else
 * the machine's postgres://postgres@127.0.0.1:5432 (bench/run.ts starts an embedded PostgreSQL and sets
 * DATABASE_URL when neither answers).
 */
export const benchServer = () => withDb(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'postgres');

/** A benchmark's own database: BENCH_DATABASE_URL when set, else database `name` on benchServer(). */
export const benchDatabaseUrl = (name: string) => process.env.BENCH_DATABASE_URL ?? withDb(benchServer(), name);

/** The database name of a PostgreSQL URL. */
export const dbName = (url: string) => new URL(url).pathname.slice(1);

/** `url` with its database replaced by `name`. */
export const withDb = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};
/** Drops the database of `url` (forcing its connections off). */
export async function dropDatabase(url: string) {
  const admin = createDb(withDb(url, 'postgres'), { max: 1 });
  await admin.raw(`DROP DATABASE IF EXISTS "${dbName(url)}" WITH (FORCE)`);
  await admin.destroy();
}
/** A TCP port nothing listens on right now. */
export const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });

/** VmRSS (MB) of `pid` every 200 ms until stopped (Linux /proc; elsewhere no samples). */
export function sampleRss(pid: number) {
  const samples: number[] = [];
  const read = () => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) samples.push(Number(m[1]) / 1024);
    } catch {
      /* gone */
    }
  };
  read();
  const timer = setInterval(read, 200);
  return {
    stop() {
      clearInterval(timer);
      read();
      return samples;
    },
  };
}

/** Resolves when `url` answers 2xx; throws after `ms`. */
export async function waitForHttp(url: string, ms: number) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > end) throw new Error(`${url} did not answer within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** SIGTERM, then SIGKILL after 15 s; resolves when the process has exited. */
export const stop = (p: ChildProcess) =>
  new Promise<void>((ok) => {
    if (p.exitCode !== null) return ok();
    p.once('exit', () => ok());
    p.kill('SIGTERM');
    setTimeout(() => p.kill('SIGKILL'), 15_000).unref();
  });

/** The API started by `startBuiltApi`: the child process, its base URL (…/api/v1) and its JWT secret. */
export interface BuiltApi {
  api: ChildProcess;
  port: number;
  base: string;
  jwtSecret: string;
}

/**
 * Builds the API bundle (scripts/build-api.mjs) and runs dist/api/main.js as a child process on a free port
 * against `databaseUrl` (NODE_ENV=production, fresh JWT and credentials keys, LOG_LEVEL=BENCH_LOG_LEVEL or
 * warn, 1 h access tokens, PUBLIC_URL on its port), `env` added, node flags from BENCH_API_NODE_ARGS (`opts`: skip
 * the build, a given port: a replica restarted in place); resolves when /health answers (90 s at most).
 */
export async function startBuiltApi(
  databaseUrl: string,
  env: Record<string, string> = {},
  opts: { build?: boolean; port?: number } = {},
): Promise<BuiltApi> {
  if (opts.build !== false) {
    console.log('building the API (scripts/build-api.mjs)…');
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-api.mjs')], { cwd: ROOT, stdio: 'inherit' });
  }
  const port = opts.port ?? (await freePort());
  const jwtSecret = randomBytes(32).toString('hex');
  // BENCH_API_NODE_ARGS: extra node flags for the API (e.g. `--cpu-prof --cpu-prof-dir=bench/results/prof`).
  const nodeArgs = (process.env.BENCH_API_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const api = spawn(process.execPath, [...nodeArgs, '--enable-source-maps', join(ROOT, 'dist/api/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: jwtSecret,
      PAYMENT_CREDENTIALS_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      ACCESS_TOKEN_TTL_SECONDS: '3600',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}/api/v1`;
  const exited = new Promise<never>((_ok, fail) =>
    api.once('exit', (code) => fail(new Error(`the API exited with code ${code} before answering (its log is above)`))),
  );
  try {
    await Promise.race([waitForHttp(`${base}/health`, 90_000), exited]);
  } catch (e) {
    await stop(api);
    throw e;
  }
  exited.catch(() => undefined);
  return { api, port, base, jwtSecret };
}

/** CPU seconds (user + system) of each of `pids` from /proc/<pid>/stat (a process gone counts 0). */
export function cpuSecondsOf(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(pid, (Number(fields[11]) + Number(fields[12])) / 100); // utime, stime in clock ticks (100 Hz)
    } catch {
      out.set(pid, 0);
    }
  }
  return out;
}

/** The PostgreSQL backends connected to the bench database (the API's or the floor's pool, the listener). */
export async function backendPids(db: Db): Promise<number[]> {
  const { rows } = await db.raw<{ rows: { pid: number }[] }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  return rows.map((r) => r.pid);
}
