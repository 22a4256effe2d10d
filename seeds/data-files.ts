import { createReadStream, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/**
 * Where the real data lives and how it is read. The repository carries the Iowa files gzipped under
 * `data/iowa-abd/` (its README names the source and terms); `SHARED_DATA_DIR` may point at another folder
 * with the same file names, plain or `.gz`.
 */
export const DEFAULT_DATA_DIR = 'data/iowa-abd';

/** The three files the real import reads, in order (stores, then items, then each store's assortment). */
export const REAL_DATA_FILES = ['stores.csv', 'products.csv', 'store_items_2022.csv'];

/** Opens a data file for streaming: gunzipped on the fly when its name ends in `.gz`. */
export function openDataFile(path: string): Readable {
  const file = createReadStream(path);
  if (!path.endsWith('.gz')) return file;
  const gunzip = createGunzip();
  file.on('error', (err) => gunzip.destroy(err));
  return file.pipe(gunzip);
}

/** `dir/name` when it exists, else `dir/name.gz` when that exists, else `dir/name` (so the error names it). */
export function resolveDataFile(dir: string, name: string): string {
  const plain = join(dir, name);
  if (existsSync(plain)) return plain;
  return existsSync(plain + '.gz') ? plain + '.gz' : plain;
}

/** The real import's files in `dir` (plain or gzipped). */
export const realDataFiles = (dir: string) => REAL_DATA_FILES.map((f) => resolveDataFile(dir, f));

/**
 * The sales lines the demo's past orders are cut from: the full `sales_sample.csv` when the folder has it
 * (the team's shared data), else the repository's extract of the demo stores' lines; undefined when neither.
 */
export function demoSalesFile(dir: string): string | undefined {
  for (const name of ['sales_sample.csv', 'sales_sample.csv.gz', 'sales_sample_demo_stores.csv.gz']) {
    if (existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** The data folder for a config value: relative paths are taken from the working directory. */
export const dataDir = (configured: string | undefined) => resolve(configured || DEFAULT_DATA_DIR);
