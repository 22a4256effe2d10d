/**
 * Ops CLI (ARCHITECTURE §2): `npm run db:migrate`, `db:rollback [-- --all]`, `db:seed`, `db:import [-- files…]`.
 * Uses DATABASE_URL, else the embedded PostgreSQL under .data/ (the same one `npm start` uses).
 * Import: with no files, the three real files of ../shared/data; with files, those (kind detected from
 * the header). Flags: --board N, --board-name "…". Exits 1 with file:line:field when a row is refused.
 */
import { join } from 'node:path';
import { loadConfig } from '../apps/api/src/config';
import { createDb, migrateLatest, migrateRollback } from '../apps/api/src/db/knex';
import { seedReference, seedDemo, importFiles, REAL_DATA_FILES, ImportError } from '../seeds';

async function run() {
  const [cmd, ...args] = process.argv.slice(2);
  const config = loadConfig();
  let url = config.databaseUrl;
  let embedded: Awaited<ReturnType<typeof import('../apps/api/src/db/embedded').startEmbeddedPostgres>> | undefined;
  if (!url) {
    const { startEmbeddedPostgres } = await import('../apps/api/src/db/embedded');
    embedded = await startEmbeddedPostgres({ dataDir: join(config.dataDir, 'pg'), port: config.embeddedPgPort, database: 'portal' });
    url = embedded.url;
  }
  const db = createDb(url);
  try {
    if (cmd === 'migrate') {
      const applied = await migrateLatest(db);
      console.log(applied.length ? `applied ${applied.length} migrations:\n  ${applied.join('\n  ')}` : 'already up to date');
    } else if (cmd === 'rollback') {
      const rolled = await migrateRollback(db, args.includes('--all'));
      console.log(rolled.length ? `rolled back ${rolled.length} migrations:\n  ${rolled.join('\n  ')}` : 'nothing to roll back');
    } else if (cmd === 'seed') {
      await migrateLatest(db);
      await seedReference(db);
      const { n } = (await db('stores').count<{ n: number }[]>('* as n'))[0] as { n: number };
      if (Number(n) === 0) await importFiles(db, REAL_DATA_FILES.map((f) => join(config.sharedDataDir, f)));
      const demo = await seedDemo(db, { password: config.demoPassword, bcryptCost: config.bcryptCost, salesFile: join(config.sharedDataDir, 'sales_sample.csv') });
      console.log(`reference data seeded; demo accounts ${demo.created ? 'created' : 'already present'}`);
    } else if (cmd === 'import') {
      const board = flag(args, '--board');
      const boardName = flag(args, '--board-name');
      const files = args.filter((a, i) => !a.startsWith('--') && !['--board', '--board-name'].includes(args[i - 1]));
      const paths = files.length ? files : REAL_DATA_FILES.map((f) => join(config.sharedDataDir, f));
      await migrateLatest(db);
      const started = Date.now();
      const results = await importFiles(db, paths, { boardNumber: board ? Number(board) : undefined, boardName });
      for (const r of results) console.log(`${r.file} (${r.kind}): ${r.rows} rows, ${r.inserted} inserted, ${r.updated} updated, ${r.unchanged} unchanged, ${r.ms} ms`);
      console.log(`import finished in ${Date.now() - started} ms`);
    } else {
      console.error('usage: db.ts migrate | rollback [--all] | seed | import [--board N] [--board-name NAME] [files…]');
      process.exitCode = 2;
    }
  } catch (e) {
    if (e instanceof ImportError) { console.error(`import refused: ${e.message}`); process.exitCode = 1; }
    else throw e;
  } finally {
    await db.destroy();
    if (embedded) await embedded.stop();
  }
}

function flag(args: string[], name: string) { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; }

run().catch((e) => { console.error(e instanceof Error ? e.message : e); process.exit(1); });
