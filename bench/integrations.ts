/**
 * `npm run bench -- integrations [--concurrency 2,4,8] [--format json|csv] [--orders 3000] [--placers 8]
 *   [--duration 15] [--connections 32] [--keep] [--default-limits]` (issue 14 acceptance): the warehouse integration API on the
 * real data, in a fresh database (BENCH_DATABASE_URL, default portal_bench_integrations on the benchmarks' server,
 * bench/support.ts benchServer; dropped before and after unless --keep), against dist/api/main.js in a child process (NODE_ENV=production,
 * pool 20, JOBS_ENABLED=false, API_KEY_RATE_LIMIT_PER_MINUTE=1000000 so the per-key limit, 3,000/min by default, never answers 429):
 *   1. stores.csv and products.csv are imported (db:import's code); the inventory stays empty;
 *   2. the full assortment file store_items_2022.csv(.gz) (545,495 rows, 2,003 stores) is pushed through
 *      PUT /integrations/stores/{storeId}/inventory, one request per store (JSON `[{ itemCode, onHand }]`, or
 *      text/csv `Item Number,On Hand` with --format csv; onHand = the row's Bottles Sold), with one board API key
 *      (inventory:write; a board key reaches every store of its board), N requests in flight. Each concurrency
 *      of --concurrency runs on an emptied inventory (TRUNCATE; every row created): wall time, rows/s, request
 *      p50/p95, the API's peak RSS (VmRSS of the child process from /proc every 200 ms), and the CPU seconds of
 *      the API process and of its PostgreSQL backends (where the time goes). Then the same push again at the best
 *      concurrency: everything unchanged. created + updated + unchanged must add up to 545,495; a request the API
 *      refuses (422 for an unknown item code, 404 for a store outside the key / not in the stores table: the whole
 *      request, nothing written) is counted with its rows as refused;
 *   3. --orders in-store orders are placed by --placers buyers (cart written into the database like the API
 *      tests' helpers, then POST /checkout-sessions and POST /orders over HTTP) in the 8 largest stores; then moved
 *      through POST /integrations/orders/{n}/status (every 2nd ready, every 4th then completed, 2 in 10 cancelled):
 *      real order_events rows, appended by the service;
 *   4. GET /integrations/order-events?after=<random seq>&limit=100 under autocannon, --connections for --duration s,
 *      with a board key (orders:read; the key reaches all stores) and then with one store's key: req/s,
 *      p50/p95/p99 (exact, from every response time), non-2xx and errors, bytes per answer, peak RSS;
 *   5. prints a summary and writes bench/results/integrations.json (machine, load average, params, numbers,
 *      targets: push ≤ 60 s, API RSS ≤ 300 MB during the push (the feed's peak RSS reported next to it), feed p95
 *      ≤ 50 ms with the board key and 0 non-2xx).
 * With --default-limits (issue 24 §7) the API keeps its default per-key rate limit (API_KEY_RATE_LIMIT_PER_MINUTE
 * unset) and only the push runs, once per --concurrency with a minute's pause between (one key's window), requests
 * refused 429 counted as refused: what an integrator's full push takes at the default limit; written to
 * bench/results/integrations-default-limits.json.
 * A measurement, never a test.
 */
