import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { parse } from 'csv-parse';
import type { Knex } from 'knex';

/**
 * Real-data import (issue 2 §4, shared/data/README "How the portal uses these files"):
 * stores.csv → stores, products.csv → bottle sizes + items, store_items_2022.csv → inventory.
 * Each file is one transaction: a malformed row aborts that file with an ImportError naming file, line
 * and field, and nothing of it is written. Upserts are idempotent: a second run changes nothing.
 */

export class ImportError extends Error {
  constructor(readonly file: string, readonly line: number, readonly field: string, reason: string) {
    super(`${file}:${line}: ${field}: ${reason}`);
    this.name = 'ImportError';
  }
}

export type ImportKind = 'stores' | 'products' | 'store_items';
export interface ImportResult { file: string; kind: ImportKind; rows: number; inserted: number; updated: number; unchanged: number; ms: number }
export interface ImportOptions { boardNumber?: number; boardName?: string }

export const IOWA_BOARD = { number: 1, name: 'Iowa Alcoholic Beverages Division' };
const BATCH = 5000;
/** Array bindings for unnest(); knex's RawBinding type does not model arrays of arrays. */
type Bindings = readonly (string | number | boolean | null | undefined | readonly unknown[])[];
const raw = (trx: Knex.Transaction, sql: string, bindings: Bindings) => trx.raw(sql, bindings as unknown as Knex.RawBinding[]);

const REQUIRED: Record<ImportKind, string[]> = {
  stores: ['Store', 'Name', 'Store Status', 'Address', 'City', 'State', 'Zip Code', 'latitude', 'longitude'],
  products: ['Item Number', 'Category Name', 'Item Description', 'Vendor', 'Vendor Name', 'Bottle Volume (ml)', 'Pack', 'Age', 'Proof', 'List Date', 'UPC', 'State Bottle Retail'],
  store_items: ['Store Number', 'Item Number', 'Order Lines'],
};

/** Reads a file's header line and says which kind of file it is; throws ImportError on an unknown shape. */
export async function detectKind(path: string): Promise<ImportKind> {
  const file = basename(path);
  const header = await firstLine(path);
  if (header.includes(';') && !header.includes(',')) {
    throw new ImportError(file, 1, 'header', 'semicolon-separated file (the raw Iowa sales export?): expected a comma-separated stores, products or store items file');
  }
  const cols = header.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
  const kinds = (Object.keys(REQUIRED) as ImportKind[]).filter((k) => REQUIRED[k].every((c) => cols.includes(c)));
  const kind = kinds.includes('products') ? 'products' : kinds.includes('stores') ? 'stores' : kinds.includes('store_items') ? 'store_items' : undefined;
  if (!kind) throw new ImportError(file, 1, 'header', `unknown columns; expected the columns of stores.csv, products.csv or store_items_2022.csv (got: ${cols.slice(0, 6).join(', ')}…)`);
  return kind;
}

async function firstLine(path: string): Promise<string> {
  const stream = createReadStream(path, { encoding: 'utf8', start: 0, end: 4095 });
  let text = '';
  for await (const chunk of stream) text += chunk;
  return text.split(/\r?\n/)[0].replace(/^\uFEFF/, '');
}

async function* rows(path: string): AsyncGenerator<{ line: number; rec: Record<string, string> }> {
  const parser = createReadStream(path).pipe(parse({ columns: true, bom: true, info: true, skip_empty_lines: true, relax_column_count: false }));
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      yield { line: info.lines, rec: record };
    }
  } catch (e) {
    const err = e as { lines?: number; message: string };
    throw new ImportError(basename(path), err.lines ?? 0, 'row', err.message);
  }
}

const INT = /^-?\d+$/;
const MONEY = /^\d+(\.\d{1,2})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

