/**
 * `npm run bench -- orders [--duration 20] [--buyers 16] [--lines 3] [--full] [--keep]`: order placement
 * throughput with pay in-store (issue 5 "Benchmark"), 16 concurrent buyers, each with its own cart.
 *
 * 1. Creates a fresh database (BENCH_DATABASE_URL, default portal_bench_orders on the benchmarks' server,
 *    bench/support.ts benchServer; dropped and recreated), migrates, seeds reference data, imports the small
 *    real-data fixture of the API tests (apps/api/src/test/fixtures; --full imports data/iowa-abd instead) and
 *    the demo data (with a random password: a production start refuses the public one).
 * 2. Creates N buyers (role outlet_buyer) assigned to outlet DEMO-DSM-01, which buys from store 2190.
 * 3. Builds the API (scripts/build-api.mjs) and runs dist/api/main.js in a child process (NODE_ENV=production,
 *    pool 20, pg-boss mail outbox enqueue in the order's transaction, worker off).
 * 4. Each buyer loops for the duration: GET /carts/current → POST /carts/{id}/items × lines (fill the cart)
 *    → POST /checkout-sessions → POST /orders { paymentMethod: in_store } with an Idempotency-Key.
 * 5. Prints orders/s, p50/p95/p99 of POST /orders and of the whole loop, the CPU time per order loop of the API
 *    process and of the bench database's PostgreSQL backends (Linux), errors, and checks the database
 *    holds exactly the orders answered 201 (no duplicates); writes bench/results/orders.json.
 * A measurement, never a test.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { cpus, totalmem, loadavg } from 'node:os';
import bcrypt from 'bcrypt';
import { createDb, migrateLatest, type Db } from '../apps/api/src/db/knex';
import { benchToken } from './session';
import {
  backendPids,
  benchArgs,
  benchDatabaseUrl,
  cpuSecondsOf,
  dataFile,
  fixtureFile,
  positive,
  startBuiltApi,
  stop,
  type BenchInfo,
} from './support';
import { seedReference, seedDemo, importFiles, REAL_DATA_FILES } from '../seeds';

const ROOT = resolve(__dirname, '..');
export const STORE = 2190;

export const info: BenchInfo = {
  title: 'in-store order placement by concurrent buyers',
  about:
    'Order placement with pay in-store: N buyers, each with its own cart, loop cart → checkout session → POST /orders against the built API in production mode on a fresh database; checks that no order is duplicated.',
  options: {
    duration: { type: 'string', value: 'S', default: '20', help: 'seconds of load' },
    buyers: { type: 'string', value: 'N', default: '16', help: 'concurrent buyers' },
    lines: { type: 'string', value: 'N', default: '3', help: 'cart lines per order' },
    full: { type: 'boolean', help: "the full real data (data/iowa-abd) instead of the API tests' fixture" },
    keep: { type: 'boolean', help: 'keep the database afterwards' },
  },
  quick: ['--duration', '3', '--buyers', '4'],
};
const OUTLET_CODE = 'DEMO-DSM-01';

interface Args {
  duration: number;
  buyers: number;
  lines: number;
  full: boolean;
  keep: boolean;
  db: string;
}

function parseArgs(argv: string[]): Args {
  const { values } = benchArgs(argv, info);
  return {
    duration: positive(values.duration, 'duration'),
    buyers: positive(values.buyers, 'buyers'),
    lines: positive(values.lines, 'lines'),
    full: Boolean(values.full),
    keep: Boolean(values.keep),
    db: benchDatabaseUrl('portal_bench_orders'),
  };
}

/** Entry point for bench/run.ts; answers the one-line summary. */
export async function run(argv: string[]): Promise<string> {
  const args = parseArgs(argv);
  const t0 = Date.now();
  const db = await freshDatabase(args);
  const setup = await prepare(db, args);
  console.log(
    `database ready in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${setup.items} items in store ${STORE}, ${args.buyers} buyers`,
  );

  const { api, base, jwtSecret } = await startBuiltApi(args.db, { JOBS_ENABLED: 'false' });
  try {
    const tokens = await Promise.all(setup.buyers.map((b) => benchToken(db, jwtSecret, 3600, b)));
    // Warm-up: one loop per buyer, not measured.
    await Promise.all(tokens.map((tok) => loop(base, tok, setup.outletId, setup.codes, args.lines)));
    const before = await countOrders(db);
    console.log(`running ${args.buyers} buyers for ${args.duration} s…`);
    const cpu0 = cpuMs(api.pid);
    const pg0 = cpuSecondsOf(await backendPids(db));
    const stats = await measure(base, tokens, setup.outletId, setup.codes, args);
    const apiCpuMs = cpu0 === null ? null : (cpuMs(api.pid) ?? cpu0) - cpu0;
    // The bench database's backends (the API's pool, its listener; a backend gone meanwhile counts 0).
    let pgCpuMs = 0;
    for (const [pid, after] of cpuSecondsOf([...new Set([...pg0.keys(), ...(await backendPids(db))])]))
      pgCpuMs += Math.max(0, after - (pg0.get(pid) ?? 0)) * 1000;
    const inDb = (await countOrders(db)) - before;
    const dupes = await db.raw(
      `SELECT count(*)::int AS n FROM (SELECT checkout_session_id FROM orders WHERE checkout_session_id IS NOT NULL GROUP BY 1 HAVING count(*) > 1) d`,
    );
    const result = {
      date: new Date().toISOString(),
      machine: {
        cores: cpus().length,
        model: cpus()[0]?.model.trim(),
        memGiB: +(totalmem() / 2 ** 30).toFixed(1),
        loadavg: loadavg().map((l) => +l.toFixed(2)),
      },
      setup: {
        database: args.db,
        data: args.full ? 'full real data (data/iowa-abd)' : 'real-data fixture of the API tests (5 stores, 90 items)',
        store: STORE,
        outlet: OUTLET_CODE,
        buyers: args.buyers,
        linesPerOrder: args.lines,
        durationSeconds: args.duration,
        paymentMethod: 'in_store',
        api: 'dist/api/main.js in a child process, NODE_ENV=production, pool 20, mail outbox enqueue in the order transaction (worker off)',
        loop: 'GET /carts/current → POST /carts/{id}/items × lines → POST /checkout-sessions → POST /orders (Idempotency-Key)',
      },
      results: {
        orders: stats.orders,
        ordersPerSecond: +(stats.orders / stats.seconds).toFixed(1),
        // CPU time of the API process per order loop (Linux /proc): steadier than orders/s on a shared machine.
        apiCpuMsPerOrder: apiCpuMs === null || !stats.orders ? null : +(apiCpuMs / stats.orders).toFixed(2),
        // The same for the bench database's PostgreSQL backends (Linux /proc; 0 elsewhere).
        postgresCpuMsPerOrder: stats.orders ? +(pgCpuMs / stats.orders).toFixed(2) : null,
        postOrdersMs: percentiles(stats.orderMs),
        checkoutSessionMs: percentiles(stats.sessionMs),
        loopMs: percentiles(stats.loopMs),
        errors: stats.errors,
        errorSamples: stats.errorSamples,
        ordersInDatabase: inDb,
        duplicateOrdersPerSession: dupes.rows[0].n,
      },
    };
    const r = result.results;
    console.log(
      `orders: ${r.orders} in ${stats.seconds.toFixed(1)} s → ${r.ordersPerSecond} orders/s (${args.buyers} buyers, in-store, ${args.lines} lines)`,
    );
    console.log(
      `POST /orders latency: p50 ${r.postOrdersMs.p50} ms, p95 ${r.postOrdersMs.p95} ms, p99 ${r.postOrdersMs.p99} ms, max ${r.postOrdersMs.max} ms`,
    );
    console.log(
      `POST /checkout-sessions: p50 ${r.checkoutSessionMs.p50} ms, p95 ${r.checkoutSessionMs.p95} ms; whole loop p50 ${r.loopMs.p50} ms, p95 ${r.loopMs.p95} ms`,
    );
    if (r.apiCpuMsPerOrder !== null)
      console.log(`API CPU per order loop: ${r.apiCpuMsPerOrder} ms; PostgreSQL backends: ${r.postgresCpuMsPerOrder} ms`);
    console.log(
      `errors: ${r.errors}; orders in the database: ${r.ordersInDatabase} (answered 201: ${r.orders}); sessions with more than one order: ${r.duplicateOrdersPerSession}`,
    );
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/results/orders.json'), JSON.stringify(result, null, 2) + '\n');
    console.log('wrote bench/results/orders.json');
    return `${r.ordersPerSecond} orders/s (${args.buyers} buyers); POST /orders p50 ${r.postOrdersMs.p50} ms, p95 ${r.postOrdersMs.p95} ms; ${r.errors} errors, ${r.duplicateOrdersPerSession} duplicates`;
  } finally {
    await stop(api);
    await db.destroy();
    if (!args.keep) await dropDatabase(args.db);
  }
}