import { type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { parse } from 'csv-parse';
import { createDb, migrateLatest, type Db } from '../apps/api/src/db/knex';
import { fillCart, storeItems, type StoreItem } from '../apps/api/src/modules/orders/test-support';
import { benchToken } from './session';
import { importFiles, openDataFile, seedReference } from '../seeds';
import {
  BenchUsageError,
  benchArgs,
  benchDatabaseUrl,
  dataFile,
  dbName,
  dropDatabase,
  fixtureFile,
  positive,
  sampleRss,
  startBuiltApi,
  stop,
  withDb,
  type BenchInfo,
} from './support';

const ROOT = resolve(__dirname, '..');

export const info: BenchInfo = {
  title: 'inventory push, orders and the order event feed of the integration API',
  about:
    'The warehouse integration API on the real data: the full store assortment pushed through PUT /integrations/stores/{id}/inventory with a board key at several concurrencies, then orders placed and moved through their states, then the order event feed under load with a board key and a store key. Targets: push ≤ 60 s, API RSS ≤ 300 MB, feed p95 ≤ 50 ms.',
  options: {
    concurrency: { type: 'string', value: 'N,N…', default: '2,4,8', help: 'push requests in flight, one push per value' },
    format: { type: 'string', value: 'json|csv', default: 'json', help: 'the push body' },
    orders: { type: 'string', value: 'N', default: '3000', help: 'in-store orders placed for the feed' },
    placers: { type: 'string', value: 'N', default: '8', help: 'buyers placing them, in parallel' },
    duration: { type: 'string', value: 'S', default: '15', help: 'seconds of feed load per key' },
    connections: { type: 'string', value: 'N', default: '32', help: 'autocannon connections on the feed' },
    file: { type: 'string', value: 'PATH', help: 'the store assortment file pushed (default data/iowa-abd/store_items_2022.csv.gz)' },
    keep: { type: 'boolean', help: 'keep the database afterwards' },
    'default-limits': {
      type: 'boolean',
      help: 'keep the default per-key rate limit and run only the push (a minute between concurrencies)',
    },
  },
  quick: [
    '--file',
    fixtureFile('store_items.csv'),
    '--concurrency',
    '4',
    '--orders',
    '60',
    '--placers',
    '2',
    '--duration',
    '2',
    '--connections',
    '8',
  ],
};
const TARGETS = { pushSeconds: 60, rssMB: 300, feedP95Ms: 50 };
const RATE_LIMIT = 1_000_000;

interface Args {
  concurrency: number[];
  format: 'json' | 'csv';
  orders: number;
  placers: number;
  duration: number;
  connections: number;
  keep: boolean;
  defaultLimits: boolean;
  file?: string;
  db: string;
}

function parseArgs(argv: string[]): Args {
  const { values } = benchArgs(argv, info);
  if (values.format !== 'json' && values.format !== 'csv') throw new BenchUsageError(`--format must be json or csv (got ${values.format})`);
  return {
    concurrency: String(values.concurrency)
      .split(',')
      .map((c) => positive(c, 'concurrency')),
    format: values.format,
    orders: positive(values.orders, 'orders'),
    placers: positive(values.placers, 'placers'),
    duration: positive(values.duration, 'duration'),
    connections: positive(values.connections, 'connections'),
    keep: Boolean(values.keep),
    defaultLimits: Boolean(values['default-limits']),
    file: values.file as string | undefined,
    db: benchDatabaseUrl('portal_bench_integrations'),
  };
}

/** Entry point for bench/run.ts; answers the one-line summary. */
export async function run(argv: string[]): Promise<string> {
  const args = parseArgs(argv);
  const file = args.file ?? dataFile('store_items_2022.csv');
  console.log(
    `integrations benchmark · ${cpus().length} cores · load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} · file ${file}`,
  );
  await dropDatabase(args.db);
  const admin = createDb(withDb(args.db, 'postgres'), { max: 1 });
  await admin.raw(`CREATE DATABASE "${dbName(args.db)}"`);
  await admin.destroy();
  const db: Db = createDb(args.db, { max: 8 });
  let api: ChildProcess | undefined;
  try {
    // 1. Catalog and stores; the inventory stays empty.
    const s0 = Date.now();
    await migrateLatest(db);
    await seedReference(db);
    await importFiles(db, [dataFile('stores.csv'), dataFile('products.csv')]);
    const role = (await db('roles').where({ code: 'super_admin' }).first('id'))!;
    const [user] = await db('users').insert({ email: 'bench-admin@example.com', password_hash: 'x', is_active: true }).returning('id');
    await db('role_grants').insert({ user_id: user.id, role_id: role.id, scope_type: 'global' });
    const assortment = await readAssortment(file);
    const totalRows = [...assortment.values()].reduce((n, r) => n + r.length, 0);
    console.log(
      `database ready in ${((Date.now() - s0) / 1000).toFixed(1)} s; ${totalRows.toLocaleString('en-US')} assortment rows in ${assortment.size} stores`,
    );

    const started = await startBuiltApi(args.db, {
      JOBS_ENABLED: 'false',
      ...(args.defaultLimits ? {} : { API_KEY_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) }),
      DATA_DIR: join(process.env.TMPDIR ?? '/tmp', `bench-integrations-${process.pid}`),
    });
    api = started.api;
    const { base, jwtSecret } = started;
    const token = await benchToken(db, jwtSecret, 3600, { id: user.id, email: 'bench-admin@example.com' });
    const adminCall = adminApi(base, token);
    const pid = api.pid!;
    const idle = sampleRss(pid);
    await new Promise((r) => setTimeout(r, 1000));
    const idleRssMB = Math.round(Math.max(...idle.stop()));

    // 2. The inventory push: one board key per board of the file's stores.
    const storeBoards = new Map<number, number>(
      (
        await db('stores')
          .whereIn('id', [...assortment.keys()])
          .select('id', 'board_id')
      ).map((s) => [s.id, s.board_id]),
    );
    const boardKeys = new Map<number, string>();
    for (const b of new Set(storeBoards.values())) {
      boardKeys.set(
        b,
        (await adminCall('POST', '/admin/api-keys', { name: `bench inventory board ${b}`, boardId: b, scopes: ['inventory:write'] })).key,
      );
    }
    const anyKey = [...boardKeys.values()][0];
    const jobs: PushJob[] = [...assortment.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([storeId, rows]) => ({
        storeId,
        rows: rows.length,
        key: boardKeys.get(storeBoards.get(storeId) ?? -1) ?? anyKey,
        body:
          args.format === 'csv'
            ? `Item Number,On Hand\n${rows.map((r) => `${r.itemCode},${r.onHand}`).join('\n')}\n`
            : JSON.stringify(rows),
      }));
    const bodyMB = jobs.reduce((n, j) => n + Buffer.byteLength(j.body), 0) / 2 ** 20;
    console.log(
      `${jobs.length} requests (${args.format}, ${bodyMB.toFixed(1)} MB in all, largest ${Math.max(...jobs.map((j) => j.rows))} rows); ${boardKeys.size} board key(s)`,
    );
    const firsts: PushResult[] = [];
    for (const [i, c] of args.concurrency.entries()) {
      if (i > 0) await db.raw('TRUNCATE inventory');
      // At the default limit a push spends most of its key's minute: the next one waits for a fresh window.
      if (i > 0 && args.defaultLimits) await new Promise((r) => setTimeout(r, 61_000));
      await db.raw('VACUUM ANALYZE inventory');
      console.log(`push at ${c} in flight (empty inventory)…`);
      const r = await push(base, jobs, c, args, pid, db);
      firsts.push(r);
      console.log(`  ${fmtPush(r)}`);
    }
    const best = firsts.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
    if (args.defaultLimits) {
      for (const r of firsts) console.log(`push ×${r.concurrency} at the default per-key limit: ${fmtPush(r)}`);
      const out = {
        date: new Date().toISOString(),
        loadavg: loadavg().map((l) => +l.toFixed(2)),
        file,
        rows: totalRows,
        requests: jobs.length,
        runs: firsts,
      };
      mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
      writeFileSync(join(ROOT, 'bench/results/integrations-default-limits.json'), JSON.stringify(out, null, 2) + '\n');
      console.log(
        `target: push ≤ 60 s ${mark(best.wallMs <= TARGETS.pushSeconds * 1000 && best.refusedRequests === 0)}; wrote bench/results/integrations-default-limits.json`,
      );
      return `default per-key limit: push ${(best.wallMs / 1000).toFixed(1)} s at ${best.concurrency} in flight, ${best.refusedRequests} requests refused`;
    }
    console.log(`the same push again at ${best.concurrency} in flight (everything unchanged)…`);
    const second = await push(base, jobs, best.concurrency, args, pid, db);
    console.log(`  ${fmtPush(second)}`);
    const inventoryRows = Number((await db('inventory').count<{ n: string }[]>('* as n'))[0].n);
    // The pushes' data (≈ 545,000 row objects and 17 MB of bodies) is let go here: the feed's latencies are
    // measured in this process, and its garbage collections over that heap would be counted as the API's.
    const storeCount = assortment.size;
    assortment.clear();
    jobs.length = 0;

    // 3. Orders and their events.
    const placed = await placeOrders(db, base, jwtSecret, args);
    console.log(
      `placed ${placed.numbers.length} orders in ${(placed.ms / 1000).toFixed(1)} s (${placed.errors} errors${placed.errorSamples.length ? `: ${placed.errorSamples[0]}` : ''})`,
    );
    const writeKey = (
      await adminCall('POST', '/admin/api-keys', {
        name: 'bench orders write',
        boardId: [...boardKeys.keys()][0],
        scopes: ['orders:write'],
      })
    ).key;
    const moved = await moveOrders(base, writeKey, placed.numbers, args.placers);
    console.log(
      `moved orders through POST /integrations/orders/{n}/status: ${moved.calls} calls in ${(moved.ms / 1000).toFixed(1)} s (${moved.errors} errors${moved.errorSamples.length ? `: ${moved.errorSamples[0]}` : ''})`,
    );
    const [events] = await db('order_events').select<{ n: number; max: number; bytes: number; stores: number }[]>(
      db.raw('count(*)::int AS n'),
      db.raw('max(seq)::int AS max'),
      db.raw('avg(pg_column_size(payload))::int AS bytes'),
      db.raw('count(DISTINCT store_id)::int AS stores'),
    );
    await db.raw('VACUUM ANALYZE order_events');
    console.log(
      `order_events: ${events.n} rows in ${events.stores} stores, max seq ${events.max}, payload ≈ ${events.bytes} bytes (jsonb)`,
    );

    // 4. The feed under load: a board key (all stores), then one store's key.
    const feedStore = placed.stores[0];
    const readBoard = (
      await adminCall('POST', '/admin/api-keys', { name: 'bench feed board', boardId: [...boardKeys.keys()][0], scopes: ['orders:read'] })
    ).key;
    const readStore = (
      await adminCall('POST', '/admin/api-keys', { name: 'bench feed store', storeId: feedStore, scopes: ['orders:read'] })
    ).key;
    const probe = (await (
      await fetch(`${base}/integrations/order-events?after=0&limit=100`, { headers: { authorization: `Bearer ${readBoard}` } })
    ).json()) as { items: unknown[]; nextAfter: number };
    if (probe.items.length !== Math.min(100, events.n)) throw new Error(`feed probe answered ${probe.items.length} events`);
    const feed = async (key: string, label: string) => {
      await feedLoad(base, key, events.max, args.connections, 2, pid); // warm-up
      const r = await feedLoad(base, key, events.max, args.connections, args.duration, pid);
      console.log(`  ${label}: ${fmtFeed(r)}`);
      return r;
    };
    console.log(`feed: ${args.connections} connections × ${args.duration} s, after=<random 0…${events.max}>&limit=100`);
    const feedBoard = await feed(readBoard, 'board key');
    const feedStoreRes = await feed(readStore, `store ${feedStore} key`);

    // 5. Summary.
    const pushRssMB = Math.max(...firsts.map((r) => r.peakRssMB), second.peakRssMB);
    const feedRssMB = Math.max(feedBoard.peakRssMB, feedStoreRes.peakRssMB);
    const sumOk = (r: PushResult) => r.created + r.updated + r.unchanged + r.refusedRows === totalRows;
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
        file,
        rows: totalRows,
        stores: storeCount,
        boards: boardKeys.size,
        api: `dist/api/main.js in a child process (NODE_ENV=production, pool 20, JOBS_ENABLED=false, API_KEY_RATE_LIMIT_PER_MINUTE=${RATE_LIMIT}); RSS = VmRSS of that process from /proc every 200 ms`,
        push: `PUT /integrations/stores/{id}/inventory, one request per store, ${args.format}, onHand = Bottles Sold, board key (inventory:write), mode=merge`,
        unknownRows:
          'the API refuses a request with an unknown item code (422, every row listed, nothing written) and a store outside the key (404); such requests count as refused with all their rows',
        orders: `${args.orders} in-store orders by ${args.placers} buyers in stores ${placed.stores.join(', ')}; then every 2nd ready, every 4th then completed, 2 in 10 cancelled, through the API`,
        feed: `GET /integrations/order-events?after=<random seq>&limit=100, autocannon ${args.connections} connections × ${args.duration} s (2 s warm-up), no Accept-Encoding`,
      },
      push: {
        idleRssMB,
        peakRssMB: pushRssMB,
        runs: firsts,
        best: best.concurrency,
        second,
        inventoryRows,
        rowsAddUp: { first: firsts.every(sumOk), second: sumOk(second) },
      },
      orders: {
        placed: placed.numbers.length,
        placeMs: placed.ms,
        placeErrors: placed.errors,
        transitions: moved.calls,
        transitionMs: moved.ms,
        transitionErrors: moved.errors,
        events,
      },
      feed: { peakRssMB: feedRssMB, boardKey: feedBoard, storeKey: { storeId: feedStore, ...feedStoreRes } },
      targets: {
        pushUnder60s: best.wallMs <= TARGETS.pushSeconds * 1000,
        pushRssUnder300MB: pushRssMB <= TARGETS.rssMB,
        feedRssUnder300MB: feedRssMB <= TARGETS.rssMB,
        feedP95Under50ms: feedBoard.p95 <= TARGETS.feedP95Ms,
        feedNoErrors: feedBoard.non2xx + feedBoard.errors + feedStoreRes.non2xx + feedStoreRes.errors === 0,
        rowsAddUp: firsts.every(sumOk) && sumOk(second),
      },
    };
    console.log(
      `\nload average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} (${cpus().length} cores)`,
    );
    for (const r of firsts) console.log(`push ×${r.concurrency}: ${fmtPush(r)}`);
    console.log(`push again ×${second.concurrency}: ${fmtPush(second)}`);
    console.log(
      `rows: ${totalRows.toLocaleString('en-US')} sent; first push created ${best.created} + updated ${best.updated} + unchanged ${best.unchanged} + refused ${best.refusedRows} ${sumOk(best) ? '=' : '≠'} ${totalRows}; ` +
        `second: unchanged ${second.unchanged} + created ${second.created} + updated ${second.updated} + refused ${second.refusedRows}; inventory rows ${inventoryRows}`,
    );
    console.log(`API RSS ${idleRssMB} MB idle → ${pushRssMB} MB peak during the pushes, ${feedRssMB} MB peak during the feed load`);
    console.log(`feed board key: ${fmtFeed(feedBoard)}`);
    console.log(`feed store key: ${fmtFeed(feedStoreRes)}`);
    const t = result.targets;
    console.log(
      `targets: push ≤ 60 s ${mark(t.pushUnder60s)} · push RSS ≤ 300 MB ${mark(t.pushRssUnder300MB)} (feed RSS ≤ 300 MB ${mark(t.feedRssUnder300MB)}) · feed p95 ≤ 50 ms ${mark(t.feedP95Under50ms)} · feed 0 non-2xx ${mark(t.feedNoErrors)} · rows add up ${mark(t.rowsAddUp)}`,
    );
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/results/integrations.json'), JSON.stringify(result, null, 2) + '\n');
    console.log('wrote bench/results/integrations.json');
    return `push ${totalRows.toLocaleString('en-US')} rows in ${(best.wallMs / 1000).toFixed(1)} s at ${best.concurrency} in flight, again ${(second.wallMs / 1000).toFixed(1)} s; feed p95 ${feedBoard.p95} ms (board key), ${feedStoreRes.p95} ms (store key); RSS peak ${pushRssMB} MB`;
  } finally {
    if (api) await stop(api);
    await db.destroy();
    if (!args.keep) await dropDatabase(args.db);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The inventory push.

interface PushJob {
  storeId: number;
  rows: number;
  key: string;
  body: string;
}
interface PushResult {
  concurrency: number;
  requests: number;
  wallMs: number;
  rowsPerSecond: number;
  requestMs: ReturnType<typeof percentiles>;
  created: number;
  updated: number;
  unchanged: number;
  removed: number;
  refusedRequests: number;
  refusedRows: number;
  refusedSamples: string[];
  peakRssMB: number;
  apiCpuSeconds: number;
  pgBackendCpuSeconds: number;
  benchCpuSeconds: number;
  loadavg1: number;
}

/** Every job through PUT …/inventory with `concurrency` requests in flight, sampling the API's RSS and CPU. */
async function push(base: string, jobs: PushJob[], concurrency: number, args: Args, pid: number, db: Db): Promise<PushResult> {
  const times: number[] = [];
  const tot = { created: 0, updated: 0, unchanged: 0, removed: 0, refusedRequests: 0, refusedRows: 0 };
  const refusedSamples: string[] = [];
  const rss = sampleRss(pid);
  const cpu = await sampleCpu(pid, db, dbName(args.db));
  const bench0 = process.cpuUsage();
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) {
        const j = jobs[next++];
        const s = performance.now();
        const res = await fetch(`${base}/integrations/stores/${j.storeId}/inventory`, {
          method: 'PUT',
          body: j.body,
          headers: {
            authorization: `Bearer ${j.key}`,
            'content-type': args.format === 'csv' ? 'text/csv' : 'application/json',
            accept: 'application/json',
          },
        });
        const text = await res.text();
        times.push(performance.now() - s);
        if (res.ok) {
          const r = JSON.parse(text) as { created: number; updated: number; unchanged: number; removed: number };
          tot.created += r.created;
          tot.updated += r.updated;
          tot.unchanged += r.unchanged;
          tot.removed += r.removed;
        } else {
          tot.refusedRequests++;
          tot.refusedRows += j.rows;
          if (refusedSamples.length < 5) refusedSamples.push(`store ${j.storeId}: ${res.status} ${text.slice(0, 200)}`);
        }
      }
    }),
  );
  const wallMs = Math.round(performance.now() - t0);
  const bench = process.cpuUsage(bench0);
  const { apiCpuSeconds, pgBackendCpuSeconds } = await cpu.stop();
  const rows = tot.created + tot.updated + tot.unchanged;
  return {
    concurrency,
    requests: jobs.length,
    wallMs,
    rowsPerSecond: Math.round(rows / (wallMs / 1000)),
    requestMs: percentiles(times),
    ...tot,
    refusedSamples,
    peakRssMB: Math.round(Math.max(...rss.stop())),
    apiCpuSeconds,
    pgBackendCpuSeconds,
    benchCpuSeconds: +((bench.user + bench.system) / 1e6).toFixed(1),
    loadavg1: +loadavg()[0].toFixed(2),
  };
}

