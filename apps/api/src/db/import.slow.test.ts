import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestContext, type TestContext } from '../test/harness';
import { importFile, importFiles, ImportError, realDataFiles, type ImportResult } from '@portal/seeds';

/** The repository's own copy of the real files, gzipped (data/iowa-abd): the full import streams them. */
const REPO_DATA = join(__dirname, '../../../../data/iowa-abd');
/** The lines of one of the repository's gzipped data files. */
const repoLines = (name: string) =>
  gunzipSync(readFileSync(join(REPO_DATA, name)))
    .toString('utf8')
    .split('\n');
/** Writes `text` as `name` in a fresh temporary folder and returns its path (files of shapes the import refuses). */
const tempFile = (name: string, text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'import-')), name);
  writeFileSync(path, text);
  return path;
};
/** The header and first row of the State's raw sales export (semicolon-separated, as published). */
const RAW_SALES_EXPORT =
  'Invoice/Item Number;Date;Store Number;Store Name;Address;City;Zip Code;Store Location;County Number;County;Category;Category Name;Vendor Number;Vendor Name;Item Number;Item Description;Pack;Bottle Volume (ml);State Bottle Cost;State Bottle Retail;Bottles Sold;Sale (Dollars);Volume Sold (Liters);Volume Sold (Gallons)\n' +
  'S29198800001;11/20/2015;2191;Keokuk Spirits;1013 MAIN;KEOKUK;52632;"1013 MAIN\tKEOKUK 52632\t(40.39978, -91.387531)";56.0;Lee;;;255;Wilson Daniels Ltd.;297;Templeton Rye w/Flask;6;750;$18.09;$27.14;6;$162.84;4.5;1.19\n';
const counts = async (t: TestContext) => {
  const n = async (table: string) => Number((await t.db(table).count<{ n: number }[]>('* as n'))[0].n);
  return {
    boards: await n('boards'),
    stores: await n('stores'),
    bottleSizes: await n('bottle_sizes'),
    items: await n('items'),
    inventory: await n('inventory'),
  };
};

let t: TestContext;
/**
 * The first import of the three real files into the empty catalog, made once before every test (minutes on
 * a small machine): the tests that change the catalog put it back, so each test finds it as imported.
 */
let firstImport: ImportResult[];
beforeAll(async () => {
  t = await createTestContext();
  firstImport = await importFiles(t.db, realDataFiles(REPO_DATA));
}, 240_000);
afterAll(async () => {
  await t.close();
});

