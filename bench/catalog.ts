/**
 * `npm run bench -- catalog [--duration 10] [--connections 32] [--store 4129]`: the catalog search under load
 * (issue 4 "Performance"). On the FULL real data (data/iowa-abd, or SHARED_DATA_DIR, imported with
 * seeds/import.ts into the database BENCH_DATABASE_URL, default portal_bench_catalog on the benchmarks' server
 * (bench/support.ts benchServer), created and imported when absent, reused otherwise), it:
 *   1. builds the API (scripts/build-api.mjs) and runs dist/api/main.js in a child process (not watch mode,
 *      NODE_ENV=production);
 *   2. signs in the demo buyer (outlet DEMO-AMS-01 links store 4129, the largest: 1,985 items) with a password
 *      made for this run: the demo accounts never keep the public one, which a production start refuses;
 *   3. loads GET /api/v1/stores/4129/products?search=<rotating words> with autocannon, 32 connections, ~10 s,
 *      sampling the API's resident memory;
 *   4. runs the floor: a bare node:http server with one pg Pool executing the very same SQL
 *      (productPageSql from the stores repository), measured by the same script in the same run;
 *   5. prints req/s, p95 (exact, from every response time), p97.5/p99 (autocannon), the ratio to the floor,
 *      the API's peak RSS, and EXPLAIN ANALYZE of the search with the indexes it uses;
 *   6. writes bench/results/catalog.json.
 * Targets: p95 < 50 ms, ≥ 1,000 req/s, ≥ 40 % of the floor, RSS < 300 MB (issue 4); p99 ≤ 50 ms and ≥ 80 % of the floor
 * (issue 29 §2). A measurement, never a test.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { cpus, totalmem, loadavg } from 'node:os';
import autocannon from 'autocannon';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { createDb, migrateLatest, type Db } from '../apps/api/src/db/knex';
import { benchToken } from './session';
import { productPageSql } from '../apps/api/src/modules/stores/stores.repository';
import bcrypt from 'bcrypt';
import { seedReference, seedDemo, importFiles, REAL_DATA_FILES, DEMO_ACCOUNTS } from '../seeds';
import { backendPids, benchArgs, benchDatabaseUrl, cpuSecondsOf, dataDir, dataFile, positive, type BenchInfo } from './support';

const ROOT = resolve(__dirname, '..');
const BUYER = 'buyer@example.com';

export const info: BenchInfo = {
  title: 'catalog search under load vs a bare node:http + pg floor (full real data)',
  about:
    'Catalog search (GET /stores/{id}/products?search=…) under autocannon load on the full real data, against the built API in production mode and a bare node:http + pg floor running the same SQL. Targets: p95 < 50 ms, p99 ≤ 50 ms, ≥ 1,000 req/s, ≥ 80 % of the floor, RSS < 300 MB. The database (portal_bench_catalog, or BENCH_DATABASE_URL) is imported on first use and reused.',
  options: {
    duration: {
      type: 'string',
      value: 'S',
      default: '10',
      help: 'seconds of load on each of the API and the floor, split over the rounds',
    },
    rounds: { type: 'string', value: 'N', default: '2', help: 'alternations of API and floor load' },
    connections: { type: 'string', value: 'N', default: '32', help: 'autocannon connections' },
    store: { type: 'string', value: 'ID', default: '4129', help: 'the store searched' },
    'floor-server': { type: 'boolean', help: 'internal: run only the floor server (the benchmark starts it)' },
    port: { type: 'string', value: 'PORT', help: 'internal: the floor server’s port' },
    user: { type: 'string', value: 'UUID', help: 'internal: the user whose catalog the floor serves' },
  },
  quick: ['--duration', '2', '--rounds', '1'],
};
/** Search words rotated request by request (common catalog words; some broad, some narrow). */
export const WORDS = [
  'vodka',
  'whiskey',
  'rum',
  'gin',
  'tequila',
  'brandy',
  'cream',
  'apple',
  'black',
  'reserve',
  'crown',
  'absolut',
  'honey',
  'bourbon',
  'peach',
  'mini',
];
const PAGE_SIZE = 30;
/** The API's pool size (apps/api/src/main.ts); the floor gets the same. */
const POOL_MAX = 20;

