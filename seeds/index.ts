import { resolve } from 'node:path';
import type { Knex } from 'knex';
import { seedReference } from './reference';
import { seedDemo } from './demo';
import { importFiles, type ImportOptions, type ImportResult } from './import';
import { demoSalesFile, realDataFiles, resolveDataFile } from './data-files';

export { seedReference } from './reference';
export { grantRole, grantRoleAtOutlets } from './grants';
export { seedOrderingWeek } from './ordering-week';
export { seedDemo, DEMO_ACCOUNTS, DEMO_OUTLETS, DEFAULT_DEMO_PASSWORD, accountsWithDemoPassword, lockDemoAccounts } from './demo';
export {
  importFile,
  importFiles,
  runImport,
  detectKind,
  ImportError,
  MAX_ROW_ERRORS,
  type ImportProgress,
  type ImportRun,
  type RowError,
  type ImportResult,
  type ImportOptions,
} from './import';
export { REAL_DATA_FILES, DEFAULT_DATA_DIR, openDataFile, resolveDataFile, realDataFiles, demoSalesFile, dataDir } from './data-files';

/** demo: create the demo accounts, outlets and orders (only by explicit choice; default false). */
export interface BootstrapOptions {
  sharedDataDir: string;
  demoPassword: string;
  bcryptCost: number;
  demo?: boolean;
  log?: (msg: string) => void;
  onProgress?: ImportOptions['onProgress'];
}

/**
 * First-start bootstrap: reference data always (idempotent); the real catalog when the
 * database has no items; demo data only with `opts.demo` (and only once). Returns the import results, if any.
 */
export async function bootstrapDatabase(db: Knex, opts: BootstrapOptions): Promise<ImportResult[]> {
  const log = opts.log ?? (() => undefined);
  await seedReference(db);
  let results: ImportResult[] = [];
  const { n } = (await db('items').count<{ n: number }[]>('* as n'))[0] as { n: number };
  if (Number(n) === 0) {
    log(`importing the real catalog from ${resolve(opts.sharedDataDir)}`);
    results = await importFiles(db, realDataFiles(opts.sharedDataDir), { onProgress: opts.onProgress });
    for (const r of results) log(`imported ${r.file}: ${r.rows} rows (${r.inserted} new) in ${r.ms} ms`);
  }
  if (opts.demo) {
    const demo = await seedDemo(db, {
      password: opts.demoPassword,
      bcryptCost: opts.bcryptCost,
      salesFile: demoSalesFile(opts.sharedDataDir),
      storeItemsFile: resolveDataFile(opts.sharedDataDir, 'store_items_2022.csv'),
    });
    if (demo.created) log('demo accounts created (admin, manager, buyer, viewer @example.com)');
  }
  return results;
}
export { seedSynthetic, parseSyntheticSpec, SYNTHETIC_KINDS, SyntheticError, type SyntheticKind, type SyntheticResult } from './synthetic';
