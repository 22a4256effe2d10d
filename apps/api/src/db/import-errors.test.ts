import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestContext, type TestContext } from '../test/harness';
import { importFile, importFiles, runImport, ImportError, MAX_ROW_ERRORS, type ImportProgress } from '@portal/seeds';

/** An import collects up to 100 refused rows per file, reports progress, and runs as a callable job. */
const PRODUCTS_HEADER =
  'Item Number,Category Name,Item Description,Vendor,Vendor Name,Bottle Volume (ml),Pack,Age,Proof,List Date,UPC,State Bottle Retail';
const product = (code: string, price = '12.50') => `${code},VODKA,Test Vodka ${code},1,Test Vendor,750,12,,80,2022-11-01,,${price}`;
const STORES_HEADER = 'Store,Name,Store Status,Address,City,State,Zip Code,latitude,longitude';
const store = (id: number) => `${id},Test Store ${id},A,1 Main St,AMES,IA,50010,42.0,-93.6`;

let t: TestContext;
let dir: string;
beforeAll(async () => {
  t = await createTestContext();
  dir = mkdtempSync(join(tmpdir(), 'import-errors-'));
});
afterAll(async () => {
  await t.close();
});

function file(name: string, lines: string[]) {
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}
const itemsWithCodes = async (codes: string[]) =>
  Number((await t.db('items').whereIn('code', codes).count<{ n: number }[]>('* as n'))[0].n);

describe('import row errors', () => {
  it('when a file has three bad rows among good ones, then all three are reported (line, field, reason) and nothing of the file is written', async () => {
    const path = file('three-bad.csv', [
      PRODUCTS_HEADER,
      product('880001'),
      product('880002', '1.2.3'),
      product('880003'),
      product('x88'),
      product('880005', 'abc'),
    ]);
    const err = await importFile(t.db, path).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ImportError);
    const e = err as ImportError;
    expect(e.errors.map((r) => [r.line, r.field, r.reason])).toEqual([
      [3, 'State Bottle Retail', '"1.2.3" is not an amount in dollars (e.g. 23.87)'],
      [5, 'Item Number', '"x88" is not a numeric code'],
      [6, 'State Bottle Retail', '"abc" is not an amount in dollars (e.g. 23.87)'],
    ]);
    expect(e.limitReached).toBe(false);
    expect(e.message.split('\n')).toEqual([
      'three-bad.csv: 3 rows refused:',
      '  three-bad.csv:3: State Bottle Retail: "1.2.3" is not an amount in dollars (e.g. 23.87)',
      '  three-bad.csv:5: Item Number: "x88" is not a numeric code',
      '  three-bad.csv:6: State Bottle Retail: "abc" is not an amount in dollars (e.g. 23.87)',
    ]);
    expect(String(e.errors[1])).toBe('three-bad.csv:5: Item Number: "x88" is not a numeric code');
    expect(await itemsWithCodes(['880001', '880003'])).toBe(0);
  });

  it('when a file has more than 100 bad rows, then the first 100 are reported and the file is abandoned there', async () => {
    const lines = [PRODUCTS_HEADER];
    for (let i = 0; i < 150; i++) lines.push(product(String(881000 + i), 'bad'));
    const e = (await importFile(t.db, file('many-bad.csv', lines)).catch((x: unknown) => x)) as ImportError;
    expect(e).toBeInstanceOf(ImportError);
    expect(e.errors).toHaveLength(MAX_ROW_ERRORS);
    expect(e.errors[99].line).toBe(101);
    expect(e.limitReached).toBe(true);
    expect(e.message.split('\n')[0]).toBe('many-bad.csv: 100 rows refused (stopped at the first 100):');
  });

  it('when one row is bad, then the message stays file:line: field: reason', async () => {
    const e = (await importFile(t.db, file('one-bad.csv', [PRODUCTS_HEADER, product('882001', '9.999')])).catch(
      (x: unknown) => x,
    )) as ImportError;
    expect(e.message).toBe('one-bad.csv:2: State Bottle Retail: "9.999" is not an amount in dollars (e.g. 23.87)');
    expect(e.errors).toHaveLength(1);
  });
});

describe('import progress and the callable job the admin data sync uses', () => {
  it('when files are imported with onProgress, then it hears reading, writing and done per file with rows, % and elapsed time', async () => {
    const events: ImportProgress[] = [];
    const stores = file('stores-p.csv', [STORES_HEADER, store(990101), store(990102)]);
    const products = file('products-p.csv', [PRODUCTS_HEADER, product('883001'), product('883002'), product('883003')]);
    const results = await importFiles(t.db, [products, stores], { onProgress: (p) => events.push(p), progressEveryMs: 0 });
    expect(results.map((r) => [r.kind, r.rows, r.inserted])).toEqual([
      ['stores', 2, 2],
      ['products', 3, 3],
    ]);
    const phases = (f: string) => events.filter((e) => e.file === f).map((e) => e.phase);
    expect(phases('stores-p.csv')[0]).toBe('reading');
    expect(phases('stores-p.csv').slice(-2)).toEqual(['writing', 'done']);
    expect(phases('products-p.csv').slice(-2)).toEqual(['writing', 'done']);
    const done = events.filter((e) => e.phase === 'done');
    expect(done.map((e) => [e.file, e.index, e.files, e.rows, e.percent, e.errors])).toEqual([
      ['stores-p.csv', 1, 2, 2, 100, 0],
      ['products-p.csv', 2, 2, 3, 100, 0],
    ]);
    expect(done.every((e) => e.elapsedMs >= 0)).toBe(true);
  });

  it('when runImport meets a refused file, then it answers ok false with the committed results and every row error instead of throwing', async () => {
    const events: ImportProgress[] = [];
    const stores = file('stores-j.csv', [STORES_HEADER, store(990201)]);
    const products = file('products-j.csv', [PRODUCTS_HEADER, product('884001'), product('884002', '-1'), product('884003', '')]);
    const run = await runImport(t.db, [stores, products], { onProgress: (p) => events.push(p) });
    expect(run.ok).toBe(false);
    expect(run.failedFile).toBe('products-j.csv');
    expect(run.results.map((r) => [r.file, r.inserted])).toEqual([['stores-j.csv', 1]]);
    expect(run.errors.map((e) => e.message)).toEqual([
      'products-j.csv:3: State Bottle Retail: "-1" is not an amount in dollars (e.g. 23.87)',
      'products-j.csv:4: State Bottle Retail: is required',
    ]);
    expect(events.find((e) => e.file === 'products-j.csv' && e.phase === 'failed')).toMatchObject({ errors: 2 });
    expect(await t.db('stores').where({ id: 990201 }).first('id')).toEqual({ id: 990201 });
    expect(await itemsWithCodes(['884001'])).toBe(0);
  });

  it('when runImport succeeds, then ok true with a result per file and no errors', async () => {
    const run = await runImport(t.db, [file('products-ok.csv', [PRODUCTS_HEADER, product('885001')])]);
    expect(run).toMatchObject({ ok: true, errors: [], limitReached: false });
    expect(run.results).toHaveLength(1);
    expect(await itemsWithCodes(['885001'])).toBe(1);
  });
});