interface Args {
  duration: number;
  rounds: number;
  connections: number;
  storeId: number;
  floorServer: boolean;
  port?: number;
  user?: string;
  db: string;
}

function parseArgs(argv: string[]): Args {
  const { values } = benchArgs(argv, info);
  return {
    duration: positive(values.duration, 'duration'),
    rounds: positive(values.rounds, 'rounds'),
    connections: positive(values.connections, 'connections'),
    storeId: positive(values.store, 'store'),
    floorServer: Boolean(values['floor-server']),
    port: values.port ? positive(values.port, 'port') : undefined,
    user: values.user as string | undefined,
    db: benchDatabaseUrl('portal_bench_catalog'),
  };
}

/** Entry point for bench/run.ts; answers the one-line summary. */
export async function run(argv: string[]): Promise<string | void> {
  const args = parseArgs(argv);
  if (args.floorServer) return serveFloor(args);
  return benchmark(args);
}

// ---------------------------------------------------------------------------------------------------------
// The floor: node:http + one pg Pool + the very same SQL text, bindings and prepared-statement name as the
// API's repository (for the user given with --user); no auth, no framework, no validation.

async function serveFloor(args: Args): Promise<void> {
  const pool = new pg.Pool({ connectionString: args.db, max: POOL_MAX });
  const toNative = nativeSql();
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://floor');
      const m = /^\/api\/v1\/stores\/(\d+)\/products$/.exec(url.pathname);
      if (!m) {
        res.writeHead(404).end();
        return;
      }
      const page = Number(url.searchParams.get('page') ?? 1);
      const pageSize = Number(url.searchParams.get('pageSize') ?? PAGE_SIZE);
      const search = url.searchParams.get('search')?.trim() || undefined;
      const q = productPageSql({ userId: args.user!, storeId: Number(m[1]), search, limit: pageSize, offset: (page - 1) * pageSize });
      const { sql, bindings } = toNative(q);
      const { rows } = await pool.query({ name: q.name, text: sql, values: bindings });
      const body = JSON.stringify({ items: rows, page, pageSize, total: rows[0]?.total ?? 0 });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
  await new Promise<void>((ok) => server.listen(args.port ?? 0, '127.0.0.1', () => ok()));
  const addr = server.address();
  console.log(`floor listening on ${typeof addr === 'object' && addr ? addr.port : ''}`);
  await new Promise(() => undefined);
}

/** knex's `?` placeholders → pg's `$n` (what knex sends on the wire). */
function nativeSql() {
  const k = knexFactory({ client: 'pg' });
  return (q: { sql: string; bindings: Knex.RawBinding[] }) => {
    const n = k.raw(q.sql, q.bindings).toSQL().toNative();
    return { sql: n.sql, bindings: n.bindings as unknown[] };
  };
}

// ---------------------------------------------------------------------------------------------------------
// The benchmark.