class RowReader {
  constructor(readonly file: string, readonly line: number, readonly rec: Record<string, string>) {}
  private fail(field: string, reason: string): never { throw new ImportError(this.file, this.line, field, reason); }
  text(field: string, opts: { required?: boolean; max?: number } = {}): string | null {
    const v = (this.rec[field] ?? '').trim();
    if (!v) { if (opts.required) this.fail(field, 'is required'); return null; }
    if (opts.max && v.length > opts.max) this.fail(field, `is longer than ${opts.max} characters`);
    return v;
  }
  int(field: string, opts: { required?: boolean; min?: number; max?: number } = {}): number | null {
    const v = this.text(field, { required: opts.required });
    if (v === null) return null;
    if (!INT.test(v)) this.fail(field, `"${v}" is not a whole number`);
    const n = Number(v);
    if (opts.min !== undefined && n < opts.min) this.fail(field, `${n} is below ${opts.min}`);
    if (opts.max !== undefined && n > opts.max) this.fail(field, `${n} is above ${opts.max}`);
    return n;
  }
  code(field: string): string {
    const v = this.text(field, { required: true })!;
    if (!/^\d{1,12}$/.test(v)) this.fail(field, `"${v}" is not a numeric code`);
    return v;
  }
  money(field: string): string {
    const v = this.text(field, { required: true })!;
    if (!MONEY.test(v)) this.fail(field, `"${v}" is not an amount in dollars (e.g. 23.87)`);
    return v;
  }
  decimal(field: string, min: number, max: number): string | null {
    const v = this.text(field);
    if (v === null) return null;
    if (!DECIMAL.test(v) || Number(v) < min || Number(v) > max) this.fail(field, `"${v}" is not a number from ${min} to ${max}`);
    return v;
  }
  date(field: string): string | null {
    const v = this.text(field);
    if (v === null) return null;
    if (!DATE.test(v) || Number.isNaN(Date.parse(v))) this.fail(field, `"${v}" is not a date (YYYY-MM-DD)`);
    return v;
  }
}

/** Finds or creates the board the data belongs to; returns its id. */
async function boardId(trx: Knex.Transaction, opts: ImportOptions): Promise<number> {
  const number = opts.boardNumber ?? IOWA_BOARD.number;
  const name = opts.boardName ?? (number === IOWA_BOARD.number ? IOWA_BOARD.name : `Board ${number}`);
  await trx('boards').insert({ board_number: number, name }).onConflict('board_number').ignore();
  return (await trx('boards').where({ board_number: number }).first('id')).id;
}

/** "750 ml", "1.75 L"; volume 0 → "Unknown Size" (data README). */
export function bottleSizeName(volumeMl: number): string {
  if (volumeMl <= 0) return 'Unknown Size';
  return volumeMl >= 1000 ? `${Number((volumeMl / 1000).toFixed(3))} L` : `${volumeMl} ml`;
}

function tally(returned: { inserted: boolean }[], total: number) {
  const inserted = returned.filter((r) => r.inserted).length;
  return { inserted, updated: returned.length - inserted, unchanged: total - returned.length };
}

async function importStores(trx: Knex.Transaction, path: string, opts: ImportOptions) {
  const file = basename(path);
  const board = await boardId(trx, opts);
  const seen = new Map<number, number>();
  const out: { id: number; code: string; name: string; address: string | null; city: string | null; state: string | null; zip: string | null; active: boolean; lat: string | null; lon: string | null }[] = [];
  for await (const { line, rec } of rows(path)) {
    const r = new RowReader(file, line, rec);
    const id = r.int('Store', { required: true, min: 1, max: 2_000_000_000 })!;
    if (seen.has(id)) throw new ImportError(file, line, 'Store', `store ${id} appears twice (first on line ${seen.get(id)})`);
    seen.set(id, line);
    const status = r.text('Store Status', { required: true })!;
    if (status !== 'A' && status !== 'I') throw new ImportError(file, line, 'Store Status', `"${status}" is not A or I`);
    const state = r.text('State');
    if (state !== null && !/^[A-Z]{2}$/.test(state)) throw new ImportError(file, line, 'State', `"${state}" is not two capital letters`);
    out.push({
      id, code: `IA-${id}`, name: r.text('Name', { required: true, max: 200 })!, address: r.text('Address', { max: 200 }), city: r.text('City', { max: 100 }),
      state, zip: r.text('Zip Code', { max: 10 }), active: status === 'A', lat: r.decimal('latitude', -90, 90), lon: r.decimal('longitude', -180, 180),
    });
  }
  let returned: { inserted: boolean }[] = [];
  for (let i = 0; i < out.length; i += BATCH) {
    const b = out.slice(i, i + BATCH);
    const res = await raw(trx,
      `INSERT INTO stores (id, warehouse_code, name, board_id, address, city, state, zip_code, active, latitude, longitude)
       SELECT u.id, u.code, u.name, ?, u.address, u.city, u.state, u.zip, u.active, u.lat, u.lon
       FROM unnest(?::int[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bool[], ?::numeric[], ?::numeric[])
         AS u(id, code, name, address, city, state, zip, active, lat, lon)
       ON CONFLICT (id) DO UPDATE SET warehouse_code = EXCLUDED.warehouse_code, name = EXCLUDED.name, board_id = EXCLUDED.board_id,
         address = EXCLUDED.address, city = EXCLUDED.city, state = EXCLUDED.state, zip_code = EXCLUDED.zip_code, active = EXCLUDED.active,
         latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude, updated_at = now()
       WHERE (stores.warehouse_code, stores.name, stores.board_id, stores.address, stores.city, stores.state, stores.zip_code, stores.active, stores.latitude, stores.longitude)
         IS DISTINCT FROM (EXCLUDED.warehouse_code, EXCLUDED.name, EXCLUDED.board_id, EXCLUDED.address, EXCLUDED.city, EXCLUDED.state, EXCLUDED.zip_code, EXCLUDED.active, EXCLUDED.latitude, EXCLUDED.longitude)
       RETURNING (xmax = 0) AS inserted`,
      [board, b.map((s) => s.id), b.map((s) => s.code), b.map((s) => s.name), b.map((s) => s.address), b.map((s) => s.city), b.map((s) => s.state),
        b.map((s) => s.zip), b.map((s) => s.active), b.map((s) => s.lat), b.map((s) => s.lon)],
    );
    returned = returned.concat(res.rows);
  }
  return { rows: out.length, ...tally(returned, out.length) };
}

