/**
 * `npm run bench -- grants [--grants 5000] [--requests 200] [--keep]`: what scoped grants (ARCHITECTURE §11) cost when a
 * person holds thousands of them, as the administrator of a real board's outlets does. One throw-away database
 * on the benchmarks' server (bench/support.ts benchServer): the real stores,
 * `--grants` outlets (each linked to a real store, each with one buyer), one administrator holding Outlet
 * Manager at every one of those outlets and Store Manager at one store with its orders. Measures, in process
 * (createApp on a local port, one client at a time): p50/p95 of the users list (first page and a search), a
 * store's orders, /me/permissions, and an access check on one user (GET /admin/users/{id}); with the number of
 * SQL statements each request runs. Writes bench/results/grants.json. `--keep` keeps the database (to EXPLAIN).
 */
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { createDb, migrateLatest } from '../apps/api/src/db/knex';
import { createApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { createLogger } from '../apps/api/src/logger';
import { signAccessToken } from '../apps/api/src/http/auth';
import type { Mailer } from '../apps/api/src/context';
import { importFiles, seedReference } from '../seeds';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { benchArgs, benchServer, dataFile, positive, withDb, type BenchInfo } from './support';

export const info: BenchInfo = {
  title: 'scoped grants when one person holds thousands',
  about:
    "What scoped grants (ARCHITECTURE §11) cost when an administrator holds a role at thousands of outlets: p50/p95 and SQL statements of the users list (a page and a search), a store's orders, /me/permissions and one user's detail, one client at a time.",
  options: {
    grants: { type: 'string', value: 'N', default: '5000', help: 'outlets (each with a buyer) the administrator holds Outlet Manager at' },
    requests: { type: 'string', value: 'N', default: '200', help: 'requests per endpoint' },
    keep: { type: 'boolean', help: 'keep the database afterwards (to EXPLAIN)' },
  },
  quick: ['--grants', '500', '--requests', '20'],
};
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

export async function run(argv: string[] = []): Promise<string> {
  const { values } = benchArgs(argv, info);
  const grants = positive(values.grants, 'grants');
  const requests = positive(values.requests, 'requests');
  const name = `portal_bench_grants_${process.pid}`;
  const admin = createDb(benchServer(), { max: 1 });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = new URL(withDb(benchServer(), name));
  const db = createDb(url.toString(), { max: 10 });
  let http: Server | undefined;
  try {
    await migrateLatest(db);
    await seedReference(db);
    await importFiles(db, [dataFile('stores.csv')]);
    const stores: number[] = await db('stores').orderBy('id').pluck('id');
    const board = (await db('boards').orderBy('board_number').first('id'))!;
    const roles = new Map<string, number>((await db('roles').select('id', 'code')).map((r) => [r.code, r.id]));
    console.log(`seeding ${grants} outlets with a buyer each, and one administrator holding ${grants} grants…`);
    const t0 = Date.now();
    const outlets: number[] = [];
    for (let i = 0; i < grants; i += 1000) {
      const n = Math.min(1000, grants - i);
      const rows = await db('outlets')
        .insert(Array.from({ length: n }, (_, k) => ({ outlet_code: `BENCH-${i + k}`, name: `Bench Outlet ${i + k}`, board_id: board.id })))
        .returning('id');
      outlets.push(...rows.map((r: { id: number }) => r.id));
    }
    await db.batchInsert(
      'store_outlets',
      outlets.map((o, i) => ({ store_id: stores[i % stores.length], outlet_id: o })),
      1000,
    );
    await db.batchInsert(
      'users',
      outlets.map((_, i) => ({ email: `bench-buyer-${i}@example.com`, password_hash: 'x' })),
      1000,
    );
    const buyers: { id: string }[] = await db('users')
      .where('email', 'like', 'bench-buyer-%')
      .orderByRaw("(substring(email from 'bench-buyer-([0-9]+)@'))::int")
      .select('id');
    await db.batchInsert(
      'user_profiles',
      buyers.map((b, i) => ({ user_id: b.id, first_name: 'Bench', last_name: `Buyer ${i}`, full_name: `Bench Buyer ${i}` })),
      1000,
    );
    await db.batchInsert(
      'role_grants',
      buyers.map((b, i) => ({ user_id: b.id, role_id: roles.get('outlet_buyer'), scope_type: 'outlet', outlet_id: outlets[i] })),
      1000,
    );
    const [adm] = await db('users').insert({ email: 'bench-admin@example.com', password_hash: 'x' }).returning('id');
    await db('user_profiles').insert({ user_id: adm.id, first_name: 'Bench', last_name: 'Admin', full_name: 'Bench Admin' });
    await db.batchInsert(
      'role_grants',
      outlets.map((o) => ({ user_id: adm.id, role_id: roles.get('outlet_manager'), scope_type: 'outlet', outlet_id: o })),
      1000,
    );
    const store = stores[0];
    await db('role_grants').insert({ user_id: adm.id, role_id: roles.get('store_manager'), scope_type: 'store', store_id: store });
    // 500 orders at the store, from the outlets linked to it.
    const atStore = outlets.filter((_, i) => stores[i % stores.length] === store);
    await db.batchInsert(
      'orders',
      Array.from({ length: 500 }, (_, i) => ({
        order_number: `ORD-BENCH-${i}`,
        user_id: buyers[outlets.indexOf(atStore[i % atStore.length])].id,
        store_id: store,
        outlet_id: atStore[i % atStore.length],
        status: 'reserved',
        payment_method: 'in_store',
        payment_status: 'not_required',
        fulfillment_flag: 'Pickup',
        subtotal: '10.00',
        total_amount: '10.00',
        delivery_charge: 0,
        customer_name: 'Bench Buyer',
        customer_email: 'bench@example.com',
      })),
      500,
    );
    await db.raw('ANALYZE');
    console.log(
      `seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${await db('role_grants')
        .count<{ n: number }[]>('* as n')
        .then(([r]) => r.n)} grants in all`,
    );

    const config = loadConfig({
      NODE_ENV: 'development',
      DATABASE_URL: url.toString(),
      JWT_SECRET: 'bench-secret-that-is-at-least-32-characters',
      LOG_LEVEL: 'silent',
    });
    const mailer: Mailer = { enqueue: async () => undefined };
    const app = createApp({ config, db, logger: createLogger('silent'), mailer });
    http = await new Promise<Server>((ok) => {
      const s = createServer(app).listen(0, '127.0.0.1', () => ok(s));
    });
    const port = (http.address() as { port: number }).port;
    const sid = randomUUID();
    await db('auth_sessions').insert({
      user_id: adm.id,
      family_id: sid,
      token_hash: randomUUID().replace(/-/g, '').padEnd(64, '0'),
      expires_at: new Date(Date.now() + 3_600_000),
    });
    const token = signAccessToken(config.jwtSecret, 3600, { sub: adm.id, email: 'bench-admin@example.com', sid }).token;
    let statements = 0;
    db.on('query', () => statements++);
    const measure = async (path: string) => {
      const ms: number[] = [];
      let perRequest = 0;
      for (let i = 0; i < requests; i++) {
        const before = statements;
        const s = performance.now();
        const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
        ms.push(performance.now() - s);
        perRequest = statements - before;
      }
      return { path, p50: +pct(ms, 50).toFixed(1), p95: +pct(ms, 95).toFixed(1), statements: perRequest };
    };
    const results = [
      await measure('/admin/users?limit=50'),
      await measure('/admin/users?limit=50&search=buyer%2042'),
      await measure(`/orders?storeId=${store}`),
      await measure('/me/permissions'),
      await measure(`/admin/users/${buyers[42].id}`),
    ];
    console.log(`\n${grants} grants held by one administrator (${requests} requests each, one client):`);
    for (const r of results)
      console.log(
        `  ${r.path.padEnd(48)} p50 ${String(r.p50).padStart(6)} ms   p95 ${String(r.p95).padStart(6)} ms   ${r.statements} SQL statements`,
      );
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(
      'bench/results/grants.json',
      JSON.stringify({ at: new Date().toISOString(), cores: cpus().length, loadAverage: loadavg(), grants, requests, results }, null, 2),
    );
    console.log('wrote bench/results/grants.json');
    const users = results[0];
    const perms = results[3];
    return `${grants} grants: users list p95 ${users.p95} ms (${users.statements} SQL), /me/permissions p95 ${perms.p95} ms`;
  } finally {
    if (http) await new Promise((ok) => http!.close(ok));
    await db.destroy();
    if (values.keep) console.log(`kept the database ${name}`);
    else await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.destroy();
  }
}
