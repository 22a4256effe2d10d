/**
 * `npm run bench -- login [--rounds 4] [--slice 5] [--connections 4]`: sign-in throughput against bcrypt alone
 * (issue 3 "Benchmark"). On a fresh database on the benchmarks' server (bench/support.ts benchServer),
 * migrated with reference data and 4 accounts hashed at cost 12, it:
 *   1. starts the API in-process (createApp, the real routes, BCRYPT_COST 12) on a loopback port;
 *   2. alternates, `rounds` times, a `slice` of bcrypt cost-12 compares alone, 4 at a time (the libuv pool
 *      the API uses too), and a slice of POST /api/v1/auth/login load with autocannon at 4 connections
 *      (rotating the 4 accounts), so both see the same background load on a shared machine;
 *   3. prints sign-ins/s, the ratio to bcrypt alone, p95 (exact, from every response time) and p99,
 *      and writes bench/results/login.json.
 * Targets: ≥ 90 % of bcrypt alone, p95 < 600 ms. A measurement, never a test.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import bcrypt from 'bcrypt';
import { createApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { createDb, migrateLatest } from '../apps/api/src/db/knex';
import { createLogger } from '../apps/api/src/logger';
import type { Mailer } from '../apps/api/src/context';
import { seedReference } from '../seeds';
import { benchArgs, benchServer, positive, withDb, type BenchInfo } from './support';

export const info: BenchInfo = {
  title: 'sign-in throughput against bcrypt alone',
  about:
    'Sign-in throughput (POST /auth/login, bcrypt cost 12) against bcrypt alone, in alternating slices on a fresh database. Targets: ≥ 90 % of bcrypt alone, p95 < 600 ms.',
  options: {
    rounds: { type: 'string', value: 'N', default: '4', help: 'slices of bcrypt alone and of sign-in load, alternated' },
    slice: { type: 'string', value: 'S', default: '5', help: 'seconds per slice' },
    connections: { type: 'string', value: 'N', default: '4', help: 'sign-ins (and bcrypt compares) in flight' },
  },
  quick: ['--rounds', '1'],
};

const COST = 12;
const PASSWORD = 'Bench#Login2026';

/** bcrypt.compare at `concurrency` in flight for `seconds`; returns compares per second. */
async function bcryptAlone(hash: string, concurrency: number, seconds: number) {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        await bcrypt.compare(PASSWORD, hash);
        done++;
      }
    }),
  );
  return done / ((Date.now() - t0) / 1000);
}

const percentile = (sorted: number[], p: number) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);