async function importProducts(trx: Knex.Transaction, path: string, opts: ImportOptions) {
  const file = basename(path);
  const board = await boardId(trx, opts);
  const seen = new Map<string, number>();
  const out: { code: string; name: string; category: string | null; volume: number; pack: number; retail: string; vendor: string | null; vendorName: string | null; proof: number | null; age: number | null; upc: string | null; listDate: string | null }[] = [];
  for await (const { line, rec } of rows(path)) {
    const r = new RowReader(file, line, rec);
    const code = r.code('Item Number');
    if (seen.has(code)) throw new ImportError(file, line, 'Item Number', `item ${code} appears twice (first on line ${seen.get(code)})`);
    seen.set(code, line);
    out.push({
      code, name: r.text('Item Description', { required: true, max: 300 })!, category: r.text('Category Name', { max: 100 }),
      volume: r.int('Bottle Volume (ml)', { required: true, min: 0, max: 100_000 })!, pack: r.int('Pack', { required: true, min: 1, max: 10_000 })!,
      retail: r.money('State Bottle Retail'), vendor: r.text('Vendor', { max: 20 }), vendorName: r.text('Vendor Name', { max: 200 }),
      proof: r.int('Proof', { min: 0, max: 400 }), age: r.int('Age', { min: 0, max: 200 }), upc: r.text('UPC', { max: 40 }), listDate: r.date('List Date'),
    });
  }
  const volumes = [...new Set(out.map((p) => p.volume))];
  await raw(trx,
    `INSERT INTO bottle_sizes (name, volume_ml) SELECT * FROM unnest(?::text[], ?::int[]) ON CONFLICT (volume_ml) DO NOTHING`,
    [volumes.map(bottleSizeName), volumes],
  );
  const sizeIds = new Map<number, number>((await trx('bottle_sizes').select('id', 'volume_ml')).map((s) => [s.volume_ml, s.id]));
  let returned: { inserted: boolean }[] = [];
  for (let i = 0; i < out.length; i += BATCH) {
    const b = out.slice(i, i + BATCH);
    const res = await raw(trx,
      `INSERT INTO items (board_id, code, name, category, retail, bottles_per_case, bottle_size_id, vendor_code, vendor_name, proof, age, upc, list_date)
       SELECT ?, u.* FROM unnest(?::text[], ?::text[], ?::text[], ?::numeric[], ?::int[], ?::int[], ?::text[], ?::text[], ?::int[], ?::int[], ?::text[], ?::date[])
         AS u(code, name, category, retail, bottles_per_case, bottle_size_id, vendor_code, vendor_name, proof, age, upc, list_date)
       ON CONFLICT (board_id, code) DO UPDATE SET name = EXCLUDED.name, category = EXCLUDED.category, retail = EXCLUDED.retail,
         bottles_per_case = EXCLUDED.bottles_per_case, bottle_size_id = EXCLUDED.bottle_size_id, vendor_code = EXCLUDED.vendor_code,
         vendor_name = EXCLUDED.vendor_name, proof = EXCLUDED.proof, age = EXCLUDED.age, upc = EXCLUDED.upc, list_date = EXCLUDED.list_date, updated_at = now()
       WHERE (items.name, items.category, items.retail, items.bottles_per_case, items.bottle_size_id, items.vendor_code, items.vendor_name, items.proof, items.age, items.upc, items.list_date)
         IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.category, EXCLUDED.retail, EXCLUDED.bottles_per_case, EXCLUDED.bottle_size_id, EXCLUDED.vendor_code, EXCLUDED.vendor_name, EXCLUDED.proof, EXCLUDED.age, EXCLUDED.upc, EXCLUDED.list_date)
       RETURNING (xmax = 0) AS inserted`,
      [board, b.map((p) => p.code), b.map((p) => p.name), b.map((p) => p.category), b.map((p) => p.retail), b.map((p) => p.pack),
        b.map((p) => sizeIds.get(p.volume)), b.map((p) => p.vendor), b.map((p) => p.vendorName), b.map((p) => p.proof), b.map((p) => p.age),
        b.map((p) => p.upc), b.map((p) => p.listDate)],
    );
    returned = returned.concat(res.rows);
  }
  return { rows: out.length, ...tally(returned, out.length) };
}