async function benchmark(args: Args): Promise<string> {
  console.log(
    `catalog benchmark · ${cpus().length} cores · ${(totalmem() / 2 ** 30).toFixed(1)} GiB · load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const db = createDb(args.db, { max: 2 });
  const prep = await prepareDatabase(args.db, db);
  const password = await setBenchPassword(db);
  const storeItems = Number((await db('inventory').where({ store_id: args.storeId }).count<{ n: number }[]>('* as n'))[0].n);
  console.log(
    `database ${redact(args.db)}: ${prep.items} items, ${prep.inventory} inventory rows (${prep.imported ? 'imported now' : 'reused'}); store ${args.storeId} carries ${storeItems}`,
  );

  console.log('building the API (scripts/build-api.mjs)…');
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-api.mjs')], { cwd: ROOT, stdio: 'inherit' });

  const jwtSecret = randomBytes(32).toString('hex');
  const apiPort = await freePort();
  // BENCH_API_NODE_ARGS: extra node flags for the API (e.g. `--cpu-prof --cpu-prof-dir=…`), as in startBuiltApi.
  const nodeArgs = (process.env.BENCH_API_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const api = startChild(process.execPath, [...nodeArgs, join(ROOT, 'dist/api/main.js')], {
    NODE_ENV: 'production',
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    DATABASE_URL: args.db,
    JWT_SECRET: jwtSecret,
    PAYMENT_CREDENTIALS_KEY: randomBytes(32).toString('hex'),
    BCRYPT_COST: '12',
    JOBS_ENABLED: 'false',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    ACCESS_TOKEN_TTL_SECONDS: '3600',
    SHARED_DATA_DIR: dataDir(),
    WEB_DIR: join(ROOT, 'dist/web-none'),
  });
  const floorPort = await freePort();
  let floor: ChildProcess | undefined;
  try {
    await waitForHttp(`http://127.0.0.1:${apiPort}/api/v1/health`, 60_000);
    const apiBase = `http://127.0.0.1:${apiPort}`;
    const { token, how, userId } = await signIn(apiBase, db, jwtSecret, password);
    console.log(`signed in as ${BUYER} (${how})`);
    const auth = { authorization: `Bearer ${token}` };
    const probe = await fetch(`${apiBase}/api/v1/stores/${args.storeId}/products?search=vodka&pageSize=${PAGE_SIZE}`, { headers: auth });
    const probeBody = (await probe.json()) as { total?: number };
    if (probe.status !== 200) throw new Error(`the API answered ${probe.status} to the catalog search: ${JSON.stringify(probeBody)}`);
    console.log(`probe: "vodka" → ${probeBody.total} matches in store ${args.storeId}`);

    floor = startChild(
      process.execPath,
      [
        join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
        join(ROOT, 'bench/run.ts'),
        'catalog',
        '--floor-server',
        '--port',
        String(floorPort),
        '--user',
        userId,
      ],
      { BENCH_DATABASE_URL: args.db },
    );
    const floorBase = `http://127.0.0.1:${floorPort}`;
    await waitForHttp(`${floorBase}/api/v1/stores/${args.storeId}/products?search=vodka`, 60_000);

    // Alternate API and floor in rounds so both see the same background load (the machine is shared).
    const path = (i: number) => `/api/v1/stores/${args.storeId}/products?search=${WORDS[i % WORDS.length]}&page=1&pageSize=${PAGE_SIZE}`;
    await load(apiBase, path, auth, args.connections, 2); // warm-up (JIT, pools, prepared statements)
    await load(floorBase, path, {}, args.connections, 2);
    const rounds = Math.max(1, args.rounds);
    const apiRounds: RawLoad[] = [];
    const floorRounds: RawLoad[] = [];
    const rssSamples: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const rss = sampleRss(api.pid!);
      apiRounds.push(await cpuOfLoad(db, api.pid!, () => load(apiBase, path, auth, args.connections, args.duration / rounds)));
      rssSamples.push(...rss.stop());
      floorRounds.push(await cpuOfLoad(db, floor!.pid!, () => load(floorBase, path, {}, args.connections, args.duration / rounds)));
      console.log(`round ${r + 1}/${rounds}: API ${apiRounds[r].rps.toFixed(0)} req/s, floor ${floorRounds[r].rps.toFixed(0)} req/s`);
    }
    // For the analysis: the app's own ceiling with no DB work (GET /health through the same middleware stack).
    const health = combine([await load(apiBase, () => '/api/v1/health', {}, args.connections, 3)]);
    const apiResult = combine(apiRounds);
    const floorResult = combine(floorRounds);
    const apiRss = {
      peakMB: Math.round(Math.max(...rssSamples)),
      meanMB: Math.round(rssSamples.reduce((a, b) => a + b, 0) / rssSamples.length),
    };

    const plan = await explain(db, userId, args.storeId, 'vodka');
    const indexes = [
      ...new Set([...plan.matchAll(/(?:Index Scan|Index Only Scan|Bitmap Index Scan) (?:using|on) (\w+)/g)].map((m) => m[1])),
    ];
    const ratio = apiResult.rps / floorResult.rps;
    const apiCpu = cpuPerRequest(apiRounds);
    const floorCpu = cpuPerRequest(floorRounds);
    const results = {
      date: new Date().toISOString(),
      machine: { cores: cpus().length, model: cpus()[0]?.model, memGiB: Number((totalmem() / 2 ** 30).toFixed(1)), loadavg: loadavg() },
      setup: {
        database: redact(args.db),
        items: prep.items,
        inventoryRows: prep.inventory,
        storeId: args.storeId,
        storeItems,
        connections: args.connections,
        durationSeconds: args.duration,
        rounds: args.rounds,
        words: WORDS,
        pageSize: PAGE_SIZE,
        api: 'dist/api/main.js (NODE_ENV=production, LOG_LEVEL=' + (process.env.BENCH_LOG_LEVEL ?? 'warn') + ')',
        auth: how,
      },
      api: { ...apiResult, rssPeakMB: apiRss.peakMB, rssMeanMB: apiRss.meanMB },
      floor: floorResult,
      apiHealthCeiling: {
        rps: Math.round(health.rps),
        p95: health.p95,
        note: 'GET /api/v1/health on the same API process: middleware stack without auth or DB',
      },
      ratioToFloor: Number(ratio.toFixed(3)),
      cpuPerRequest: { api: apiCpu, floor: floorCpu, floorOverApi: Number((floorCpu.totalMs / apiCpu.totalMs).toFixed(3)) },
      targets: {
        p95Under50ms: apiResult.p95 < 50,
        atLeast1000rps: apiResult.rps >= 1000,
        atLeast40PercentOfFloor: ratio >= 0.4,
        p99AtMost50ms: apiResult.p99 <= 50,
        atLeast80PercentOfFloor: ratio >= 0.8,
        rssUnder300MB: apiRss.peakMB < 300,
      },
      explain: { query: 'search=vodka page 1', indexes, plan },
    };
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/results/catalog.json'), JSON.stringify(results, null, 2) + '\n');

    const row = (name: string, r: LoadResult) =>
      `${name.padEnd(6)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${r.p50.toFixed(1).padStart(5)} ms   p95 ${r.p95.toFixed(1).padStart(5)} ms   p97.5 ${r.p97_5.toFixed(1).padStart(5)} ms   p99 ${r.p99.toFixed(1).padStart(5)} ms   (autocannon p97.5 ${r.autocannonP97_5} / p99 ${r.autocannonP99} ms)   non-2xx ${r.non2xx}   errors ${r.errors}`;
    console.log('\n' + row('API', apiResult));
    console.log(row('floor', floorResult));
    console.log(
      `API ceiling without DB work (GET /health, same middleware stack): ${health.rps.toFixed(0)} req/s, p95 ${health.p95.toFixed(1)} ms`,
    );
    console.log(
      `CPU per request: API node ${apiCpu.nodeMs} ms + PostgreSQL ${apiCpu.pgMs} ms = ${apiCpu.totalMs} ms; floor node ${floorCpu.nodeMs} ms + PostgreSQL ${floorCpu.pgMs} ms = ${floorCpu.totalMs} ms (the API costs ${((apiCpu.totalMs / floorCpu.totalMs) * 100).toFixed(0)} % of the floor's CPU per request)`,
    );
    console.log(`ratio to the floor ${(ratio * 100).toFixed(1)} % · API RSS peak ${apiRss.peakMB} MB (mean ${apiRss.meanMB} MB)`);
    console.log(
      `targets: p95 < 50 ms ${mark(results.targets.p95Under50ms)} · ≥ 1000 req/s ${mark(results.targets.atLeast1000rps)} · ≥ 40 % of floor ${mark(results.targets.atLeast40PercentOfFloor)} · p99 ≤ 50 ms ${mark(results.targets.p99AtMost50ms)} · ≥ 80 % of floor ${mark(results.targets.atLeast80PercentOfFloor)} · RSS < 300 MB ${mark(results.targets.rssUnder300MB)}`,
    );
    console.log(`\nEXPLAIN ANALYZE (search "vodka", store ${args.storeId}) uses: ${indexes.join(', ')}\n${plan}`);
    console.log('\nwrote bench/results/catalog.json');
    return `API ${apiResult.rps.toFixed(0)} req/s, p95 ${apiResult.p95.toFixed(1)} ms, p99 ${apiResult.p99.toFixed(1)} ms, ${apiCpu.totalMs} ms CPU/request; floor ${floorCpu.totalMs} ms CPU/request, ${floorResult.rps.toFixed(0)} req/s (${(ratio * 100).toFixed(1)} %); RSS peak ${apiRss.peakMB} MB`;
  } finally {
    await stopChild(api);
    if (floor) await stopChild(floor);
    await db.destroy();
  }
}

