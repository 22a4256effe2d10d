/**
 * `npm run bench -- growth [--sizes 10000,100000,1000000] [--requests 30] [--keep] [--reuse <db>]`: cost curves
 * (issue 29 §3).
 * One throw-away database on the benchmarks' server: the real stores and products, the synthetic outlets and
 * users (seeds/synthetic.ts: 2,000 outlets, 20,000 users), then orders grown to each size in turn (the
 * `orders` kind, seeds/synthetic-orders.ts: 3 lines and an order.created event each). At each size, in
 * process (createApp on a local port, one client at a time): p50/p95 of My Orders (the buyer with the most
 * orders), Store Orders and Needs attention (a store manager of the busiest store; a super administrator),
 * the admin users list, the audit log, the order feed (a store API key: its first page and a page deep in
 * the feed) and the catalog search. Prints the generation time of each size and one table; writes
 * bench/results/growth.json. Target: every list p95 ≤ 100 ms at 1,000,000 orders.
 * `--reuse <db>`: measure a database kept by an earlier `--keep` run (its name is printed) as it is: the
 * migrations are brought up to date, nothing is generated (--sizes is ignored; the size is its order count),
 * and it is kept afterwards. This is how to iterate on indexes without regenerating a million orders.
 * Before measuring each size, orders, order_items, order_events and store_order_counts are vacuumed and
 * analysed (the steady state autovacuum keeps; not in the generation time), and each list gets 3 unmeasured
 * warm-up requests.
 */
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { createDb, migrateLatest, type Db } from '../apps/api/src/db/knex';
import { createApp } from '../apps/api/src/app';
import { loadConfig, type Config } from '../apps/api/src/config';
import { createLogger } from '../apps/api/src/logger';
import { signAccessToken } from '../apps/api/src/http/auth';
import type { Mailer } from '../apps/api/src/context';
import { importFiles, REAL_DATA_FILES, seedReference, seedSynthetic } from '../seeds';
import { BenchUsageError, benchArgs, benchServer, dataFile, positive, withDb, type BenchInfo } from './support';

export const info: BenchInfo = {
  title: 'cost curves: the lists at 10k, 100k and 1M orders',
  about:
    'Grows synthetic orders (3 lines and a feed event each) to each size and measures p50/p95 of My Orders, Store Orders, Needs attention, the admin users list, the audit log, the order feed and the catalog, one client at a time. Target: every list p95 ≤ 100 ms at 1,000,000 orders.',
  options: {
    sizes: { type: 'string', value: 'N,N,…', default: '10000,100000,1000000', help: 'order counts, ascending' },
    requests: { type: 'string', value: 'N', default: '30', help: 'requests per list and size' },
    keep: { type: 'boolean', help: 'keep the database afterwards (to EXPLAIN)' },
    reuse: { type: 'string', value: 'DB', help: 'measure a kept database (portal_bench_growth_…) as it is: migrate, no generation' },
  },
  quick: ['--sizes', '2000,10000', '--requests', '10'],
};
const TARGET_P95_MS = 100;
/** Unmeasured requests before each list's measured ones (JIT, the list's pages into the cache). */
const WARMUP = 3;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** A signed-in user of the bench: an auth session row and an access token. */
async function tokenOf(db: Db, config: Config, userId: string, email: string): Promise<string> {
  const sid = randomUUID();
  await db('auth_sessions').insert({
    user_id: userId,
    family_id: sid,
    token_hash: randomUUID().replace(/-/g, '').padEnd(64, '0'),
    expires_at: new Date(Date.now() + 3_600_000),
  });
  return signAccessToken(config.jwtSecret, 3600, { sub: userId, email, sid }).token;
}