/** Entry point for bench/run.ts; answers the one-line summary. */
export async function run(argv: string[] = []): Promise<string> {
  const { values } = benchArgs(argv, info);
  const rounds = positive(values.rounds, 'rounds');
  const slice = positive(values.slice, 'slice');
  const connections = positive(values.connections, 'connections');
  const server = benchServer();
  const name = `portal_bench_login_${process.pid}`;
  const admin = createDb(server, { max: 1 });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = new URL(withDb(server, name));
  const db = createDb(url.toString(), { max: 20 });
  let http: Server | undefined;
  try {
    await migrateLatest(db);
    await seedReference(db);
    const hash = await bcrypt.hash(PASSWORD, COST);
    const emails = [0, 1, 2, 3].map((i) => `bench-${i}@example.com`);
    await db('users').insert(emails.map((email) => ({ email, password_hash: hash })));

    const config = loadConfig({
      NODE_ENV: 'development',
      BCRYPT_COST: String(COST),
      DATABASE_URL: url.toString(),
      JWT_SECRET: 'bench-secret-that-is-at-least-32-characters',
      LOG_LEVEL: 'silent',
      // The bench measures sign-in cost from one address: the per-IP sign-in limit (issue 8 §17) would stop it.
      AUTH_IP_LOGIN_LIMIT: '100000000',
    });
    const mailer: Mailer = { enqueue: async () => undefined };
    const app = createApp({ config, db, logger: createLogger('silent'), mailer });
    http = await new Promise<Server>((ok) => {
      const s = app.listen(0, '127.0.0.1', () => ok(s));
    });
    const port = (http.address() as { port: number }).port;

    console.log(
      `machine: ${cpus().length} cores (${cpus()[0]?.model}), load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    await bcryptAlone(hash, connections, 2); // warm-up
    // Warm the API (dummy hash, JIT, pool) with a few sign-ins.
    for (const email of emails) {
      const r = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      if (r.status !== 200) throw new Error(`warm-up sign-in answered ${r.status}: ${await r.text()}`);
    }

    // The machine is shared: alternate short slices of bcrypt alone and sign-in load so both see the same
    // background, and compare the totals.
    const times: number[] = [];
    const statuses = new Map<number, number>();
    const bcryptRates: number[] = [];
    const signInRates: number[] = [];
    let ok = 0;
    let signInSeconds = 0;
    let errors = 0;
    let i = 0;
    for (let round = 0; round < rounds; round++) {
      const alone = await bcryptAlone(hash, connections, slice);
      bcryptRates.push(alone);
      const before = statuses.get(200) ?? 0;
      const result = await new Promise<autocannon.Result>((ok, fail) => {
        const instance = autocannon(
          {
            url: `http://127.0.0.1:${port}`,
            connections,
            duration: slice,
            pipelining: 1,
            requests: [
              {
                method: 'POST',
                path: '/api/v1/auth/login',
                headers: { 'content-type': 'application/json' },
                setupRequest: (req) => ({ ...req, body: JSON.stringify({ email: emails[i++ % emails.length], password: PASSWORD }) }),
              },
            ],
          },
          (err, res) => (err ? fail(err) : ok(res)),
        );
        instance.on('response', (_client, statusCode, _bytes, responseTime) => {
          times.push(responseTime);
          statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
        });
      });
      const roundOk = (statuses.get(200) ?? 0) - before;
      ok += roundOk;
      signInSeconds += result.duration;
      errors += result.errors;
      signInRates.push(roundOk / result.duration);
      console.log(
        `round ${round + 1}: bcrypt alone ${alone.toFixed(2)}/s, sign-in ${(roundOk / result.duration).toFixed(2)}/s (load ${loadavg()[0].toFixed(2)})`,
      );
    }
    const reference = bcryptRates.reduce((a, b) => a + b, 0) / bcryptRates.length;
    const signInsPerSecond = ok / signInSeconds;
    const ratio = signInsPerSecond / reference;
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    const p99 = percentile(times, 99);
    console.log(`bcrypt cost ${COST} alone, ${connections} in flight: ${reference.toFixed(2)} compares/s (mean of ${rounds} slices)`);
    console.log(
      `sign-in: ${signInsPerSecond.toFixed(2)} /s at ${connections} connections over ${signInSeconds.toFixed(1)} s (${ok} ok, statuses ${JSON.stringify(Object.fromEntries(statuses))}, ${errors} errors)`,
    );
    console.log(`ratio to bcrypt alone: ${(ratio * 100).toFixed(1)} % (target ≥ 90 %)`);
    console.log(
      `latency: p50 ${percentile(times, 50)} ms, p95 ${p95} ms (target < 600 ms), p99 ${p99} ms, max ${Math.round(times[times.length - 1])} ms`,
    );
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(
      'bench/results/login.json',
      JSON.stringify(
        {
          at: new Date().toISOString(),
          cores: cpus().length,
          loadAverage: loadavg(),
          bcryptCost: COST,
          connections,
          rounds,
          sliceSeconds: slice,
          bcryptAlonePerSecond: reference,
          bcryptRates,
          signInsPerSecond,
          signInRates,
          ratio,
          latencyMs: { p50: percentile(times, 50), p95, p99, max: Math.round(times[times.length - 1]) },
          statuses: Object.fromEntries(statuses),
          errors,
          targets: { ratio: 0.9, p95Ms: 600 },
          met: { ratio: ratio >= 0.9, p95: p95 < 600 },
        },
        null,
        2,
      ),
    );
    console.log('wrote bench/results/login.json');
    return `${signInsPerSecond.toFixed(2)} sign-ins/s = ${(ratio * 100).toFixed(1)} % of bcrypt alone (${reference.toFixed(2)}/s), p95 ${p95} ms`;
  } finally {
    await new Promise<void>((ok) => (http ? http.close(() => ok()) : ok()));
    await db.destroy();
    await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.destroy();
  }
}