const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');
const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');

/**
 * Creates the bench database when absent, migrates, seeds reference data, imports the three real files
 * when the catalog is empty, seeds the demo outlets and accounts, then VACUUM ANALYZE the catalog tables
 * (fresh planner statistics; flushes the GIN pending lists of the trigram indexes after a bulk import).
 */
async function prepareDatabase(url: string, db: Db) {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  u.pathname = '/postgres';
  const admin = createDb(u.toString(), { max: 1 });
  try {
    if (!(await admin.raw('SELECT 1 FROM pg_database WHERE datname = ?', [name])).rows.length) {
      console.log(`creating database ${name}`);
      await admin.raw(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
    }
  } finally {
    await admin.destroy();
  }
  await migrateLatest(db);
  await seedReference(db);
  let imported = false;
  if (Number((await db('items').count<{ n: number }[]>('* as n'))[0].n) === 0) {
    console.log(`importing ${REAL_DATA_FILES.join(', ')} from ${dataDir()}…`);
    for (const r of await importFiles(
      db,
      REAL_DATA_FILES.map((f) => dataFile(f)),
    ))
      console.log(`  ${r.file}: ${r.rows} rows in ${r.ms} ms`);
    imported = true;
  }
  // Any password but the public one: setBenchPassword gives the accounts this run's password next.
  await seedDemo(db, { password: randomBytes(16).toString('hex'), bcryptCost: 4 });
  await db.raw('VACUUM ANALYZE items');
  await db.raw('VACUUM ANALYZE inventory');
  await db.raw('VACUUM ANALYZE bottle_sizes');
  const items = Number((await db('items').count<{ n: number }[]>('* as n'))[0].n);
  const inventory = Number((await db('inventory').count<{ n: number }[]>('* as n'))[0].n);
  return { items, inventory, imported };
}

/**
 * A random password for this run, set on every demo account (bcrypt cost 10): a database that an earlier
 * version of this benchmark seeded with the public demo password is mended too, so the production start
 * (which refuses demo accounts with the public password) runs on it.
 */
async function setBenchPassword(db: Db): Promise<string> {
  const password = `Bench#${randomBytes(12).toString('base64url')}`;
  await db('users')
    .whereIn(
      'email',
      DEMO_ACCOUNTS.map((a) => a.email),
    )
    .update({ password_hash: await bcrypt.hash(password, 10) });
  return password;
}

/** Signs the buyer in over HTTP; when the login route is not there (yet), signs a token with the API's secret. */
async function signIn(base: string, db: Db, secret: string, password: string): Promise<{ token: string; how: string; userId: string }> {
  const user = (await db('users').where({ email: BUYER }).first('id'))!;
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: BUYER, password }),
  });
  if (res.status === 200) {
    const body = (await res.json()) as { access_token: string };
    return { token: body.access_token, how: 'POST /auth/login', userId: user.id };
  }
  return {
    token: await benchToken(db, secret, 3600, { id: user.id, email: BUYER }),
    how: `token signed with the API's secret (login answered ${res.status})`,
    userId: user.id,
  };
}