export async function run(argv: string[] = []): Promise<string> {
  const { values } = benchArgs(argv, info);
  const sizes = String(values.sizes)
    .split(',')
    .map((s) => positive(s.trim(), 'sizes'))
    .sort((a, b) => a - b);
  const requests = positive(values.requests, 'requests');
  const reuse = typeof values.reuse === 'string' ? values.reuse : undefined;
  if (reuse !== undefined && !/^portal_bench_growth_\d+$/.test(reuse))
    throw new BenchUsageError(`--reuse takes a kept database portal_bench_growth_<pid> (got ${reuse})`);
  const name = reuse ?? `portal_bench_growth_${process.pid}`;
  const keep = Boolean(values.keep) || reuse !== undefined;
  const server = createDb(benchServer(), { max: 1 });
  if (!reuse) await server.raw(`CREATE DATABASE ${name}`);
  const url = withDb(benchServer(), name);
  const db = createDb(url, { max: 10 });
  let http: Server | undefined;
  try {
    await migrateLatest(db);
    let t0 = Date.now();
    if (!reuse) {
      await seedReference(db);
      await importFiles(
        db,
        REAL_DATA_FILES.map((f) => dataFile(f)),
      );
      t0 = Date.now();
      await seedSynthetic(db, { outlets: 2000, users: 20000 }, { production: false, log: (l) => console.log(l) });
      console.log(`outlets and users in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
    const config = loadConfig({
      NODE_ENV: 'development',
      DATABASE_URL: url,
      JWT_SECRET: 'bench-secret-that-is-at-least-32-characters',
      LOG_LEVEL: 'silent',
    });
    const mailer: Mailer = { enqueue: async () => undefined };
    const app = createApp({ config, db, logger: createLogger('silent'), mailer });
    http = await new Promise<Server>((ok) => {
      const srv = createServer(app).listen(0, '127.0.0.1', () => ok(srv));
    });
    const base = `http://127.0.0.1:${(http.address() as { port: number }).port}/api/v1`;
    // Per run (a reused database already holds the earlier runs' bench users).
    const run = randomUUID().slice(0, 8);
    const adminEmail = `bench-admin-${run}@example.com`;
    const [adm] = await db('users').insert({ email: adminEmail, password_hash: 'x' }).returning('id');
    const superRole = (await db('roles').where({ code: 'super_admin' }).first('id'))!.id;
    await db('role_grants').insert({ user_id: adm.id, role_id: superRole, scope_type: 'global' });
    const admin = await tokenOf(db, config, adm.id, adminEmail);

    const rows: { orders: number; generateSeconds: number; results: { name: string; p50: number; p95: number }[] }[] = [];
    const plan = reuse ? [Number((await db.raw('SELECT count(*) AS n FROM orders')).rows[0].n)] : sizes;
    for (const size of plan) {
      t0 = Date.now();
      if (!reuse) await seedSynthetic(db, { orders: size }, { production: false, log: (l) => console.log(l) });
      const generateSeconds = reuse ? 0 : +((Date.now() - t0) / 1000).toFixed(1);
      // Steady state, as autovacuum leaves a database between bursts: statistics and visibility maps current
      // (the lists' index-only scans need the latter; a migration that rewrote orders resets it).
      for (const table of ['orders', 'order_items', 'order_events', 'store_order_counts']) await db.raw(`VACUUM (ANALYZE) ${table}`);
      console.log(`${size.toLocaleString('en-US')} orders ready in ${generateSeconds} s (load ${loadavg()[0].toFixed(1)})`);
      // Who is measured: the buyer with the most orders; a store manager (made here) of the busiest store.
      const who = (
        await db.raw(`SELECT
          (SELECT o.user_id FROM orders o GROUP BY o.user_id ORDER BY count(*) DESC LIMIT 1) AS buyer,
          (SELECT store_id FROM orders GROUP BY 1 ORDER BY count(*) DESC LIMIT 1) AS busiest,
          (SELECT min(seq) FROM order_events) AS first_seq`)
      ).rows[0] as { buyer: string; busiest: number; first_seq: string };
      const emailOf = async (id: string) => (await db('users').where({ id }).first('email'))!.email;
      const buyer = await tokenOf(db, config, who.buyer, await emailOf(who.buyer));
      const managerEmail = `bench-manager-${size}-${run}@example.com`;
      const [mgr] = await db('users').insert({ email: managerEmail, password_hash: 'x' }).returning('id');
      const managerRole = (await db('roles').where({ code: 'store_manager' }).first('id'))!.id;
      await db('role_grants').insert({ user_id: mgr.id, role_id: managerRole, scope_type: 'store', store_id: who.busiest });
      const manager = await tokenOf(db, config, mgr.id, managerEmail);
      const managerStore = who.busiest;
      const keyRes = await fetch(`${base}/admin/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `growth ${size} ${run}`, storeId: managerStore, scopes: ['orders:read'] }),
      });
      const apiKey = ((await keyRes.json()) as { key: string }).key;
      const buyerStore = (await db('orders').where({ user_id: who.buyer }).first('store_id'))!.store_id;
      const deep = Number(who.first_seq) + Math.floor(size / 2);
      const lists: [string, string, string][] = [
        ['My Orders', buyer, '/orders?mine=true'],
        ['Store Orders', manager, `/orders?storeId=${managerStore}`],
        ['Store Orders, search', manager, `/orders?storeId=${managerStore}&search=SYN-00`],
        ['Needs attention (store)', manager, `/orders/attention?storeId=${managerStore}`],
        ['Needs attention (all)', admin, '/orders/attention'],
        ['Admin users', admin, '/admin/users?page=1&pageSize=25'],
        ['Audit log', admin, '/admin/audit-log?limit=50'],
        ['Feed, first page', apiKey, '/integrations/order-events?after=0&limit=100'],
        ['Feed, deep page', apiKey, `/integrations/order-events?after=${deep}&limit=100`],
        ['Catalog search', buyer, `/stores/${buyerStore}/products?search=vodka`],
      ];
      const results = [];
      for (const [label, bearer, path] of lists) {
        const ms: number[] = [];
        for (let i = -WARMUP; i < requests; i++) {
          const t = performance.now();
          const res = await fetch(base + path, { headers: { authorization: `Bearer ${bearer}` } });
          const body = await res.text();
          if (res.status !== 200) throw new Error(`${label} ${path} answered ${res.status}: ${body.slice(0, 200)}`);
          if (i >= 0) ms.push(performance.now() - t);
        }
        const r = { name: label, path, p50: +pct(ms, 50).toFixed(1), p95: +pct(ms, 95).toFixed(1) };
        console.log(`  ${label.padEnd(26)} p50 ${String(r.p50).padStart(7)} ms   p95 ${String(r.p95).padStart(7)} ms   ${path}`);
        results.push(r);
      }
      rows.push({ orders: size, generateSeconds, results });
    }
    const names = rows[0]?.results.map((r) => r.name) ?? [];
    console.log(`\np95 (ms) by orders in the database (${requests} requests each, one client; load ${loadavg()[0].toFixed(1)}):`);
    console.log(`| list | ${rows.map((r) => r.orders.toLocaleString('en-US')).join(' | ')} |`);
    console.log(`|---|${rows.map(() => '---:').join('|')}|`);
    for (const n of names) console.log(`| ${n} | ${rows.map((r) => r.results.find((x) => x.name === n)!.p95).join(' | ')} |`);
    console.log(`| (generation, s) | ${rows.map((r) => r.generateSeconds).join(' | ')} |`);
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(
      'bench/results/growth.json',
      JSON.stringify({ at: new Date().toISOString(), cores: cpus().length, loadAverage: loadavg(), requests, rows }, null, 2) + '\n',
    );
    console.log('wrote bench/results/growth.json');
    const last = rows[rows.length - 1];
    const worst = last.results.reduce((a, b) => (b.p95 > a.p95 ? b : a));
    const over = last.results.filter((r) => r.p95 > TARGET_P95_MS);
    return `${last.orders.toLocaleString('en-US')} orders: worst p95 ${worst.p95} ms (${worst.name}); ${over.length ? `${over.length} over ${TARGET_P95_MS} ms` : `all ≤ ${TARGET_P95_MS} ms`}`;
  } finally {
    if (http) await new Promise((ok) => http!.close(ok));
    await db.destroy();
    if (keep) console.log(`kept the database ${name}`);
    else await server.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await server.destroy();
  }
}
