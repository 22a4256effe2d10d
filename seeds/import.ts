import { createReadStream, statSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { Transform, type Readable } from 'node:stream';
import { openDataFile } from './data-files';
import { basename, join } from 'node:path';
import { CsvError, parse } from 'csv-parse';
import type { Knex } from 'knex';

/**
 * Real-data import (shared/data/README "How the portal uses these files"):
 * stores.csv → stores, products.csv → bottle sizes + items, store_items_2022.csv → inventory.
 * Each file is one transaction: malformed rows abort that file with an ImportError listing every refused
 * row (file, line, field, reason; up to MAX_ROW_ERRORS per file), and nothing of it is
 * written. Upserts are idempotent: a second run changes nothing. `onProgress` reports rows and % as it reads.
 */

/** How many refused rows one file collects before the import of that file stops. */
export const MAX_ROW_ERRORS = 100;
/**
 * Most bytes one CSV record (line) may hold (csv-parse `max_record_size`): a real row is a few hundred
 * bytes; a longer one is refused before the parser's buffer can grow without bound (a 700 MB field).
 */
export const MAX_RECORD_BYTES = 64 * 1024;
/** Most bytes a file may decompress to unless `ImportOptions.maxBytes` says otherwise (the real store_items is 21 MB). */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 2 ** 20;

/** One refused row: where (file, 1-based line, column) and why; `message` (and String()) is `file:line: field: reason`. */
export interface RowError {
  file: string;
  line: number;
  field: string;
  reason: string;
  message: string;
}

function rowError(file: string, line: number, field: string, reason: string): RowError {
  const message = `${file}:${line}: ${field}: ${reason}`;
  return { file, line, field, reason, message, toString: () => message } as RowError;
}

/**
 * A file refused: `errors` lists every refused row found (at most MAX_ROW_ERRORS; `limitReached` when the
 * file was abandoned there). file / line / field / reason are those of the first. With one error the
 * message is `file:line: field: reason`; with more, a count line followed by one line per error.
 */
export class ImportError extends Error {
  errors: RowError[];
  limitReached = false;
  constructor(
    readonly file: string,
    readonly line: number,
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${field}: ${reason}`);
    this.name = 'ImportError';
    this.errors = [rowError(file, line, field, reason)];
  }

  /** One ImportError for the refused rows of a file (the single error itself when there is one). */
  static of(errors: ImportError[], limitReached: boolean): ImportError {
    if (errors.length === 1 && !limitReached) return errors[0];
    const first = errors[0];
    const all = new ImportError(first.file, first.line, first.field, first.reason);
    all.errors = errors.map((e) => rowError(e.file, e.line, e.field, e.reason));
    all.limitReached = limitReached;
    all.message =
      `${first.file}: ${errors.length} row${errors.length === 1 ? '' : 's'} refused${limitReached ? ` (stopped at the first ${MAX_ROW_ERRORS})` : ''}:\n` +
      errors.map((e) => `  ${e.message}`).join('\n');
    return all;
  }
}

export type ImportKind = 'stores' | 'products' | 'store_items';
export interface ImportResult {
  file: string;
  kind: ImportKind;
  rows: number;
  inserted: number;
  updated: number;
  unchanged: number;
  ms: number;
}

/**
 * Progress of an import, for a CLI line or a job's status: file `index` (1-based) of `files`; `rows` read
 * so far; `percent` of the file's bytes read (0–100); `elapsedMs` since this file started; phase `reading`
 * (rows being checked), `writing` (upserting), `done` (committed) or `failed` (refused; `errors` so far).
 */
export interface ImportProgress {
  file: string;
  kind: ImportKind;
  index: number;
  files: number;
  phase: 'reading' | 'writing' | 'done' | 'failed';
  rows: number;
  percent: number;
  elapsedMs: number;
  errors: number;
}
export interface ImportOptions {
  boardNumber?: number;
  boardName?: string;
  /** Called at most every `progressEveryMs` (default 250 ms) while reading, and at each phase change. */
  onProgress?: (p: ImportProgress) => void;
  progressEveryMs?: number;
  /** Most bytes a file may hold once decompressed (default DEFAULT_MAX_FILE_BYTES): more is refused as the file's error. */
  maxBytes?: number;
}

export const IOWA_BOARD = { number: 1, name: 'Iowa Alcoholic Beverages Division' };
const BATCH = 5000;
/** Array bindings for unnest(); knex's RawBinding type does not model arrays of arrays. */
type Bindings = readonly (string | number | boolean | null | undefined | readonly unknown[])[];
const raw = (trx: Knex.Transaction, sql: string, bindings: Bindings) => trx.raw(sql, bindings as unknown as Knex.RawBinding[]);

const REQUIRED: Record<ImportKind, string[]> = {
  stores: ['Store', 'Name', 'Store Status', 'Address', 'City', 'State', 'Zip Code', 'latitude', 'longitude'],
  products: [
    'Item Number',
    'Category Name',
    'Item Description',
    'Vendor',
    'Vendor Name',
    'Bottle Volume (ml)',
    'Pack',
    'Age',
    'Proof',
    'List Date',
    'UPC',
    'State Bottle Retail',
  ],
  store_items: ['Store Number', 'Item Number', 'Order Lines'],
};

/** Reads a file's header line and says which kind of file it is; throws ImportError on an unknown shape. */
export async function detectKind(path: string): Promise<ImportKind> {
  const file = basename(path);
  const header = await firstLine(path);
  // eslint-disable-next-line no-control-regex -- control bytes (and U+FFFD, what invalid UTF-8 decodes to) are what binary looks like
  if (/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(header))
    throw new ImportError(file, 1, 'header', 'the file is binary, not CSV text (a compressed file without its .gz name?)');
  if (header.includes(';') && !header.includes(',')) {
    throw new ImportError(
      file,
      1,
      'header',
      'semicolon-separated file (the raw Iowa sales export?): expected a comma-separated stores, products or store items file',
    );
  }
  const cols = header.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
  const kinds = (Object.keys(REQUIRED) as ImportKind[]).filter((k) => REQUIRED[k].every((c) => cols.includes(c)));
  const kind = kinds.includes('products')
    ? 'products'
    : kinds.includes('stores')
      ? 'stores'
      : kinds.includes('store_items')
        ? 'store_items'
        : undefined;
  if (!kind)
    throw new ImportError(
      file,
      1,
      'header',
      `unknown columns; expected the columns of stores.csv, products.csv or store_items_2022.csv (got: ${cols
        .slice(0, 6)
        .map((c) => c.slice(0, 40))
        .join(', ')}…)`,
    );
  return kind;
}

async function firstLine(path: string): Promise<string> {
  const stream = openDataFile(path);
  let text = '';
  try {
    for await (const chunk of stream) {
      text += chunk.toString('utf8');
      if (text.includes('\n') || text.length > 4096) break;
    }
  } catch {
    throw new ImportError(basename(path), 1, 'header', 'the file cannot be read (a damaged or not really gzipped file?)');
  } finally {
    stream.destroy();
  }
  return text.split(/\r?\n/)[0].replace(/^\uFEFF/, '');
}

/** The file being read, with what progress needs: bytes read of its size (compressed bytes for .gz). */
class Source {
  readonly file: string;
  readonly size: number;
  readonly started = Date.now();
  rows = 0;
  private bytes: () => number = () => 0;
  private lastReport = 0;
  constructor(
    readonly path: string,
    readonly kind: ImportKind,
    readonly index: number,
    readonly files: number,
    readonly errs: RowErrors,
    private readonly opts: ImportOptions,
  ) {
    this.file = basename(path);
    this.size = statSync(path).size;
  }
  /**
   * Opens the file (gunzipped on the fly for .gz) counting the bytes read from disk; past `maxBytes` of
   * content (decompressed) the stream fails with the file's ImportError. Every error of the chain ends up on
   * the stream returned (never an unhandled 'error').
   */
  open(): Readable {
    const file = createReadStream(this.path);
    this.bytes = () => file.bytesRead;
    const max = this.opts.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
    let seen = 0;
    const cap = new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        seen += chunk.length;
        if (seen > max)
          return done(new ImportError(this.file, 0, 'file', `is larger than ${Math.round(max / 2 ** 20)} MB once decompressed`));
        done(null, chunk);
      },
    });
    if (!this.path.endsWith('.gz')) {
      file.on('error', (err) => cap.destroy(err));
      return file.pipe(cap);
    }
    const gunzip = createGunzip();
    file.on('error', (err) => gunzip.destroy(err));
    gunzip.on('error', (err) =>
      cap.destroy(
        /^Z_/.test(String((err as { code?: string }).code)) ? new ImportError(this.file, 0, 'file', 'is not valid gzip data') : err,
      ),
    );
    return file.pipe(gunzip).pipe(cap);
  }
  report(phase: ImportProgress['phase'], force = false) {
    if (!this.opts.onProgress) return;
    const now = Date.now();
    if (!force && now - this.lastReport < (this.opts.progressEveryMs ?? 250)) return;
    this.lastReport = now;
    const percent = phase === 'done' ? 100 : this.size ? Math.min(100, Math.floor((this.bytes() / this.size) * 100)) : 0;
    this.opts.onProgress({
      file: this.file,
      kind: this.kind,
      index: this.index,
      files: this.files,
      phase,
      rows: this.rows,
      percent,
      elapsedMs: now - this.started,
      errors: this.errs.list.length,
    });
  }
}

/** The refused rows of one file, up to MAX_ROW_ERRORS. */
class RowErrors {
  readonly list: ImportError[] = [];
  get full() {
    return this.list.length >= MAX_ROW_ERRORS;
  }
  add(e: ImportError) {
    if (!this.full) this.list.push(e);
  }
  throwIfAny() {
    if (this.list.length) throw ImportError.of(this.list, this.full);
  }
}

/**
 * The file's records with their line numbers. Every failure while reading (the file, gunzip, the size cap,
 * csv-parse, a record over MAX_RECORD_BYTES) is caught here and thrown as the file's ImportError.
 */
async function* rows(src: Source): AsyncGenerator<{ line: number; rec: Record<string, string> }> {
  const input = src.open();
  const parser = parse({
    columns: true,
    bom: true,
    info: true,
    skip_empty_lines: true,
    relax_column_count: false,
    max_record_size: MAX_RECORD_BYTES,
  });
  input.on('error', (err) => parser.destroy(err));
  input.pipe(parser);
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      yield { line: info.lines, rec: record };
    }
  } catch (e) {
    if (e instanceof ImportError) throw e;
    const err = e as { lines?: number; message?: string };
    if (e instanceof CsvError && e.code === 'CSV_MAX_RECORD_SIZE')
      throw new ImportError(src.file, err.lines ?? 0, 'row', `a record is longer than ${MAX_RECORD_BYTES / 1024} KB`);
    throw new ImportError(src.file, err.lines ?? 0, 'row', String(err.message ?? e).slice(0, 300));
  } finally {
    input.destroy();
    parser.destroy();
  }
}

/**
 * Calls `fn` for each row; a row it refuses (ImportError) is collected and reading goes on, until
 * MAX_ROW_ERRORS. A CSV syntax error ends the reading (the parser cannot resume). Throws the collected
 * ImportError after the last row when any row was refused.
 */
async function eachRow(src: Source, fn: (r: RowReader) => void | Promise<void>): Promise<void> {
  const errs = src.errs;
  src.report('reading', true);
  try {
    for await (const { line, rec } of rows(src)) {
      src.rows++;
      try {
        await fn(new RowReader(src.file, line, rec));
      } catch (e) {
        if (!(e instanceof ImportError)) throw e;
        errs.add(e);
        if (errs.full) break;
      }
      if ((src.rows & 1023) === 0) src.report('reading');
    }
  } catch (e) {
    if (!(e instanceof ImportError)) throw e;
    errs.add(e);
  }
  if (errs.list.length) src.report('failed', true);
  errs.throwIfAny();
  src.report('writing', true);
}

const INT = /^-?\d+$/;
const MONEY = /^\d+(\.\d{1,2})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

class RowReader {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly rec: Record<string, string>,
  ) {}
  private fail(field: string, reason: string): never {
    throw new ImportError(this.file, this.line, field, reason);
  }
  text(field: string, opts: { required?: boolean; max?: number } = {}): string | null {
    const v = (this.rec[field] ?? '').trim();
    if (!v) {
      if (opts.required) this.fail(field, 'is required');
      return null;
    }
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
  const board = await trx('boards').where({ board_number: number }).first('id');
  if (!board) throw new Error(`board ${number} was not written`);
  return board.id;
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

async function importStores(trx: Knex.Transaction, src: Source, opts: ImportOptions) {
  const board = await boardId(trx, opts);
  const seen = new Map<number, number>();
  const out: {
    id: number;
    code: string;
    name: string;
    address: string | null;
    city: string | null;
    state: string | null;
    zip: string | null;
    active: boolean;
    lat: string | null;
    lon: string | null;
  }[] = [];
  await eachRow(src, (r) => {
    const { file, line } = r;
    const id = r.int('Store', { required: true, min: 1, max: 2_000_000_000 })!;
    if (seen.has(id)) throw new ImportError(file, line, 'Store', `store ${id} appears twice (first on line ${seen.get(id)})`);
    seen.set(id, line);
    const status = r.text('Store Status', { required: true })!;
    if (status !== 'A' && status !== 'I') throw new ImportError(file, line, 'Store Status', `"${status}" is not A or I`);
    const state = r.text('State');
    if (state !== null && !/^[A-Z]{2}$/.test(state)) throw new ImportError(file, line, 'State', `"${state}" is not two capital letters`);
    out.push({
      id,
      code: `IA-${id}`,
      name: r.text('Name', { required: true, max: 200 })!,
      address: r.text('Address', { max: 200 }),
      city: r.text('City', { max: 100 }),
      state,
      zip: r.text('Zip Code', { max: 10 }),
      active: status === 'A',
      lat: r.decimal('latitude', -90, 90),
      lon: r.decimal('longitude', -180, 180),
    });
  });
  let returned: { inserted: boolean }[] = [];
  for (let i = 0; i < out.length; i += BATCH) {
    const b = out.slice(i, i + BATCH);
    const res = await raw(
      trx,
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
      [
        board,
        b.map((s) => s.id),
        b.map((s) => s.code),
        b.map((s) => s.name),
        b.map((s) => s.address),
        b.map((s) => s.city),
        b.map((s) => s.state),
        b.map((s) => s.zip),
        b.map((s) => s.active),
        b.map((s) => s.lat),
        b.map((s) => s.lon),
      ],
    );
    returned = returned.concat(res.rows);
  }
  return { rows: out.length, ...tally(returned, out.length) };
}

async function importProducts(trx: Knex.Transaction, src: Source, opts: ImportOptions) {
  const board = await boardId(trx, opts);
  const seen = new Map<string, number>();
  const out: {
    code: string;
    name: string;
    category: string | null;
    volume: number;
    pack: number;
    retail: string;
    vendor: string | null;
    vendorName: string | null;
    proof: number | null;
    age: number | null;
    upc: string | null;
    listDate: string | null;
  }[] = [];
  await eachRow(src, (r) => {
    const { file, line } = r;
    const code = r.code('Item Number');
    if (seen.has(code)) throw new ImportError(file, line, 'Item Number', `item ${code} appears twice (first on line ${seen.get(code)})`);
    seen.set(code, line);
    out.push({
      code,
      name: r.text('Item Description', { required: true, max: 300 })!,
      category: r.text('Category Name', { max: 100 }),
      volume: r.int('Bottle Volume (ml)', { required: true, min: 0, max: 100_000 })!,
      pack: r.int('Pack', { required: true, min: 1, max: 10_000 })!,
      retail: r.money('State Bottle Retail'),
      vendor: r.text('Vendor', { max: 20 }),
      vendorName: r.text('Vendor Name', { max: 200 }),
      proof: r.int('Proof', { min: 0, max: 400 }),
      age: r.int('Age', { min: 0, max: 200 }),
      upc: r.text('UPC', { max: 40 }),
      listDate: r.date('List Date'),
    });
  });
  const volumes = [...new Set(out.map((p) => p.volume))];
  await raw(
    trx,
    `INSERT INTO bottle_sizes (name, volume_ml) SELECT * FROM unnest(?::text[], ?::int[]) ON CONFLICT (volume_ml) DO NOTHING`,
    [volumes.map(bottleSizeName), volumes],
  );
  const sizeIds = new Map<number, number>((await trx('bottle_sizes').select('id', 'volume_ml')).map((s) => [s.volume_ml, s.id]));
  let returned: { inserted: boolean }[] = [];
  for (let i = 0; i < out.length; i += BATCH) {
    const b = out.slice(i, i + BATCH);
    const res = await raw(
      trx,
      `INSERT INTO items (board_id, code, name, category, retail, bottles_per_case, bottle_size_id, vendor_code, vendor_name, proof, age, upc, list_date)
       SELECT ?, u.* FROM unnest(?::text[], ?::text[], ?::text[], ?::numeric[], ?::int[], ?::int[], ?::text[], ?::text[], ?::int[], ?::int[], ?::text[], ?::date[])
         AS u(code, name, category, retail, bottles_per_case, bottle_size_id, vendor_code, vendor_name, proof, age, upc, list_date)
       ON CONFLICT (board_id, code) DO UPDATE SET name = EXCLUDED.name, category = EXCLUDED.category, retail = EXCLUDED.retail,
         bottles_per_case = EXCLUDED.bottles_per_case, bottle_size_id = EXCLUDED.bottle_size_id, vendor_code = EXCLUDED.vendor_code,
         vendor_name = EXCLUDED.vendor_name, proof = EXCLUDED.proof, age = EXCLUDED.age, upc = EXCLUDED.upc, list_date = EXCLUDED.list_date, updated_at = now()
       WHERE (items.name, items.category, items.retail, items.bottles_per_case, items.bottle_size_id, items.vendor_code, items.vendor_name, items.proof, items.age, items.upc, items.list_date)
         IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.category, EXCLUDED.retail, EXCLUDED.bottles_per_case, EXCLUDED.bottle_size_id, EXCLUDED.vendor_code, EXCLUDED.vendor_name, EXCLUDED.proof, EXCLUDED.age, EXCLUDED.upc, EXCLUDED.list_date)
       RETURNING (xmax = 0) AS inserted`,
      [
        board,
        b.map((p) => p.code),
        b.map((p) => p.name),
        b.map((p) => p.category),
        b.map((p) => p.retail),
        b.map((p) => p.pack),
        b.map((p) => sizeIds.get(p.volume)),
        b.map((p) => p.vendor),
        b.map((p) => p.vendorName),
        b.map((p) => p.proof),
        b.map((p) => p.age),
        b.map((p) => p.upc),
        b.map((p) => p.listDate),
      ],
    );
    returned = returned.concat(res.rows);
  }
  return { rows: out.length, ...tally(returned, out.length) };
}

async function importStoreItems(trx: Knex.Transaction, src: Source) {
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
    const res = await raw(
      trx,
      `INSERT INTO inventory (store_id, item_id) SELECT * FROM unnest(?::int[], ?::int[]) ON CONFLICT (store_id, item_id) DO NOTHING`,
      [storeIds, items],
    );
    inserted += res.rowCount ?? 0;
    storeIds = [];
    items = [];
  };
  await eachRow(src, async (r) => {
    const { file, line } = r;
    const store = r.int('Store Number', { required: true, min: 1 })!;
    const code = r.code('Item Number');
    const board = stores.get(store);
    if (board === undefined)
      throw new ImportError(file, line, 'Store Number', `store ${store} is not in the stores table (import stores.csv first)`);
    const item = itemIds.get(`${board}:${code}`);
    if (item === undefined)
      throw new ImportError(
        file,
        line,
        'Item Number',
        `item ${code} is not in the catalog of store ${store}'s board (import products.csv first)`,
      );
    count++;
    if (src.errs.list.length) return; // the file is refused anyway: only keep checking rows
    storeIds.push(store);
    items.push(item);
    if (storeIds.length >= BATCH * 2) await flush();
  });
  await flush();
  return { rows: count, inserted, updated: 0, unchanged: count - inserted };
}

