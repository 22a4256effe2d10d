/**
 * `npm run bench -- replicas [--duration 30] [--buyers 16] [--keep]`: two API processes behind HAProxy on one
 * PostgreSQL (issue 29 §4). HAProxy (Debian's `haproxy`; skipped without it) runs ops/haproxy.cfg, the file
 * docker-compose.prod.yml mounts, with PROXY_PORT, API_1 and API_2 set here. On a fresh database (as the
 * orders benchmark: the real-data fixture and the demo data) it shows, through the proxy and on each
 * replica directly:
 *   1. an API key's rate limit holds across both replicas (API_KEY_RATE_LIMIT_PER_MINUTE=40 here: 60 feed
 *      requests through the proxy, round robin → 40 answered, 20 refused with 429);
 *   2. a revoked API key and a signed-out session are refused by both replicas at once (revoked and signed out
 *      through replica 1, POST /auth/logout with the refresh cookie; asked of both right after: replica 2 learns it
 *      from the `principals_changed` notification, sent at commit, before replica 1 answers);
 *   3. N buyers place in-store orders through the proxy while replica 1 and then replica 2 are restarted
 *      (SIGTERM, wait for exit, start again on the same port): failed requests counted, orders answered 201
 *      against the database, and the order feed read from the start through the proxy: every order's
 *      order.created once, in seq order (gap-free);
 *   4. the reconciler and the janitors run once per tick: both are pg-boss schedules (every minute here,
 *      PAYMENT_RECONCILE_CRON and JANITOR_CRON) that both replicas register; it waits (≤ 150 s) until two ticks
 *      after the start have run, then counts their jobs per minute in pg-boss's tables (one job per tick, taken
 *      by one worker with SKIP LOCKED, completed once). Each replica's startup reconciliation pass is separate
 *      and settles on the locked order row.
 * Writes bench/results/replicas.json. A measurement, never a test.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { benchToken } from './session';
import { BenchSkipped, benchArgs, benchDatabaseUrl, freePort, positive, startBuiltApi, stop, waitForHttp, type BenchInfo } from './support';
import { dropDatabase, freshDatabase, loop, prepare } from './orders';
import type { Db } from '../apps/api/src/db/knex';
import { signAccessToken } from '../apps/api/src/http/auth';
import { REFRESH_COOKIE } from '../apps/api/src/modules/auth/auth.routes';
import { JANITOR_QUEUE } from '../apps/api/src/jobs/janitors';
import { RECONCILE_QUEUE } from '../apps/api/src/jobs/payment-reconciler';

const ROOT = resolve(__dirname, '..');

export const info: BenchInfo = {
  title: 'two API replicas behind HAProxy: shared limits, revocation, rolling restart under orders',
  about:
    'Two API processes behind HAProxy (ops/haproxy.cfg) on one PostgreSQL: an API key’s rate limit across both, a revoked key and a signed-out session refused by both at once, and N buyers ordering through the proxy while each replica is restarted in turn (failed requests, duplicates, the feed gap-free).',
  options: {
    duration: { type: 'string', value: 'S', default: '30', help: 'seconds of ordering (a restart at 1/3 and 2/3)' },
    buyers: { type: 'string', value: 'N', default: '16', help: 'concurrent buyers' },
    keep: { type: 'boolean', help: 'keep the database afterwards' },
  },
  quick: ['--duration', '12', '--buyers', '4'],
};

const RATE_LIMIT = 40;

async function call(base: string, bearer: string, method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

export async function run(argv: string[]): Promise<string> {
  const { values } = benchArgs(argv, info);
  const duration = positive(values.duration, 'duration');
  const buyers = positive(values.buyers, 'buyers');
  try {
    execFileSync('haproxy', ['-v'], { stdio: 'ignore' });
  } catch {
    throw new BenchSkipped('haproxy is not installed (Debian: apt-get install haproxy)');
  }
  const url = benchDatabaseUrl('portal_bench_replicas');
  const db = await freshDatabase({ db: url, full: false });
  const setup = await prepare(db, { buyers, lines: 3 });
  const jwt = randomBytes(32).toString('hex');
  const env = {
    JWT_SECRET: jwt,
    PAYMENT_CREDENTIALS_KEY: randomBytes(32).toString('hex'),
    API_KEY_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
    JOBS_ENABLED: 'true',
    PAYMENT_RECONCILE_CRON: '* * * * *',
    JANITOR_CRON: '* * * * *',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error', // 429s and 401s are what this benchmark asks for
  };
  const ports = [await freePort(), await freePort()];
  const apis: ChildProcess[] = [];
  let proxy: ChildProcess | undefined;
  try {
    apis.push((await startBuiltApi(url, env, { port: ports[0] })).api);
    apis.push((await startBuiltApi(url, env, { build: false, port: ports[1] })).api);
    const proxyPort = await freePort();
    proxy = spawn('haproxy', ['-f', join(ROOT, 'ops/haproxy.cfg')], {
      env: { ...process.env, PROXY_PORT: String(proxyPort), API_1: `127.0.0.1:${ports[0]}`, API_2: `127.0.0.1:${ports[1]}` },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const base = `http://127.0.0.1:${proxyPort}/api/v1`;
    const direct = ports.map((p) => `http://127.0.0.1:${p}/api/v1`);
    await waitForHttp(`${base}/health`, 30_000);
    const jobsFrom = new Date();
    console.log(`2 replicas (ports ${ports.join(', ')}) behind HAProxy on ${proxyPort}; load ${loadavg()[0].toFixed(1)}`);

    // 1. One API key's limit across both replicas.
    const admin = (await db('users').where({ email: 'admin@example.com' }).first('id', 'email'))!;
    const adminToken = await benchToken(db, jwt, 3600, admin);
    const key = await call(base, adminToken, 'POST', '/admin/api-keys', { name: 'replicas', storeId: 2190, scopes: ['orders:read'] });
    if (key.status !== 201) throw new Error(`creating an API key answered ${key.status}: ${JSON.stringify(key.body)}`);
    const apiKey = key.body.key as string;
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT * 1.5; i++)
      statuses.push((await call(base, apiKey, 'GET', '/integrations/order-events?after=0&limit=1')).status);
    const limited = {
      sent: statuses.length,
      ok: statuses.filter((s) => s === 200).length,
      refused: statuses.filter((s) => s === 429).length,
    };
    console.log(
      `1. API key limit ${RATE_LIMIT}/min through the proxy: ${limited.ok} answered, ${limited.refused} refused of ${limited.sent}`,
    );

    // 2. Revocation seen by the other replica at once.
    const key2 = await call(direct[0], adminToken, 'POST', '/admin/api-keys', { name: 'revoked', storeId: 2190, scopes: ['orders:read'] });
    const before = (await call(direct[1], key2.body.key as string, 'GET', '/integrations/order-events?after=0&limit=1')).status;
    await call(direct[0], adminToken, 'DELETE', `/admin/api-keys/${key2.body.id as string}`);
    const keyAfter = (await call(direct[1], key2.body.key as string, 'GET', '/integrations/order-events?after=0&limit=1')).status;
    // A session with a refresh token this bench knows, signed out through replica 1 as the browser does.
    const buyerUser = setup.buyers[0];
    const refresh = randomBytes(32).toString('base64url');
    const sid = randomUUID();
    await db('auth_sessions').insert({
      user_id: buyerUser.id,
      family_id: sid,
      token_hash: createHash('sha256').update(refresh).digest('hex'),
      expires_at: new Date(Date.now() + 3600_000),
    });
    const session = signAccessToken(jwt, 3600, { sub: buyerUser.id, email: buyerUser.email, sid }).token;
    const sessionBefore = [
      (await call(direct[0], session, 'GET', '/orders')).status,
      (await call(direct[1], session, 'GET', '/orders')).status,
    ];
    const signOut = await fetch(`${direct[0]}/auth/logout`, { method: 'POST', headers: { cookie: `${REFRESH_COOKIE}=${refresh}` } });
    if (signOut.status !== 204) throw new Error(`signing out through replica 1 answered ${signOut.status}`);
    const sessionAfter = [
      (await call(direct[0], session, 'GET', '/orders')).status,
      (await call(direct[1], session, 'GET', '/orders')).status,
    ];
    console.log(
      `2. API key revoked on replica 1: replica 2 answered ${before} before, ${keyAfter} right after; session signed out: ${sessionBefore.join('/')} before, ${sessionAfter.join('/')} right after (replica 1/2)`,
    );

    // 3. Ordering through the proxy while each replica restarts.
    const tokens = await Promise.all(setup.buyers.map((b) => benchToken(db, jwt, 3600, b)));
    const startCount = Number((await db('orders').count<{ n: string }[]>('* as n'))[0].n);
    let placed = 0;
    let failed = 0;
    const failures: string[] = [];
    const deadline = Date.now() + duration * 1000;
    const restarts: string[] = [];
    const restart = async (i: number) => {
      const t = Date.now();
      await stop(apis[i]);
      apis[i] = (await startBuiltApi(url, env, { build: false, port: ports[i] })).api;
      restarts.push(`replica ${i + 1} down and back in ${((Date.now() - t) / 1000).toFixed(1)} s`);
      await new Promise((ok) => setTimeout(ok, 3000)); // HAProxy marks it up after 2 good checks (ops/haproxy.cfg: rise 2, 1 s)
    };
    const restarting = (async () => {
      await new Promise((ok) => setTimeout(ok, (duration * 1000) / 3));
      await restart(0);
      await new Promise((ok) => setTimeout(ok, Math.max(0, deadline - Date.now() - (duration * 1000) / 3)));
      await restart(1);
    })();
    await Promise.all(
      tokens.map(async (tok) => {
        while (Date.now() < deadline) {
          try {
            await loop(base, tok, setup.outletId, setup.codes, 3);
            placed++;
          } catch (e) {
            failed++;
            if (failures.length < 5) failures.push((e as Error).message);
          }
        }
      }),
    );
    await restarting;
    const inDb = Number((await db('orders').count<{ n: string }[]>('* as n'))[0].n) - startCount;
    const dupes = (
      await db.raw(
        `SELECT count(*)::int AS n FROM (SELECT checkout_session_id FROM orders WHERE checkout_session_id IS NOT NULL GROUP BY 1 HAVING count(*) > 1) d`,
      )
    ).rows[0].n as number;
    // The feed from the start, through the proxy, with a fresh key (the first one is rate limited).
    const feedKey = (await call(base, adminToken, 'POST', '/admin/api-keys', { name: 'feed', storeId: 2190, scopes: ['orders:read'] })).body
      .key as string;
    const seqs: number[] = [];
    const createdOrders = new Set<number>();
    for (let after = 0; ;) {
      const page = await call(base, feedKey, 'GET', `/integrations/order-events?after=${after}&limit=100`);
      const items = (page.body.items ?? []) as { seq: number; type: string; order: { id: number } }[];
      if (!items.length) break;
      for (const it of items) {
        seqs.push(it.seq);
        if (it.type === 'order.created') createdOrders.add(it.order.id);
      }
      after = page.body.nextAfter as number;
    }
    const ordered = seqs.every((s, i) => i === 0 || s > seqs[i - 1]);
    const ordersInStore = Number((await db('orders').where({ store_id: 2190 }).count<{ n: string }[]>('* as n'))[0].n);

    // 4. The scheduled jobs ran once per tick, whichever replica took them.
    const scheduled = await scheduledJobs(db, jobsFrom);
    const result = {
      date: new Date().toISOString(),
      machine: { cores: cpus().length, loadavg: loadavg().map((l) => +l.toFixed(2)) },
      rateLimit: { limitPerMinute: RATE_LIMIT, ...limited },
      revocation: { apiKey: { before, after: keyAfter }, session: { before: sessionBefore, after: sessionAfter } },
      rollingRestart: {
        durationSeconds: duration,
        buyers,
        restarts,
        ordersAnswered: placed,
        ordersInDatabase: inDb,
        failed,
        failures,
        duplicates: dupes,
      },
      feed: { events: seqs.length, inSeqOrder: ordered, ordersWithCreatedEvent: createdOrders.size, ordersOfTheStore: ordersInStore },
      scheduledJobs: scheduled,
    };
    console.log(`3. ${restarts.join('; ')}`);
    console.log(
      `   ${buyers} buyers through the proxy for ${duration} s: ${placed} orders answered 201, ${inDb} in the database, ${failed} failed loops${failures.length ? ` (${failures.join(' | ')})` : ''}, ${dupes} duplicates`,
    );
    console.log(
      `   feed read from the start through the proxy: ${seqs.length} events, in seq order: ${ordered}; order.created for ${createdOrders.size} of the store's ${ordersInStore} orders`,
    );
    for (const q of scheduled)
      console.log(
        `4. ${q.queue}: ${q.jobs} jobs for ${q.ticks} ticks since the start (at most ${q.mostInOneTick} in one minute), ${q.completed} completed, ${q.retried} retried`,
      );
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/results/replicas.json'), JSON.stringify(result, null, 2) + '\n');
    return `limit ${limited.ok}/${limited.sent} across 2 replicas; revoked key ${keyAfter}, session ${sessionAfter.join('/')} at once; rolling restart: ${placed} orders, ${failed} failed, ${dupes} duplicates; feed ${ordered && createdOrders.size === ordersInStore ? 'gap-free' : 'NOT gap-free'} (${createdOrders.size}/${ordersInStore}); ${scheduled.map((q) => `${q.queue} ${q.jobs} jobs/${q.ticks} ticks`).join(', ')}`;
  } finally {
    if (proxy) proxy.kill('SIGTERM');
    for (const a of apis) await stop(a);
    await db.destroy();
    if (!values.keep) await dropDatabase(url);
  }
}

interface ScheduledQueue {
  queue: string;
  /** Jobs created since the start, in pg-boss's job and archive tables. */
  jobs: number;
  /** Distinct minutes those jobs were created in (the cron ticks). */
  ticks: number;
  mostInOneTick: number;
  completed: number;
  retried: number;
}

