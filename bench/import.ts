/**
 * `npm run bench -- import [--fixture]`: times the real-data import (stores, products, store_items_2022 from
 * data/iowa-abd, or SHARED_DATA_DIR) into a fresh database on the benchmarks' server (bench/support.ts
 * benchServer), then a second, idempotent run. --fixture imports the API tests' small real-data fixture
 * instead (5 stores, 90 items: seconds). Writes bench/results/import.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createDb, migrateLatest } from '../apps/api/src/db/knex';
import { importFiles, REAL_DATA_FILES } from '../seeds/import';
import { benchArgs, benchServer, dataFile, fixtureFile, withDb, type BenchInfo } from './support';

export const info: BenchInfo = {
  title: 'the real-data import, then an idempotent re-run',
  about:
    'The real-data import (stores, products, 545,495 store assortments from data/iowa-abd) into a fresh database, then the same import again (idempotent: nothing changes).',
  options: {
    fixture: { type: 'boolean', help: "the API tests' small real-data fixture (5 stores, 90 items) instead of the full files" },
  },
  quick: ['--fixture'],
};

/** Entry point for bench/run.ts; answers the one-line summary. */
export async function run(argv: string[] = []): Promise<string> {
  const { values } = benchArgs(argv, info);
  const files = values.fixture
    ? (['stores.csv', 'products.csv', 'store_items.csv'] as const).map(fixtureFile)
    : REAL_DATA_FILES.map((f) => dataFile(f));
  const server = benchServer();
  const name = `portal_bench_import_${process.pid}`;
  const admin = createDb(server, { max: 1 });
  await admin.raw(`CREATE DATABASE ${name}`);
  const db = createDb(withDb(server, name));
  try {
    await migrateLatest(db);
    const t0 = Date.now();
    const first = await importFiles(db, files);
    const firstMs = Date.now() - t0;
    const t1 = Date.now();
    const second = await importFiles(db, files);
    const secondMs = Date.now() - t1;
    for (const r of first)
      console.log(
        `first  ${r.file.padEnd(22)} ${String(r.rows).padStart(7)} rows ${String(r.inserted).padStart(7)} inserted ${String(r.ms).padStart(6)} ms`,
      );
    for (const r of second)
      console.log(
        `second ${r.file.padEnd(22)} ${String(r.rows).padStart(7)} rows ${String(r.unchanged).padStart(7)} unchanged ${String(r.ms).padStart(6)} ms`,
      );
    console.log(`full import ${firstMs} ms; idempotent re-run ${secondMs} ms; peak RSS ${Math.round(process.memoryUsage().rss / 1e6)} MB`);
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(
      'bench/results/import.json',
      JSON.stringify(
        { files: values.fixture ? 'fixture' : 'full', firstMs, secondMs, first, second, at: new Date().toISOString() },
        null,
        2,
      ),
    );
    const rows = first.reduce((n, r) => n + r.rows, 0);
    const changed = second.reduce((n, r) => n + r.rows - r.unchanged, 0);
    return `${rows.toLocaleString('en-US')} rows${values.fixture ? ' (fixture)' : ''} imported in ${(firstMs / 1000).toFixed(1)} s; re-run ${(secondMs / 1000).toFixed(1)} s, ${changed} rows changed`;
  } finally {
    await db.destroy();
    await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.destroy();
  }
}