/**
 * Imports one file (kind detected from its header) in its own transaction. Throws ImportError listing the
 * refused rows (nothing of the file written). `position`: which file of how many (for progress).
 */
export async function importFile(
  db: Knex,
  path: string,
  opts: ImportOptions = {},
  position: { index: number; files: number } = { index: 1, files: 1 },
): Promise<ImportResult> {
  const started = Date.now();
  const kind = await detectKind(path);
  const src = new Source(path, kind, position.index, position.files, new RowErrors(), opts);
  const counts = await db.transaction(async (trx) => {
    if (kind === 'stores') return importStores(trx, src, opts);
    if (kind === 'products') return importProducts(trx, src, opts);
    return importStoreItems(trx, src);
  });
  src.report('done', true);
  return { file: basename(path), kind, ...counts, ms: Date.now() - started };
}

/**
 * Imports files in dependency order (stores, products, then store items), one transaction each; stops at
 * the first refused file (ImportError). Returns a result per file.
 */
export async function importFiles(db: Knex, paths: string[], opts: ImportOptions = {}): Promise<ImportResult[]> {
  return importInOrder(db, paths, opts, []);
}

/** importFiles, pushing each committed file's result into `results` as it goes (runImport keeps them on a refusal). */
async function importInOrder(db: Knex, paths: string[], opts: ImportOptions, results: ImportResult[]): Promise<ImportResult[]> {
  const order: ImportKind[] = ['stores', 'products', 'store_items'];
  const kinds = await Promise.all(paths.map(async (p) => ({ p, k: await detectKind(p) })));
  kinds.sort((a, b) => order.indexOf(a.k) - order.indexOf(b.k));
  try {
    for (const [i, { p }] of kinds.entries()) results.push(await importFile(db, p, opts, { index: i + 1, files: kinds.length }));
  } finally {
    // Fresh planner statistics: without them the first searches after a bulk load pick poor plans.
    if (results.some((r) => r.inserted + r.updated > 0)) await db.raw('ANALYZE stores, bottle_sizes, items, inventory');
  }
  return results;
}

