/**
 * `npm run bench -- import`: times the real-data import (stores, products, store_items_2022) into a fresh
 * database on DATABASE_URL's server (default: the machine's postgres://postgres@127.0.0.1:5432), then a
 * second, idempotent run. Writes bench/results/import.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDb, migrateLatest } from '../apps/api/src/db/knex';
import { importFiles, REAL_DATA_FILES } from '../seeds/import';

export async function run() {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `portal_bench_import_${process.pid}`;
  const url = new URL(server);
  const admin = createDb(server, { max: 1 });
  await admin.raw(`CREATE DATABASE ${name}`);
  url.pathname = `/${name}`;
  const db = createDb(url.toString());
  const shared = process.env.SHARED_DATA_DIR ?? '../shared/data';
  try {
    await migrateLatest(db);
    const files = REAL_DATA_FILES.map((f) => join(shared, f));
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
    writeFileSync('bench/results/import.json', JSON.stringify({ firstMs, secondMs, first, second, at: new Date().toISOString() }, null, 2));
  } finally {
    await db.destroy();
    await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.destroy();
  }
}