interface LoadResult {
  rps: number;
  requests: number;
  p50: number;
  p95: number;
  p97_5: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  autocannonP97_5: number;
  autocannonP99: number;
}
interface RawLoad {
  /** CPU milliseconds of the server process and of its database's backends during the load (cpuOfLoad). */
  nodeCpuMs?: number;
  pgCpuMs?: number;
  rps: number;
  requests: number;
  seconds: number;
  times: number[];
  non2xx: number;
  errors: number;
  timeouts: number;
  p97_5: number;
  p99: number;
}

/** autocannon at `connections` for `seconds`, rotating the path per request; keeps every response time. */
async function load(
  base: string,
  path: (i: number) => string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<RawLoad> {
  let i = 0;
  const times: number[] = [];
  const r = await new Promise<autocannon.Result>((ok, fail) => {
    const instance = autocannon(
      {
        url: base,
        connections,
        duration: seconds,
        headers,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: path(i++) }) }],
      },
      (err, res) => (err ? fail(err) : ok(res)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      times.push(responseTime);
    });
  });
  return {
    rps: r.requests.total / r.duration,
    requests: r.requests.total,
    seconds: r.duration,
    times,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    p97_5: r.latency.p97_5,
    p99: r.latency.p99,
  };
}

/** `pid` and its descendants (tsx runs the floor in a child node process), from /proc. */
function processTree(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone */
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [p, pp] of parentOf) if (pp === tree[i]) tree.push(p);
  return tree;
}