// ---------------------------------------------------------------------------------------------------------

/** A fresh database: migrated, reference data, the real-data fixture (or --full), the demo data. */
export async function freshDatabase(args: Pick<Args, 'db' | 'full'>): Promise<Db> {
  await dropDatabase(args.db);
  const u = new URL(args.db);
  const name = u.pathname.slice(1);
  const admin = createDb(withDb(args.db, 'postgres'), { max: 1 });
  await admin.raw(`CREATE DATABASE "${name}"`);
  await admin.destroy();
  const db = createDb(args.db, { max: 4 });
  await migrateLatest(db);
  await seedReference(db);
  const files = args.full
    ? REAL_DATA_FILES.map((f) => dataFile(f))
    : (['stores.csv', 'products.csv', 'store_items.csv'] as const).map(fixtureFile);
  await importFiles(db, files);
  // Not the public demo password: the production start refuses accounts that still have it (buyers sign in by token).
  await seedDemo(db, { password: randomBytes(12).toString('hex'), bcryptCost: 4 });
  return db;
}

export async function dropDatabase(url: string) {
  const admin = createDb(withDb(url, 'postgres'), { max: 1 });
  await admin.raw(`DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`);
  await admin.destroy();
}

function withDb(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** N buyers with role outlet_buyer on the outlet, and the item codes of store 2190 to order. */
export async function prepare(db: Db, args: Pick<Args, 'buyers' | 'lines'>) {
  const outlet = (await db('outlets').where({ outlet_code: OUTLET_CODE }).first('id'))!;
  const role = (await db('roles').where({ code: 'outlet_buyer' }).first('id'))!;
  const hash = await bcrypt.hash(randomBytes(12).toString('hex'), 4);
  const buyers: { id: string; email: string }[] = [];
  for (let i = 1; i <= args.buyers; i++) {
    const email = `bench-buyer-${i}@example.com`;
    const [u] = await db('users').insert({ email, password_hash: hash }).returning('id');
    await db('user_profiles').insert({ user_id: u.id, first_name: 'Bench', last_name: `Buyer ${i}`, full_name: `Bench Buyer ${i}` });
    await db('role_grants').insert({ user_id: u.id, role_id: role.id, scope_type: 'outlet', outlet_id: outlet.id });
    buyers.push({ id: u.id, email });
  }
  const rows = await db('inventory as inv')
    .join('items as i', 'i.id', 'inv.item_id')
    .where({ 'inv.store_id': STORE, 'i.active': true })
    .orderBy('i.code')
    .select('i.code');
  if (rows.length < args.lines) throw new Error(`store ${STORE} has only ${rows.length} items`);
  return { outletId: outlet.id as number, buyers, codes: rows.map((r) => r.code as string), items: rows.length };
}

/** User + system CPU milliseconds of process `pid` so far (Linux /proc, clock ticks of 10 ms); null elsewhere. */
function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

async function countOrders(db: Db): Promise<number> {
  return (await db('orders').count<{ n: string }[]>('* as n'))[0].n as unknown as number;
}

interface Timing {
  orderMs: number;
  sessionMs: number;
  loopMs: number;
}

async function call(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ id: number; token: string }> {
  const res = await fetch(base + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => undefined)) as { code?: string; detail?: string } | undefined;
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${json?.code ?? ''} ${json?.detail ?? ''}`.trim());
  return json as unknown as { id: number; token: string }; // the fields the loop reads (a cart's id, a session's token)
}

/** One buyer's loop: fill the cart, start checkout, place the order in-store. */
export async function loop(base: string, token: string, outletId: number, codes: string[], lines: number): Promise<Timing> {
  const start = performance.now();
  const cart = await call(base, token, 'GET', `/carts/current?outletId=${outletId}&storeId=${STORE}`);
  const offset = Math.floor(Math.random() * codes.length);
  for (let i = 0; i < lines; i++)
    await call(base, token, 'POST', `/carts/${cart.id}/items`, { itemCode: codes[(offset + i) % codes.length] });
  const s0 = performance.now();
  const session = await call(base, token, 'POST', '/checkout-sessions', { cartId: cart.id });
  const o0 = performance.now();
  await call(
    base,
    token,
    'POST',
    '/orders',
    { checkoutToken: session.token, paymentMethod: 'in_store' },
    { 'idempotency-key': randomUUID() },
  );
  const end = performance.now();
  return { orderMs: end - o0, sessionMs: o0 - s0, loopMs: end - start };
}

async function measure(base: string, tokens: string[], outletId: number, codes: string[], args: Args) {
  const orderMs: number[] = [];
  const sessionMs: number[] = [];
  const loopMs: number[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + args.duration * 1000;
  await Promise.all(
    tokens.map(async (tok) => {
      while (performance.now() < deadline) {
        try {
          const t = await loop(base, tok, outletId, codes, args.lines);
          orderMs.push(t.orderMs);
          sessionMs.push(t.sessionMs);
          loopMs.push(t.loopMs);
        } catch (e) {
          errors++;
          if (errorSamples.length < 5) errorSamples.push((e as Error).message);
        }
      }
    }),
  );
  return { orders: orderMs.length, seconds: (performance.now() - started) / 1000, orderMs, sessionMs, loopMs, errors, errorSamples };
}

function percentiles(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => (s.length ? +s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)].toFixed(1) : 0);
  return {
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: s.length ? +s[s.length - 1].toFixed(1) : 0,
    mean: s.length ? +(s.reduce((a, b) => a + b, 0) / s.length).toFixed(1) : 0,
  };
}
