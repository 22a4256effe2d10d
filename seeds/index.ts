import { join, resolve } from 'node:path';
import type { Knex } from 'knex';
import { seedReference } from './reference';
import { seedDemo } from './demo';
import { importFiles, REAL_DATA_FILES, type ImportResult } from './import';

export { seedReference } from './reference';
export { seedDemo, DEMO_ACCOUNTS, DEMO_OUTLETS } from './demo';
export { importFile, importFiles, ImportError, REAL_DATA_FILES } from './import';

export interface BootstrapOptions { sharedDataDir: string; demoPassword: string; bcryptCost: number; log?: (msg: string) => void }

/**
 * First-start bootstrap (issue 2 §6): reference data always (idempotent); the real catalog when the
 * database has no items; demo data when it has no users. Returns the import results, if any.
 */
export async function bootstrapDatabase(db: Knex, opts: BootstrapOptions): Promise<ImportResult[]> {
  const log = opts.log ?? (() => undefined);
  await seedReference(db);
  let results: ImportResult[] = [];
  const { n } = (await db('items').count<{ n: number }[]>('* as n'))[0] as { n: number };
  if (Number(n) === 0) {
    log(`importing the real catalog from ${resolve(opts.sharedDataDir)}`);
    results = await importFiles(db, REAL_DATA_FILES.map((f) => join(opts.sharedDataDir, f)));
    for (const r of results) log(`imported ${r.file}: ${r.rows} rows (${r.inserted} new) in ${r.ms} ms`);
  }
  const demo = await seedDemo(db, { password: opts.demoPassword, bcryptCost: opts.bcryptCost, salesFile: join(opts.sharedDataDir, 'sales_sample.csv') });
  if (demo.created) log('demo accounts created (admin, manager, buyer, viewer @example.com)');
  return results;
}
