/**
 * The benchmarks' entry (measurements, not tests: they never fail a build).
 *   npm run bench -- <name> [options]   runs bench/<name>.ts; its numbers go to bench/results/<name>.json
 *   npm run bench -- <name> --help      that benchmark's options (nothing runs)
 *   npm run bench -- all [--quick]      every benchmark in turn, each in its own process with its output in
 *                                       bench/results/logs/<name>.log, one line per benchmark (--quick: each
 *                                       with its brief arguments, a newcomer's first look: a few minutes in all)
 * Each benchmark exports `info` (BenchInfo: what it measures, its options, its quick arguments) and
 * `run(args): Promise<string | void>` (the one-line summary). They read the real data from data/iowa-abd (or
 * SHARED_DATA_DIR) and use DATABASE_URL's PostgreSQL server, else the machine's 127.0.0.1:5432, else an
 * embedded PostgreSQL started here for the run (under .data/bench-pg). A bad option: one line, exit 2.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { BenchSkipped, BenchUsageError, benchArgs, benchHelp, benchServer, type BenchInfo } from './support';

const ROOT = resolve(__dirname, '..');
const BENCHES = [
  'login',
  'catalog',
  'orders',
  'quick-order',
  'import',
  'admin-import',
  'integrations',
  'frontend',
  'screens',
  'grants',
  'admin',
  'growth',
  'replicas',
] as const;
type BenchName = (typeof BENCHES)[number];
interface BenchModule {
  info: BenchInfo;
  /** Benchmarks taking positional arguments (screens --compare a b). */
  positionals?: boolean;
  run(args: string[]): Promise<string | void>;
}

const load = (name: BenchName) => import(`./${name}.ts`) as Promise<BenchModule>;

function usage(): string {
  return [
    `usage: npm run bench -- <${BENCHES.join('|')}> [options]`,
    '       npm run bench -- <name> --help       its options',
    '       npm run bench -- all [--quick]       every benchmark, one line each',
  ].join('\n');
}

/** Does a PostgreSQL answer at `url`? */
async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * DATABASE_URL for the benchmarks: kept when set (or BENCH_DATABASE_URL is), else the machine's
 * 127.0.0.1:5432 when it answers, else an embedded PostgreSQL under .data/bench-pg (stopped by the answer's stop()).
 */
async function ensureServer(): Promise<{ stop(): Promise<void> } | undefined> {
  if (process.env.DATABASE_URL || process.env.BENCH_DATABASE_URL) return undefined;
  if (await answers(benchServer())) return undefined;
  console.log('no DATABASE_URL and nothing on 127.0.0.1:5432: starting an embedded PostgreSQL under .data/bench-pg');
  const { startEmbeddedPostgres } = await import('../apps/api/src/db/embedded');
  const pgServer = await startEmbeddedPostgres({ dataDir: join(ROOT, '.data/bench-pg'), database: 'postgres' });
  process.env.DATABASE_URL = pgServer.adminUrl;
  return { stop: () => pgServer.stop() };
}

/** One benchmark in this process. Exit codes: 0 done or skipped, 1 failed, 2 bad command line. */
async function runOne(name: BenchName, args: string[]): Promise<number> {
  const mod = await load(name);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(benchHelp(name, mod.info));
    return 0;
  }
  let server: { stop(): Promise<void> } | undefined;
  try {
    benchArgs(args, mod.info, { positionals: mod.positionals }); // a bad option fails here, before any work
    server = await ensureServer();
    const summary = await mod.run(args);
    if (summary) console.log(`summary: ${summary}`);
    return 0;
  } catch (e) {
    if (e instanceof BenchUsageError) {
      console.error(`bench ${name}: ${e.message} (npm run bench -- ${name} --help)`);
      return 2;
    }
    if (e instanceof BenchSkipped) {
      console.log(`skipped: ${e.message}`);
      return 0;
    }
    console.error(e);
    return 1;
  } finally {
    await server?.stop();
  }
}

/** The last line of `text` starting with `prefix`, without it. */
const lastLine = (text: string, prefix: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith(prefix))
    .pop()
    ?.slice(prefix.length);

/** Every benchmark in its own process, output to bench/results/logs/<name>.log; one line each. */
async function runAll(args: string[]): Promise<number> {
  const quick = args.includes('--quick');
  const unknown = args.filter((a) => a !== '--quick');
  if (unknown.length) {
    console.error(`bench all: unknown argument ${unknown[0]} (only --quick)`);
    return 2;
  }
  const logs = join(ROOT, 'bench/results/logs');
  mkdirSync(logs, { recursive: true });
  const server = await ensureServer();
  let failed = 0;
  try {
    console.log(`${BENCHES.length} benchmarks${quick ? ', quick' : ''}; output of each in bench/results/logs/<name>.log`);
    for (const name of BENCHES) {
      const { info } = await load(name);
      const benchArgv = quick ? info.quick : [];
      const log = join(logs, `${name}.log`);
      const t0 = Date.now();
      const code = await new Promise<number>((ok) => {
        const out = createWriteStream(log);
        const child = spawn(
          process.execPath,
          [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'bench/run.ts'), name, ...benchArgv],
          {
            cwd: ROOT,
            env: process.env,
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        child.stdout.pipe(out, { end: false });
        child.stderr.pipe(out, { end: false });
        child.on('close', (c) => out.end(() => ok(c ?? 1)));
      });
      const seconds = `${Math.round((Date.now() - t0) / 1000)} s`.padStart(6);
      const text = readFileSync(log, 'utf8');
      const skipped = lastLine(text, 'skipped: ');
      if (code === 0 && skipped) console.log(`${name.padEnd(13)} skipped ${seconds}  ${skipped}`);
      else if (code === 0) console.log(`${name.padEnd(13)} ok      ${seconds}  ${lastLine(text, 'summary: ') ?? 'done'}`);
      else {
        failed++;
        const last =
          text
            .split('\n')
            .filter((l) => l.trim() && !/^\s+at /.test(l))
            .pop() ?? '';
        console.log(`${name.padEnd(13)} FAILED  ${seconds}  exit ${code}: ${last.trim().slice(0, 160)} (bench/results/logs/${name}.log)`);
      }
    }
  } finally {
    await server?.stop();
  }
  return failed ? 1 : 0;
}

async function main(): Promise<number> {
  const [name, ...args] = process.argv.slice(2);
  if (!name || name === '--help' || name === '-h') {
    (name ? console.log : console.error)(usage());
    if (name) {
      for (const b of BENCHES) console.log(`  ${b.padEnd(13)} ${(await load(b)).info.title}`);
    }
    return name ? 0 : 2;
  }
  if (name === 'all') return runAll(args);
  if (!(BENCHES as readonly string[]).includes(name)) {
    console.error(`unknown benchmark ${name}\n${usage()}`);
    return 2;
  }
  return runOne(name as BenchName, args);
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