/**
 * The reconciler's and the janitors' jobs created since `from` (step 4): waits up to 150 s until each queue's jobs of
 * two ticks after the start have finished, then counts them per minute.
 */
async function scheduledJobs(db: Db, from: Date): Promise<ScheduledQueue[]> {
  const queues = [RECONCILE_QUEUE, JANITOR_QUEUE];
  const count = async () =>
    (
      await db.raw(
        `SELECT name AS queue, count(*)::int AS jobs, count(DISTINCT date_trunc('minute', created_on))::int AS ticks,
                coalesce(max(per_tick), 0)::int AS "mostInOneTick",
                count(*) FILTER (WHERE state = 'completed')::int AS completed,
                count(*) FILTER (WHERE retry_count > 0)::int AS retried
           FROM (SELECT name, created_on, state, retry_count,
                        count(*) OVER (PARTITION BY name, date_trunc('minute', created_on)) AS per_tick
                   FROM (SELECT name, created_on, state, retry_count FROM pgboss.job
                         UNION ALL SELECT name, created_on, state, retry_count FROM pgboss.archive) j
                  WHERE name = ANY(?) AND created_on >= ?) t
          GROUP BY name ORDER BY name`,
        [queues, from],
      )
    ).rows as ScheduledQueue[];
  const deadline = Date.now() + 150_000;
  for (;;) {
    const rows = await count();
    const done = queues.every((q) => rows.some((r) => r.queue === q && r.ticks >= 2 && r.completed === r.jobs));
    if (done || Date.now() > deadline)
      return queues.map(
        (q) => rows.find((r) => r.queue === q) ?? { queue: q, jobs: 0, ticks: 0, mostInOneTick: 0, completed: 0, retried: 0 },
      );
    await new Promise((ok) => setTimeout(ok, 2000));
  }
}