export { REAL_DATA_FILES } from './data-files';

/** What runImport answers: ok with a result per file, or the refused file's row errors (nothing of it written). */
export interface ImportRun {
  ok: boolean;
  /** Files imported (committed) before any refusal, in import order. */
  results: ImportResult[];
  /** The refused file's errors (at most MAX_ROW_ERRORS), empty when ok. */
  errors: RowError[];
  /** The refused file, when not ok. */
  failedFile?: string;
  /** The refused file was abandoned at MAX_ROW_ERRORS (more rows may be wrong). */
  limitReached: boolean;
}

/**
 * importFiles as a callable job (the admin data sync reuses it): never throws for bad data —
 * refused rows come back in `errors` — only for database or file-system failures. Progress goes to
 * `opts.onProgress`.
 */
export async function runImport(db: Knex, paths: string[], opts: ImportOptions = {}): Promise<ImportRun> {
  const results: ImportResult[] = [];
  try {
    await importInOrder(db, paths, opts, results);
    return { ok: true, results, errors: [], limitReached: false };
  } catch (e) {
    if (!(e instanceof ImportError)) throw e;
    return { ok: false, results, errors: e.errors, failedFile: e.file, limitReached: e.limitReached };
  }
}

/*
 * Run on its own (`npx tsx seeds/import.ts [--help] [files…] [--board N] [--board-name NAME]`), this file is
 * `npm run db:import`: the same checks, progress and messages (scripts/db.ts). Never taken when bundled.
 */
if (process.argv[1] && /seeds[\\/]import\.ts$/.test(process.argv[1])) {
  process.argv.splice(2, 0, 'import');
  const cli = join(__dirname, '..', 'scripts', 'db.ts');
  void import(cli);
}