async function importStoreItems(trx: Knex.Transaction, path: string) {
  const file = basename(path);
  const stores = new Map<number, number>((await trx('stores').select('id', 'board_id')).map((s) => [s.id, s.board_id]));
  const itemIds = new Map<string, number>(
    (await trx('items').select('id', 'board_id', 'code')).map((i) => [`${i.board_id}:${i.code}`, i.id]),
  );
  let storeIds: number[] = [];
  let items: number[] = [];
  let count = 0;
  let inserted = 0;
  const flush = async () => {
    if (!storeIds.length) return;
    const res = await raw(trx,
      `INSERT INTO inventory (store_id, item_id) SELECT * FROM unnest(?::int[], ?::int[]) ON CONFLICT (store_id, item_id) DO NOTHING`,
      [storeIds, items],
    );
    inserted += res.rowCount ?? 0;
    storeIds = [];
    items = [];
  };
  for await (const { line, rec } of rows(path)) {
    const r = new RowReader(file, line, rec);
    const store = r.int('Store Number', { required: true, min: 1 })!;
    const code = r.code('Item Number');
    const board = stores.get(store);
    if (board === undefined) throw new ImportError(file, line, 'Store Number', `store ${store} is not in the stores table (import stores.csv first)`);
    const item = itemIds.get(`${board}:${code}`);
    if (item === undefined) throw new ImportError(file, line, 'Item Number', `item ${code} is not in the catalog of store ${store}'s board (import products.csv first)`);
    storeIds.push(store);
    items.push(item);
    count++;
    if (storeIds.length >= BATCH * 2) await flush();
  }
  await flush();
  return { rows: count, inserted, updated: 0, unchanged: count - inserted };
}

/** Imports one file (kind detected from its header) in its own transaction. */
export async function importFile(db: Knex, path: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const started = Date.now();
  const kind = await detectKind(path);
  const counts = await db.transaction(async (trx) => {
    if (kind === 'stores') return importStores(trx, path, opts);
    if (kind === 'products') return importProducts(trx, path, opts);
    return importStoreItems(trx, path);
  });
  return { file: basename(path), kind, ...counts, ms: Date.now() - started };
}

/** Imports files in dependency order (stores, products, then store items), one transaction each. */
export async function importFiles(db: Knex, paths: string[], opts: ImportOptions = {}): Promise<ImportResult[]> {
  const order: ImportKind[] = ['stores', 'products', 'store_items'];
  const kinds = await Promise.all(paths.map(async (p) => ({ p, k: await detectKind(p) })));
  kinds.sort((a, b) => order.indexOf(a.k) - order.indexOf(b.k));
  const results: ImportResult[] = [];
  for (const { p } of kinds) results.push(await importFile(db, p, opts));
  // Fresh planner statistics: without them the first searches after a bulk load pick poor plans.
  if (results.some((r) => r.inserted + r.updated > 0)) await db.raw('ANALYZE stores, bottle_sizes, items, inventory');
  return results;
}

/** The three real files of shared/data that make the catalog. */
export const REAL_DATA_FILES = ['stores.csv', 'products.csv', 'store_items_2022.csv'];