const fmtPush = (r: PushResult) =>
  `${(r.wallMs / 1000).toFixed(1)} s, ${r.rowsPerSecond.toLocaleString('en-US')} rows/s, request p50 ${r.requestMs.p50} ms p95 ${r.requestMs.p95} ms max ${r.requestMs.max} ms; ` +
  `created ${r.created} updated ${r.updated} unchanged ${r.unchanged} refused ${r.refusedRequests} req/${r.refusedRows} rows; ` +
  `API RSS peak ${r.peakRssMB} MB; CPU: API ${r.apiCpuSeconds} s, its PostgreSQL backends ${r.pgBackendCpuSeconds} s, bench client ${r.benchCpuSeconds} s; load ${r.loadavg1}`;

/** store → its rows `{ itemCode, onHand }` (onHand = Bottles Sold), read from the assortment file (gzipped or plain). */
async function readAssortment(file: string): Promise<Map<number, { itemCode: string; onHand: number }[]>> {
  const out = new Map<number, { itemCode: string; onHand: number }[]>();
  const parser = openDataFile(file).pipe(parse({ columns: true, bom: true, skip_empty_lines: true }));
  for await (const rec of parser as AsyncIterable<Record<string, string>>) {
    const store = Number(rec['Store Number']);
    const sold = Number(rec['Bottles Sold']);
    let rows = out.get(store);
    if (!rows) out.set(store, (rows = []));
    rows.push({ itemCode: rec['Item Number'].trim(), onHand: Number.isInteger(sold) && sold >= 0 ? sold : 0 });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Orders and their events.

/** `args.orders` in-store orders in the 8 largest stores of the inventory, by `args.placers` buyers in parallel. */
async function placeOrders(db: Db, base: string, secret: string, args: Args) {
  const stores: number[] = (
    await db('inventory').groupBy('store_id').orderByRaw('count(*) DESC, store_id').limit(8).select('store_id')
  ).map((r) => r.store_id);
  const board = (await db('stores').where({ id: stores[0] }).first('board_id'))!;
  const outlets = new Map<number, number>();
  for (const s of stores) {
    const [o] = await db('outlets')
      .insert({ outlet_code: `BENCH-${s}`, name: `Bench outlet of store ${s}`, board_id: board.board_id, default_store_id: s })
      .returning('id');
    await db('store_outlets').insert({ store_id: s, outlet_id: o.id });
    outlets.set(s, o.id);
  }
  const role = (await db('roles').where({ code: 'outlet_buyer' }).first('id'))!;
  const buyers: { id: string; token: string }[] = [];
  for (let i = 1; i <= args.placers; i++) {
    const email = `bench-buyer-${i}@example.com`;
    const [u] = await db('users').insert({ email, password_hash: 'x' }).returning('id');
    await db('user_profiles').insert({ user_id: u.id, first_name: 'Bench', last_name: `Buyer ${i}`, full_name: `Bench Buyer ${i}` });
    await db('role_grants').insert(
      [...outlets.values()].map((outlet_id) => ({ user_id: u.id, role_id: role.id, scope_type: 'outlet', outlet_id })),
    );
    buyers.push({ id: u.id, token: await benchToken(db, secret, 3600, { id: u.id, email }) });
  }
  const items = new Map<number, StoreItem[]>();
  for (const s of stores) items.set(s, await storeItems(db, s, 200));
  const numbers: string[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  let n = 0;
  const t0 = Date.now();
  await Promise.all(
    buyers.map(async (b) => {
      while (n < args.orders) {
        const i = n++;
        const store = stores[i % stores.length];
        const pool = items.get(store)!;
        const lines = Array.from({ length: 1 + (i % 3) }, (_, k) => ({
          item: pool[(i * 7 + k * 13) % pool.length],
          quantity: 1 + ((i + k) % 6),
        }));
        try {
          const cartId = await fillCart(db, { userId: b.id, outletId: outlets.get(store)!, storeId: store, lines });
          const session = await call(base, b.token, 'POST', '/checkout-sessions', { cartId });
          const order = await call(
            base,
            b.token,
            'POST',
            '/orders',
            { checkoutToken: session.token, paymentMethod: 'in_store' },
            { 'idempotency-key': randomUUID() },
          );
          numbers.push(order.orderNumber);
        } catch (e) {
          errors++;
          if (errorSamples.length < 5) errorSamples.push((e as Error).message);
        }
      }
    }),
  );
  return { stores, numbers, errors, errorSamples, ms: Date.now() - t0 };
}

/** Every 2nd order ready, every 4th then completed, 2 in 10 cancelled (i ≡ 5 from reserved, i ≡ 6 from ready, mod 10), through the API. */
async function moveOrders(base: string, key: string, numbers: string[], concurrency: number) {
  let next = 0;
  let calls = 0;
  let errors = 0;
  const errorSamples: string[] = [];
  const t0 = Date.now();
  const status = async (n: string, body: object) => {
    calls++;
    try {
      await call(base, key, 'POST', `/integrations/orders/${encodeURIComponent(n)}/status`, body);
    } catch (e) {
      errors++;
      if (errorSamples.length < 5) errorSamples.push((e as Error).message);
    }
  };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < numbers.length) {
        const i = next++;
        if (i % 2 === 0) await status(numbers[i], { status: 'ready' });
        if (i % 4 === 0) await status(numbers[i], { status: 'completed' });
        else if (i % 10 === 5 || i % 10 === 6)
          await status(numbers[i], { status: 'cancelled', reason: 'Bench: cancelled by the warehouse' });
      }
    }),
  );
  return { calls, errors, errorSamples, ms: Date.now() - t0 };
}

