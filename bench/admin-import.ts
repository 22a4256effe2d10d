/**
 * `npm run bench -- admin-import [--file PATH] [--keep]` (issue 13): the full store_items file (545,495 rows)
 * imported two ways into the same fresh database, one after the other:
 *   1. the CLI, `npm run db:import -- <file>` in a child process (wall time, peak RSS from GNU time where
 *      /usr/bin/time is, else not measured);
 *   2. the browser path: POST /admin/imports (multipart, streamed) to dist/api/main.js in a child process
 *      (NODE_ENV=production, the import job worker on), polling GET /admin/imports/{id} until done: time to
 *      done, the API's peak RSS (sampled from /proc every 200 ms) next to its RSS before the upload;
 *   3. the same upload again (idempotent: everything unchanged).
 * Between 1 and 2 the inventory is emptied, so both insert every row. The database: BENCH_DATABASE_URL, else
 * portal_bench_admin_import on the benchmarks' server (bench/support.ts). Writes bench/results/admin-import.json.
 * A measurement, never a test.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openAsBlob, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { createDb, migrateLatest, type Db } from '../apps/api/src/db/knex';
import { benchToken } from './session';
import { importFiles, seedReference } from '../seeds';
import {
  benchArgs,
  benchDatabaseUrl,
  dataFile,
  dropDatabase,
  fixtureFile,
  sampleRss,
  startBuiltApi,
  stop,
  withDb,
  type BenchInfo,
} from './support';

const ROOT = resolve(__dirname, '..');

export const info: BenchInfo = {
  title: 'store_items through db:import and POST /admin/imports',
  about:
    'The full store_items file (545,495 rows) imported by the CLI (npm run db:import) and then uploaded through POST /admin/imports to the built API until done, twice (the second idempotent): times and peak RSS.',
  options: {
    file: { type: 'string', value: 'PATH', help: 'the store assortment file to import (default data/iowa-abd/store_items_2022.csv.gz)' },
    keep: { type: 'boolean', help: 'keep the database afterwards' },
  },
  quick: ['--file', fixtureFile('store_items.csv')],
};

/** Uploads `file` and polls the run until it is done; returns the run and the time to done. */
async function uploadAndWait(base: string, token: string, file: string) {
  const t0 = Date.now();
  const form = new FormData();
  form.append('files', await openAsBlob(file, { type: 'text/csv' }), basename(file));
  const res = await fetch(`${base}/admin/imports`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  const uploadedMs = Date.now() - t0;
  let lastPct = -1;
  for (;;) {
    const run = (await (await fetch(`${base}/admin/imports/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      status: string;
      progress: { rowsRead: number; rowsTotal: number; percent: number };
      files: { rows: number; created: number; updated: number; unchanged: number; errors: string[] }[];
    };
    if (run.progress.percent >= lastPct + 25) {
      lastPct = run.progress.percent;
      console.log(
        `  ${run.status} ${run.progress.rowsRead.toLocaleString('en-US')} / ${run.progress.rowsTotal.toLocaleString('en-US')} rows (${run.progress.percent}%)`,
      );
    }
    if (run.status === 'succeeded' || run.status === 'failed') return { run, uploadedMs, doneMs: Date.now() - t0 };
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Entry point for bench/run.ts. */
export async function run(argv: string[]): Promise<string> {
  const { values } = benchArgs(argv, info);
  const file = (values.file as string | undefined) ?? dataFile('store_items_2022.csv');
  const dbUrl = benchDatabaseUrl('portal_bench_admin_import');
  console.log(`file ${file}`);
  await dropDatabase(dbUrl);
  const admin = createDb(withDb(dbUrl, 'postgres'), { max: 1 });
  await admin.raw(`CREATE DATABASE "${new URL(dbUrl).pathname.slice(1)}"`);
  await admin.destroy();
  const db: Db = createDb(dbUrl, { max: 4 });
  let api: ChildProcess | undefined;
  try {
    await migrateLatest(db);
    await seedReference(db);
    await importFiles(db, [dataFile('stores.csv'), dataFile('products.csv')]);
    const role = (await db('roles').where({ code: 'super_admin' }).first('id'))!;
    const [user] = await db('users').insert({ email: 'bench-admin@example.com', password_hash: 'x', is_active: true }).returning('id');
    await db('role_grants').insert({ user_id: user.id, role_id: role.id, scope_type: 'global' });

    // 1. The CLI.
    console.log('CLI: npm run db:import …');
    const c0 = Date.now();
    const command = [process.execPath, join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'scripts/db.ts'), 'import', file];
    const gnuTime = process.platform === 'linux' && existsSync('/usr/bin/time');
    const cli = spawnSync(gnuTime ? '/usr/bin/time' : command[0], gnuTime ? ['-f', 'MAXRSS_KB=%M', ...command] : command.slice(1), {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: dbUrl },
      encoding: 'utf8',
    });
    const cliMs = Date.now() - c0;
    if (cli.status !== 0) throw new Error(`db:import failed: ${cli.stderr}`);
    const cliPeakMB = Math.round(Number(/MAXRSS_KB=(\d+)/.exec(cli.stderr)?.[1] ?? 0) / 1024);
    const cliRun = await db('import_runs').where({ source: 'cli' }).orderBy('created_at', 'desc').first('files');
    const inventoryAfterCli = Number((await db('inventory').count<{ n: number }[]>('* as n'))[0].n);
    console.log(
      `CLI: ${inventoryAfterCli.toLocaleString('en-US')} inventory rows in ${(cliMs / 1000).toFixed(1)} s (process start and migrations included), peak RSS ${cliPeakMB} MB`,
    );

    // 2. The browser path through the API, on an empty inventory again.
    await db.raw('TRUNCATE inventory');
    const started = await startBuiltApi(dbUrl, {
      JOBS_ENABLED: 'true',
      DATA_DIR: join(process.env.TMPDIR ?? '/tmp', `bench-admin-import-${process.pid}`),
    });
    api = started.api;
    const { base, jwtSecret } = started;
    const token = await benchToken(db, jwtSecret, 3600, { id: user.id, email: 'bench-admin@example.com' });
    const idle = sampleRss(api.pid!);
    await new Promise((r) => setTimeout(r, 1000));
    const idleMB = Math.max(...idle.stop());
    console.log('API: POST /admin/imports …');
    const rss = sampleRss(api.pid!);
    const first = await uploadAndWait(base, token, file);
    const firstRss = rss.stop();
    console.log('API: the same upload again (idempotent) …');
    const rss2 = sampleRss(api.pid!);
    const second = await uploadAndWait(base, token, file);
    const secondRss = rss2.stop();

    const result = {
      date: new Date().toISOString(),
      machine: {
        cores: cpus().length,
        model: cpus()[0]?.model.trim(),
        memGiB: +(totalmem() / 2 ** 30).toFixed(1),
        loadavg: loadavg().map((l) => +l.toFixed(2)),
      },
      file: { path: file, rows: first.run.files[0]?.rows },
      cli: { command: 'npm run db:import -- <file> (tsx scripts/db.ts import)', wallMs: cliMs, peakRssMB: cliPeakMB, files: cliRun?.files },
      api: {
        how: 'POST /admin/imports multipart (streamed to disk) → pg-boss job → importFile; dist/api/main.js, NODE_ENV=production',
        idleRssMB: Math.round(idleMB),
        first: {
          uploadMs: first.uploadedMs,
          doneMs: first.doneMs,
          status: first.run.status,
          file: first.run.files[0],
          peakRssMB: Math.round(Math.max(...firstRss)),
        },
        second: {
          uploadMs: second.uploadedMs,
          doneMs: second.doneMs,
          status: second.run.status,
          file: second.run.files[0],
          peakRssMB: Math.round(Math.max(...secondRss)),
        },
      },
    };
    console.log(
      `\nCLI import:            ${(cliMs / 1000).toFixed(1)} s wall (new process: tsx, migrations check, import), peak RSS ${cliPeakMB} MB`,
    );
    console.log(
      `API upload → done:     ${(first.doneMs / 1000).toFixed(1)} s (upload ${(first.uploadedMs / 1000).toFixed(1)} s), ${first.run.status}, created ${first.run.files[0]?.created}; API RSS ${result.api.idleRssMB} MB idle → ${result.api.first.peakRssMB} MB peak`,
    );
    console.log(
      `API re-upload → done:  ${(second.doneMs / 1000).toFixed(1)} s, unchanged ${second.run.files[0]?.unchanged}; peak RSS ${result.api.second.peakRssMB} MB`,
    );
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/results/admin-import.json'), JSON.stringify(result, null, 2) + '\n');
    console.log('wrote bench/results/admin-import.json');
    return `CLI ${(cliMs / 1000).toFixed(1)} s; upload → done ${(first.doneMs / 1000).toFixed(1)} s (${first.run.status}, ${first.run.files[0]?.created} created), again ${(second.doneMs / 1000).toFixed(1)} s (${second.run.files[0]?.unchanged} unchanged); API RSS peak ${result.api.first.peakRssMB} MB`;
  } finally {
    if (api) await stop(api);
    await db.destroy();
    if (!values.keep) await dropDatabase(dbUrl);
  }
}
