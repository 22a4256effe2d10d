/**
 * `npm run bench -- quick-order [--runs 60] [--lines 200] [--keep]`: quick order latency (issue 27: "adding 200
 * lines by paste answers in ≤ 300 ms p95").
 *
 * 1. Creates a fresh database (BENCH_DATABASE_URL, default portal_bench_quick_order on the benchmarks' server;
 *    dropped and recreated), migrates, seeds reference data, imports the real data (data/iowa-abd: store 2190
 *    carries thousands of items) and the demo data (random password), and one buyer of outlet DEMO-DSM-01.
 * 2. Builds the API (scripts/build-api.mjs) and runs dist/api/main.js in a child process (NODE_ENV=production).
 * 3. Each run empties the buyer's cart at store 2190 and POSTs /carts/{id}/lines/bulk with `lines` rows as a
 *    pasted CSV (Item Number,Quantity): distinct codes of the store, 2 unknown codes among them; the first 5 runs
 *    warm up and are not counted.
 * 4. Prints p50/p95/p99/max of the POST, checks every valid row landed in the cart, writes bench/results/quick-order.json.
 * A measurement, never a test.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg, totalmem } from 'node:os';
import { createDb, migrateLatest, type Db } from '../apps/api/src/db/knex';
import { benchToken } from './session';
import { benchArgs, benchDatabaseUrl, dataFile, dropDatabase, positive, startBuiltApi, stop, withDb, type BenchInfo } from './support';
import { seedReference, seedDemo, importFiles, REAL_DATA_FILES } from '../seeds';

const ROOT = resolve(__dirname, '..');
const STORE = 2190;
const OUTLET_CODE = 'DEMO-DSM-01';
const WARMUP = 5;

export const info: BenchInfo = {
  title: 'quick order: a pasted list of item codes into the cart',
  about:
    'POST /carts/{id}/lines/bulk with a pasted CSV of N lines (default 200, 2 unknown codes) against the built API in production mode on the real data: p50/p95 latency; every valid line must land in the cart.',
  options: {
    runs: { type: 'string', value: 'N', default: '60', help: 'measured pastes' },
    lines: { type: 'string', value: 'N', default: '200', help: 'lines per paste (at most 1,000)' },
    keep: { type: 'boolean', help: 'keep the database afterwards' },
  },
  quick: ['--runs', '15'],
};

function percentiles(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => (s.length ? +s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)].toFixed(1) : 0);
  return { p50: at(50), p95: at(95), p99: at(99), max: s.length ? +s[s.length - 1].toFixed(1) : 0 };
}

async function freshDatabase(url: string): Promise<Db> {
  await dropDatabase(url);
  const admin = createDb(withDb(url, 'postgres'), { max: 1 });
  await admin.raw(`CREATE DATABASE "${new URL(url).pathname.slice(1)}"`);
  await admin.destroy();
  const db = createDb(url, { max: 4 });
  await migrateLatest(db);
  await seedReference(db);
  await importFiles(
    db,
    REAL_DATA_FILES.map((f) => dataFile(f)),
  );
  await seedDemo(db, { password: randomBytes(12).toString('hex'), bcryptCost: 4 });
  return db;
}

/** Entry point for bench/run.ts; answers the one-line summary. */
export async function run(argv: string[]): Promise<string> {
  const { values } = benchArgs(argv, info);
  const runs = positive(values.runs, 'runs');
  const lines = Math.min(1000, positive(values.lines, 'lines'));
  const url = benchDatabaseUrl('portal_bench_quick_order');
  const db = await freshDatabase(url);
  const outlet = (await db('outlets').where({ outlet_code: OUTLET_CODE }).first('id'))!;
  const role = (await db('roles').where({ code: 'outlet_buyer' }).first('id'))!;
  const [user] = await db('users').insert({ email: 'bench-quick@example.com', password_hash: 'x' }).returning('id');
  await db('user_profiles').insert({ user_id: user.id, first_name: 'Bench', last_name: 'Quick', full_name: 'Bench Quick' });
  await db('role_grants').insert({ user_id: user.id, role_id: role.id, scope_type: 'outlet', outlet_id: outlet.id });
  const codes = (
    await db('inventory as inv')
      .join('items as i', 'i.id', 'inv.item_id')
      .where({ 'inv.store_id': STORE, 'i.active': true, 'i.order_increment': 1, 'i.min_order_quantity': 1 })
      .orderBy('i.code')
      .limit(lines)
      .select('i.code')
  ).map((r) => r.code as string);
  const valid = lines - 2;
  const paste = ['Item Number,Quantity', ...codes.slice(0, valid).map((c, i) => `${c},${1 + (i % 6)}`), 'NO-SUCH-1,1', 'NO-SUCH-2,3'].join(
    '\n',
  );
  const { api, base, jwtSecret } = await startBuiltApi(url, { JOBS_ENABLED: 'false' });
  try {
    const token = await benchToken(db, jwtSecret, 3600, { id: user.id, email: 'bench-quick@example.com' });
    const call = async (method: string, path: string, body?: string, type = 'application/json') => {
      const res = await fetch(base + path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': type }, body });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 200)}`);
      return text ? JSON.parse(text) : undefined;
    };
    const ms: number[] = [];
    let bad = 0;
    for (let i = 0; i < runs + WARMUP; i++) {
      const cart = await call('GET', `/carts/current?outletId=${outlet.id}&storeId=${STORE}`);
      await call('DELETE', `/carts/${cart.id}`);
      const fresh = await call('GET', `/carts/current?outletId=${outlet.id}&storeId=${STORE}`);
      const t0 = performance.now();
      const res = await call('POST', `/carts/${fresh.id}/lines/bulk`, paste, 'text/csv');
      const took = performance.now() - t0;
      if (i >= WARMUP) ms.push(took);
      const okRows = res.results.filter((r: { ok: boolean }) => r.ok).length;
      if (okRows !== valid || res.cart.items.length !== valid) bad++;
    }
    const p = percentiles(ms);
    const result = {
      date: new Date().toISOString(),
      machine: {
        cores: cpus().length,
        model: cpus()[0]?.model.trim(),
        memGiB: +(totalmem() / 2 ** 30).toFixed(1),
        loadavg: loadavg().map((l) => +l.toFixed(2)),
      },
      setup: {
        database: url,
        data: 'full real data (data/iowa-abd)',
        store: STORE,
        linesPerPaste: lines,
        unknownCodes: 2,
        body: 'text/csv (Item Number,Quantity)',
        api: 'dist/api/main.js in a child process, NODE_ENV=production',
        runs,
        warmup: WARMUP,
      },
      results: { postBulkMs: p, runsWithWrongCart: bad },
    };
    console.log(
      `POST /carts/{id}/lines/bulk, ${lines} lines: p50 ${p.p50} ms, p95 ${p.p95} ms, p99 ${p.p99} ms, max ${p.max} ms (${runs} runs); wrong carts: ${bad}`,
    );
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/results/quick-order.json'), JSON.stringify(result, null, 2) + '\n');
    console.log('wrote bench/results/quick-order.json');
    return `quick order of ${lines} lines: p50 ${p.p50} ms, p95 ${p.p95} ms (${runs} runs, ${bad} wrong carts)`;
  } finally {
    await stop(api);
    await db.destroy();
    if (!values.keep) await dropDatabase(url);
  }
}