describe('real-data import (shared/data/README)', () => {
  it('when the three real files are imported (gzipped, from the repository), then the catalog holds every store, item and store assortment', async () => {
    const results = firstImport;
    expect(results.map((r) => [r.kind, r.rows, r.inserted])).toEqual([
      ['stores', 2296, 2296],
      ['products', 6482, 6482],
      ['store_items', 545495, 545495],
    ]);
    expect(await counts(t)).toEqual({ boards: 1, stores: 2296, bottleSizes: 28, items: 6482, inventory: 545495 });
    const jack = await t
      .db('items as i')
      .join('bottle_sizes as b', 'b.id', 'i.bottle_size_id')
      .where('i.code', '26826')
      .first('i.name', 'i.retail', 'i.bottles_per_case', 'i.category', 'b.name as size', 'b.volume_ml');
    expect(jack).toEqual({
      name: 'JACK DANIELS OLD #7 BLACK LABEL',
      retail: '23.87',
      bottles_per_case: 12,
      category: 'TENNESSEE WHISKIES',
      size: '750 ml',
      volume_ml: 750,
    });
    const store = await t.db('stores').where({ id: 2113 }).first('warehouse_code', 'active', 'state', 'delivery_enabled');
    expect(store).toEqual({ warehouse_code: 'IA-2113', active: false, state: 'IA', delivery_enabled: false });
    expect((await t.db('bottle_sizes').where({ volume_ml: 0 }).first('name'))!.name).toBe('Unknown Size');
    expect((await t.db('bottle_sizes').where({ volume_ml: 1750 }).first('name'))!.name).toBe('1.75 L');
  }, 120_000);

  it('when the same files are imported again, then nothing changes', async () => {
    const before = await counts(t);
    const stamp = await t.db('items').max('updated_at as m').first();
    const results = await importFiles(t.db, realDataFiles(REPO_DATA));
    expect(results.every((r) => r.inserted === 0 && r.updated === 0 && r.unchanged === r.rows)).toBe(true);
    expect(await counts(t)).toEqual(before);
    expect(await t.db('items').max('updated_at as m').first()).toEqual(stamp);
  }, 120_000);

  it('when a products file has a malformed price, then the file is refused with file:line:field and nothing of it is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-'));
    const lines = repoLines('products.csv.gz');
    const good = lines[1].replace(/^\d+,/, '990001,');
    const bad = lines[2].replace(/^\d+,/, '990002,').replace(/,[\d.]+,2022-11-01$/, ',12.3.4,2022-11-01');
    writeFileSync(join(dir, 'mine.csv'), [lines[0], good, bad].join('\n') + '\n');
    await expect(importFile(t.db, join(dir, 'mine.csv'))).rejects.toThrow(
      new ImportError('mine.csv', 3, 'State Bottle Retail', '"12.3.4" is not an amount in dollars (e.g. 23.87)'),
    );
    expect(await t.db('items').where({ code: '990001' }).first()).toBeUndefined();
  });

  it('when a store_items row names an unknown store, then the whole file is refused and no row of it is kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-'));
    writeFileSync(
      join(dir, 'si.csv'),
      'Store Number,Item Number,Order Lines,Bottles Sold,First Order Date,Last Order Date\n2106,26826,1,1,2022-01-01,2022-01-01\n99,26826,1,1,2022-01-01,2022-01-01\n',
    );
    const kept = await t.db('inventory').where({ store_id: 2106 });
    await t.db('inventory').where({ store_id: 2106 }).del();
    try {
      await expect(importFile(t.db, join(dir, 'si.csv'))).rejects.toThrow(
        'si.csv:3: Store Number: store 99 is not in the stores table (import stores.csv first)',
      );
      expect(await t.db('inventory').where({ store_id: 2106 }).first()).toBeUndefined();
    } finally {
      // The store's assortment as imported, for the other tests.
      if (kept.length) await t.db('inventory').insert(kept);
    }
  });

  it('when the raw semicolon-separated sales export is given, then it is refused at line 1 with a clear reason', async () => {
    await expect(importFile(t.db, tempFile('iowa_liquor_sales_raw_10k.csv', RAW_SALES_EXPORT))).rejects.toThrow(
      /iowa_liquor_sales_raw_10k\.csv:1: header: semicolon-separated file/,
    );
  });

  it('when a file of another shape is given, then it is refused naming the header', async () => {
    await expect(
      importFile(t.db, tempFile('sales_sample.csv', repoLines('sales_sample_demo_stores.csv.gz').slice(0, 3).join('\n') + '\n')),
    ).rejects.toThrow(/sales_sample\.csv:1: header: unknown columns/);
  });

  it('when an ops export from another board is imported with --board 2, then its items live beside board 1 with the same codes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-'));
    const lines = repoLines('products.csv.gz');
    writeFileSync(join(dir, 'b2.csv'), [lines[0], lines[1], lines[2]].join('\n') + '\n');
    try {
      const r = await importFile(t.db, join(dir, 'b2.csv'), { boardNumber: 2, boardName: 'Second Board' });
      expect(r).toMatchObject({ kind: 'products', rows: 2, inserted: 2 });
      const code = lines[1].split(',')[0];
      expect(Number((await t.db('items').where({ code }).count<{ n: number }[]>('* as n'))[0].n)).toBe(2);
    } finally {
      // Board 2 and its items go again: the other tests count one board and the real items.
      const board = await t.db('boards').where({ board_number: 2 }).first('id');
      if (board) {
        await t.db('items').where({ board_id: board.id }).del();
        await t.db('boards').where({ id: board.id }).del();
      }
    }
  });
});
