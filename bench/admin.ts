/**
 * `npm run bench -- admin [--users 100000] [--outlets 10000] [--requests 40] [--keep]`: the admin lists at scale
 * (ARCHITECTURE §5 "Administration at scale", issue 26; target every p95 ≤ 100 ms at 100,000 users and 10,000
 * outlets). One throw-away database on the benchmarks' server (bench/support.ts benchServer): the real stores
 * and products, then the synthetic dataset (seeds/synthetic.ts: `--users`, `--outlets`). Measures, in
 * process (createApp on a local port, one client at a time, as a super administrator): p50/p95 of the users
 * list with each filter and sort (and a deep page), its ids and a filtered export, and the outlets, stores and
 * items lists with their sorts and filters. Writes bench/results/admin.json. `--keep` keeps the database.
 */
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { createDb, migrateLatest } from '../apps/api/src/db/knex';
import { createApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { createLogger } from '../apps/api/src/logger';
import { signAccessToken } from '../apps/api/src/http/auth';
import type { Mailer } from '../apps/api/src/context';
import { importFiles, seedReference, seedSynthetic } from '../seeds';
import { benchArgs, benchServer, dataFile, positive, withDb, type BenchInfo } from './support';

export const info: BenchInfo = {
  title: 'admin lists at scale',
  about:
    'p50/p95 of the admin lists (users with each filter and sort, ids, export; outlets, stores, items with sorts and filters) at 100,000 users and 10,000 outlets, one client at a time, as a super administrator. Target: every p95 ≤ 100 ms.',
  options: {
    users: { type: 'string', value: 'N', default: '100000', help: 'synthetic users' },
    outlets: { type: 'string', value: 'N', default: '10000', help: 'synthetic outlets' },
    requests: { type: 'string', value: 'N', default: '40', help: 'requests per list' },
    keep: { type: 'boolean', help: 'keep the database afterwards (to EXPLAIN)' },
  },
  quick: ['--users', '10000', '--outlets', '1000', '--requests', '10'],
};
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const TARGET_P95_MS = 100;

export async function run(argv: string[] = []): Promise<string> {
  const { values } = benchArgs(argv, info);
  const users = positive(values.users, 'users');
  const outlets = positive(values.outlets, 'outlets');
  const requests = positive(values.requests, 'requests');
  const name = `portal_bench_admin_${process.pid}`;
  const server = createDb(benchServer(), { max: 1 });
  await server.raw(`CREATE DATABASE ${name}`);
  const url = withDb(benchServer(), name);
  const db = createDb(url, { max: 10 });
  let http: Server | undefined;
  try {
    await migrateLatest(db);
    await seedReference(db);
    await importFiles(db, [dataFile('stores.csv'), dataFile('products.csv')]);
    console.log(`seeding ${users} users and ${outlets} outlets (seeds/synthetic.ts)…`);
    const t0 = Date.now();
    await seedSynthetic(db, { outlets, users }, { production: false, log: (l) => console.log(l) });
    console.log(`seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const [adm] = await db('users').insert({ email: 'bench-admin@example.com', password_hash: 'x' }).returning('id');
    const superRole = (await db('roles').where({ code: 'super_admin' }).first('id'))!.id;
    await db('role_grants').insert({ user_id: adm.id, role_id: superRole, scope_type: 'global' });
    const sample = await db.raw(`SELECT
        (SELECT id FROM outlets WHERE outlet_code = 'SYN-O-000042') AS outlet,
        (SELECT store_id FROM store_outlets ORDER BY store_id LIMIT 1) AS store,
        (SELECT id FROM boards ORDER BY board_number LIMIT 1) AS board,
        (SELECT category FROM items WHERE category IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1) AS category`);
    const s = sample.rows[0] as { outlet: number; store: number; board: number; category: string };

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
    const port = (http.address() as { port: number }).port;
    const sid = randomUUID();
    await db('auth_sessions').insert({
      user_id: adm.id,
      family_id: sid,
      token_hash: randomUUID().replace(/-/g, '').padEnd(64, '0'),
      expires_at: new Date(Date.now() + 3_600_000),
    });
    const token = signAccessToken(config.jwtSecret, 3600, { sub: adm.id, email: 'bench-admin@example.com', sid }).token;
    const measure = async (path: string) => {
      const ms: number[] = [];
      let total: number | undefined;
      for (let i = 0; i < requests; i++) {
        const t = performance.now();
        const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
        const body = await res.text();
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${body.slice(0, 200)}`);
        ms.push(performance.now() - t);
        if (i === 0 && body.startsWith('{')) total = (JSON.parse(body) as { total?: number }).total;
      }
      const r = { path, p50: +pct(ms, 50).toFixed(1), p95: +pct(ms, 95).toFixed(1), total };
      console.log(`  ${path.padEnd(62)} p50 ${String(r.p50).padStart(6)} ms   p95 ${String(r.p95).padStart(6)} ms   total ${total ?? '—'}`);
      return r;
    };
    const paths = [
      '/admin/users?page=1&pageSize=25',
      '/admin/users?page=1&pageSize=100&sort=-name',
      '/admin/users?page=1&pageSize=25&sort=email',
      '/admin/users?page=1&pageSize=25&sort=-email',
      '/admin/users?page=1&pageSize=25&sort=-lastLogin',
      '/admin/users?page=1&pageSize=25&sort=lastLogin',
      '/admin/users?page=400&pageSize=25',
      '/admin/users?page=1&pageSize=25&role=store_manager',
      '/admin/users?page=1&pageSize=25&role=outlet_buyer&sort=-lastLogin',
      `/admin/users?page=1&pageSize=25&outletId=${s.outlet}`,
      `/admin/users?page=1&pageSize=25&storeId=${s.store}`,
      '/admin/users?page=1&pageSize=25&status=inactive',
      '/admin/users?page=1&pageSize=25&status=invited',
      '/admin/users?page=1&pageSize=25&search=adler',
      '/admin/users?page=1&pageSize=25&search=syn-user-04242',
      '/admin/users?limit=50',
      '/admin/users/ids?role=board_admin',
      `/admin/users/export.csv?storeId=${s.store}`,
      '/admin/outlets?page=1&pageSize=25',
      '/admin/outlets?page=1&pageSize=25&sort=-name',
      '/admin/outlets?page=1&pageSize=25&search=tavern',
      `/admin/outlets?page=1&pageSize=25&boardId=${s.board}&active=true&sort=code`,
      `/admin/outlets?page=1&pageSize=25&storeId=${s.store}`,
      '/admin/stores?page=1&pageSize=25&sort=name',
      '/admin/stores?page=2&pageSize=10&deliveryEnabled=true&sort=name',
      '/admin/stores?page=1&pageSize=25&hasCredentials=false&sort=-city',
      '/admin/items?page=1&pageSize=25',
      '/admin/items?page=1&pageSize=25&sort=-retail',
      `/admin/items?page=1&pageSize=25&category=${encodeURIComponent(s.category)}&sort=size`,
    ];
    console.log(`\n${users} users, ${outlets} outlets (${requests} requests each, one client):`);
    const results = [];
    for (const p of paths) results.push(await measure(p));
    const over = results.filter((r) => r.p95 > TARGET_P95_MS);
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(
      'bench/results/admin.json',
      JSON.stringify(
        { at: new Date().toISOString(), cores: cpus().length, loadAverage: loadavg(), users, outlets, requests, results },
        null,
        2,
      ),
    );
    console.log('wrote bench/results/admin.json');
    const worst = results.reduce((a, b) => (b.p95 > a.p95 ? b : a));
    return `${users} users, ${outlets} outlets: worst p95 ${worst.p95} ms (${worst.path}); ${over.length ? `${over.length} over ${TARGET_P95_MS} ms` : `all ≤ ${TARGET_P95_MS} ms`}`;
  } finally {
    if (http) await new Promise((ok) => http!.close(ok));
    await db.destroy();
    if (values.keep) console.log(`kept the database ${name}`);
    else await server.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await server.destroy();
  }
}