async function call(base: string, token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
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
  const json = (await res.json().catch(() => undefined)) as Record<string, string> | undefined;
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${json?.code ?? ''} ${json?.detail ?? ''}`.trim());
  return json as Record<string, string>;
}

const adminApi = (base: string, token: string) => (method: string, path: string, body?: unknown) => call(base, token, method, path, body);

// ---------------------------------------------------------------------------------------------------------
// The feed under load.

interface FeedResult {
  rps: number;
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  bytesPerAnswer: number;
  peakRssMB: number;
  loadavg1: number;
}

/** autocannon on the feed with a random cursor per request; every response time kept (exact percentiles). */
async function feedLoad(base: string, key: string, maxSeq: number, connections: number, seconds: number, pid: number): Promise<FeedResult> {
  const times: number[] = [];
  const rss = sampleRss(pid);
  const u = new URL(base);
  const r = await new Promise<autocannon.Result>((ok, fail) => {
    const instance = autocannon(
      {
        url: u.origin,
        connections,
        duration: seconds,
        headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
        requests: [
          {
            method: 'GET',
            setupRequest: (req) => ({
              ...req,
              path: `${u.pathname}/integrations/order-events?after=${Math.floor(Math.random() * maxSeq)}&limit=100`,
            }),
          },
        ],
      },
      (err, res) => (err ? fail(err) : ok(res)),
    );
    instance.on('response', (_c, _s, _b, responseTime) => {
      times.push(responseTime);
    });
  });
  const p = percentiles(times);
  return {
    rps: Math.round(r.requests.total / r.duration),
    requests: r.requests.total,
    p50: p.p50,
    p95: p.p95,
    p99: p.p99,
    max: p.max,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    bytesPerAnswer: r.requests.total ? Math.round(r.throughput.total / r.requests.total) : 0,
    peakRssMB: Math.round(Math.max(...rss.stop())),
    loadavg1: +loadavg()[0].toFixed(2),
  };
}

const fmtFeed = (r: FeedResult) =>
  `${r.rps} req/s, p50 ${r.p50} ms p95 ${r.p95} ms p99 ${r.p99} ms max ${r.max} ms, non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}, ${(r.bytesPerAnswer / 1024).toFixed(0)} KB/answer, API RSS peak ${r.peakRssMB} MB; load ${r.loadavg1}`;

// ---------------------------------------------------------------------------------------------------------
// Helpers.

function percentiles(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => (s.length ? +s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)].toFixed(1) : 0);
  return { p50: at(50), p95: at(95), p99: at(99), max: s.length ? +s[s.length - 1].toFixed(1) : 0 };
}

const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');

/** utime + stime of a process in seconds (/proc/<pid>/stat, USER_HZ 100); undefined when gone or unreadable. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds of the API process and of the PostgreSQL backends serving the bench database (pids from
 * pg_stat_activity, read every 500 ms; a backend first seen during the run counts from 0; the bench's own
 * connection included, it idles). Same machine only.
 */
async function sampleCpu(pid: number, db: Db, name: string) {
  const api0 = cpuSeconds(pid) ?? 0;
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const scan = async (initial: boolean) => {
    const rows: { pid: number }[] = (await db.raw('SELECT pid FROM pg_stat_activity WHERE datname = ?', [name])).rows;
    for (const { pid: p } of rows) {
      const s = cpuSeconds(p);
      if (s === undefined) continue;
      if (!first.has(p)) first.set(p, initial ? s : 0);
      last.set(p, s);
    }
  };
  await scan(true);
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    scan(false)
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  }, 500);
  return {
    async stop() {
      clearInterval(timer);
      await scan(false);
      let pg = 0;
      for (const [p, s] of last) pg += s - (first.get(p) ?? 0);
      return { apiCpuSeconds: +((cpuSeconds(pid) ?? api0) - api0).toFixed(1), pgBackendCpuSeconds: +pg.toFixed(1) };
    },
  };
}