/**
 * `run` (a load on one server) with the CPU it cost: the server process's and the bench database's backends'
 * (the other server is idle meanwhile: API and floor alternate). CPU per request holds up better than req/s
 * on a machine shared with other work: what a request costs, not how much of the machine it got.
 */
async function cpuOfLoad(db: Db, serverPid: number, run: () => Promise<RawLoad>): Promise<RawLoad> {
  const tree = processTree(serverPid);
  const sum = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const pgBefore = cpuSecondsOf(await backendPids(db));
  const nodeBefore = sum(cpuSecondsOf(tree));
  const r = await run();
  const nodeAfter = sum(cpuSecondsOf(tree));
  const pgAfter = cpuSecondsOf([...new Set([...pgBefore.keys(), ...(await backendPids(db))])]);
  let pg = 0;
  for (const [pid, after] of pgAfter) pg += Math.max(0, after - (pgBefore.get(pid) ?? 0));
  return { ...r, nodeCpuMs: (nodeAfter - nodeBefore) * 1000, pgCpuMs: pg * 1000 };
}

/** CPU milliseconds per request over rounds: the server's, the database's and both. */
function cpuPerRequest(rounds: RawLoad[]) {
  const requests = rounds.reduce((a, r) => a + r.requests, 0) || 1;
  const node = rounds.reduce((a, r) => a + (r.nodeCpuMs ?? 0), 0) / requests;
  const pg = rounds.reduce((a, r) => a + (r.pgCpuMs ?? 0), 0) / requests;
  return { nodeMs: +node.toFixed(3), pgMs: +pg.toFixed(3), totalMs: +(node + pg).toFixed(3) };
}

/** Rounds → one result: req/s over the summed time; percentiles exact over every response time. */
function combine(rounds: RawLoad[]): LoadResult {
  const times = rounds.flatMap((r) => r.times).sort((a, b) => a - b);
  const pct = (p: number) => (times.length ? times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)] : NaN);
  const requests = rounds.reduce((a, r) => a + r.requests, 0);
  const seconds = rounds.reduce((a, r) => a + r.seconds, 0);
  return {
    rps: requests / seconds,
    requests,
    p50: pct(50),
    p95: pct(95),
    p97_5: pct(97.5),
    p99: pct(99),
    max: times[times.length - 1],
    non2xx: rounds.reduce((a, r) => a + r.non2xx, 0),
    errors: rounds.reduce((a, r) => a + r.errors, 0),
    timeouts: rounds.reduce((a, r) => a + r.timeouts, 0),
    autocannonP97_5: Math.max(...rounds.map((r) => r.p97_5)),
    autocannonP99: Math.max(...rounds.map((r) => r.p99)),
  };
}

/** Samples VmRSS (MB) of `pid` every 200 ms until stopped; stop() answers the samples. */
function sampleRss(pid: number) {
  const samples: number[] = [];
  const read = () => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) samples.push(Number(m[1]) / 1024);
    } catch {
      /* the process is gone */
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

/** EXPLAIN (ANALYZE, BUFFERS) of the API's own search statement. */
async function explain(db: Db, userId: string, storeId: number, word: string): Promise<string> {
  const { sql, bindings } = productPageSql({ userId, storeId, search: word, limit: PAGE_SIZE, offset: 0 });
  await db.raw(sql, bindings); // warm
  const res = await db.raw(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, bindings);
  return res.rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
}

function startChild(cmd: string, argv: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(cmd, argv, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const keep = (d: Buffer) => {
    tail.push(d.toString());
    if (tail.length > 50) tail.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('exit', (code, sig) => {
    if (code && code !== 0 && code !== 143) console.error(`child ${argv[0]} exited ${code ?? sig}:\n${tail.join('')}`);
  });
  return child;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((ok) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      ok();
    }, 5000);
    child.once('exit', () => {
      clearTimeout(t);
      ok();
    });
    child.kill('SIGTERM');
  });
}

async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > until) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((ok) => setTimeout(ok, 250));
  }
}

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? ok(a.port) : fail(new Error('no port'))));
    });
  });
}
