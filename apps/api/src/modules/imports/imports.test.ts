import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createImportQueue, type ImportQueue } from '../../jobs/import-queue';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { seedFixtures, type Fixtures } from '../../test/fixtures';
import { recordCliRun } from './imports.repository';

const FIXTURES = join(__dirname, '../../test/fixtures');
const products = readFileSync(join(FIXTURES, 'products.csv'), 'utf8').trimEnd().split('\n');

async function waitForRun(t: TestContext, token: string, id: string) {
  for (let i = 0; i < 100; i++) {
    const res = await request(t.app).get(`/api/v1/admin/imports/${id}`).auth(token, { type: 'bearer' });
    if (res.body.status === 'succeeded' || res.body.status === 'failed') return res;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`import ${id} did not finish`);
}

/** Imports from the browser: multipart upload → pg-boss job → the db:import importer → run status. */
describe('admin imports (Data Synch)', () => {
  let t: TestContext;
  let fx: Fixtures;
  let queue: ImportQueue;
  let admin: string;
  beforeAll(async () => {
    t = await createTestContext();
    queue = createImportQueue({
      connectionString: t.config.databaseUrl!,
      db: t.db,
      logger: t.ctx.logger,
      work: true,
      pollingIntervalSeconds: 0.5,
    });
    await queue.start();
    t.ctx.imports = queue;
    fx = await seedFixtures(t.db);
    admin = tokenFor(t, fx.users.admin);
  });
  afterAll(async () => {
    await queue.stop();
    await t.close();
  });

  const upload = (files: [string, string][], token = admin) => {
    const r = request(t.app).post('/api/v1/admin/imports').auth(token, { type: 'bearer' });
    for (const [name, text] of files) r.attach('files', Buffer.from(text), { filename: name, contentType: 'text/csv' });
    return r;
  };

  it('when a products file has a bad row, then the run fails naming file and line, and nothing of the file is written', async () => {
    const cols = products[2].split(',');
    // Column 15 is State Bottle Retail; the row's description has no comma, so the split is safe.
    cols[15] = 'abc';
    const code = cols[0];
    const renamed = products[1].split(',');
    renamed[2] = 'RENAMED IN THE BAD FILE';
    const before = await t.db('items').where({ code: renamed[0] }).first('name');
    const res = await upload([['products-bad.csv', [products[0], renamed.join(','), cols.join(',')].join('\n') + '\n']]);
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('queued');
    const run = await waitForRun(t, admin, res.body.id);
    expect(run.body).toMatchObject({ status: 'failed', source: 'upload', createdBy: 'admin@example.com' });
    expect(run.body.files).toEqual([expect.objectContaining({ name: 'products-bad.csv', kind: 'products', created: 0, updated: 0 })]);
    expect(run.body.files[0].errors).toEqual([`products-bad.csv:3: State Bottle Retail: "abc" is not an amount in dollars (e.g. 23.87)`]);
    expect(await t.db('items').where({ code: renamed[0] }).first('name')).toEqual(before);
    expect(code).toBeTruthy();
    expect(await t.db('import_runs').where({ id: res.body.id }).first('work_dir')).toEqual({ work_dir: null });
    expect(await t.db('audit_log').where({ action: 'import.queued', entity_id: res.body.id })).toHaveLength(1);
  });

  it('when a good file is uploaded twice, then the first run updates, the second changes nothing, with progress at 100%', async () => {
    const changed = products[1].split(',');
    changed[15] = '99.99';
    const text = [products[0], changed.join(','), ...products.slice(2, 6)].join('\n') + '\n';
    const first = await waitForRun(t, admin, (await upload([['products-good.csv', text]])).body.id);
    expect(first.body.status).toBe('succeeded');
    expect(first.body.files[0]).toMatchObject({ kind: 'products', rows: 5, created: 0, updated: 1, unchanged: 4, errors: [] });
    expect(first.body.progress).toEqual({ rowsRead: 5, rowsTotal: 5, percent: 100 });
    expect((await t.db('items').where({ code: changed[0] }).first('retail'))!.retail).toBe('99.99');
    const again = await waitForRun(t, admin, (await upload([['products-good.csv', text]])).body.id);
    expect(again.body.files[0]).toMatchObject({ rows: 5, created: 0, updated: 0, unchanged: 5 });
  });

  it('when several files come at once, then they run in dependency order (stores before store items) each with its counts', async () => {
    const stores =
      'Store,Name,Store Status,Address,City,State,Zip Code,latitude,longitude,Report Date\n9100,NEW TEST STORE,A,1 MAIN,AMES,IA,50010,42.0,-93.6,2022-11-01\n';
    const items = `Store Number,Item Number,Order Lines,Bottles Sold,First Order Date,Last Order Date\n9100,${products[1].split(',')[0]},1,1,2022-01-02,2022-01-02\n`;
    try {
      const run = await waitForRun(
        t,
        admin,
        (
          await upload([
            ['store-items.csv', items],
            ['stores.csv', stores],
          ])
        ).body.id,
      );
      expect(run.body.status).toBe('succeeded');
      expect(run.body.files).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'stores.csv', kind: 'stores', created: 1 }),
          expect.objectContaining({ name: 'store-items.csv', kind: 'store_items', created: 1 }),
        ]),
      );
      expect(await t.db('inventory').where({ store_id: 9100 })).toHaveLength(1);
    } finally {
      // The new store goes again (with its inventory): the summary test counts the stores.
      await t.db('stores').where({ id: 9100 }).del();
    }
  });

  it('when a file has an unknown header or the upload has no file, then the run fails naming the header / the request is 400', async () => {
    const run = await waitForRun(t, admin, (await upload([['sales.csv', 'a;b;c\n1;2;3\n']])).body.id);
    expect(run.body.status).toBe('failed');
    expect(run.body.files[0].errors[0]).toMatch(/^sales\.csv:1: header: semicolon-separated/);
    const none = await request(t.app).post('/api/v1/admin/imports').auth(admin, { type: 'bearer' }).field('x', 'y');
    expect(none.status).toBe(400);
    const json = await request(t.app).post('/api/v1/admin/imports').auth(admin, { type: 'bearer' }).send({ files: [] });
    expect(json.status).toBe(400);
  });

  it('when a CLI import is recorded, then it is listed with the uploads and the summary shows the last import per kind', async () => {
    // Its own uploads first: a store with one inventory row, and products (unchanged rows), in one run.
    const stores =
      'Store,Name,Store Status,Address,City,State,Zip Code,latitude,longitude,Report Date\n9200,SUMMARY TEST STORE,A,2 MAIN,AMES,IA,50010,42.0,-93.6,2022-11-01\n';
    const items = `Store Number,Item Number,Order Lines,Bottles Sold,First Order Date,Last Order Date\n9200,${products[1].split(',')[0]},1,1,2022-01-02,2022-01-02\n`;
    const productsText = [products[0], ...products.slice(2, 4)].join('\n') + '\n';
    const uploaded = await waitForRun(
      t,
      admin,
      (
        await upload([
          ['stores.csv', stores],
          ['products.csv', productsText],
          ['store-items.csv', items],
        ])
      ).body.id,
    );
    expect(uploaded.body.status).toBe('succeeded');
    try {
      await recordCliRun(t.db, [{ file: 'stores.csv', kind: 'stores', rows: 2, inserted: 0, updated: 0, unchanged: 2 }]);
      const list = await request(t.app).get('/api/v1/admin/imports').auth(admin, { type: 'bearer' });
      expect(list.status).toBe(200);
      expect(list.body.items[0]).toMatchObject({
        source: 'cli',
        status: 'succeeded',
        files: [expect.objectContaining({ name: 'stores.csv', unchanged: 2 })],
      });
      const summary = await request(t.app).get('/api/v1/admin/imports/summary').auth(admin, { type: 'bearer' });
      expect(summary.body).toMatchObject({ items: 90, stores: 6, boards: 1 });
      expect(summary.body.inventoryRows).toBe(Number((await t.db('inventory').count<{ n: number }[]>('* as n'))[0].n));
      expect(summary.body.lastImports.map((l: { kind: string; source: string }) => `${l.kind}:${l.source}`)).toEqual([
        'stores:cli',
        'products:upload',
        'store_items:upload',
      ]);
    } finally {
      await t.db('stores').where({ id: 9200 }).del();
    }
  });

  it('when someone without bcc.admin.allow_data_sync uploads or reads, then 403 and no run is recorded', async () => {
    const n = (await t.db('import_runs').count<{ n: number }[]>('* as n'))[0].n;
    const manager = tokenFor(t, fx.users.manager);
    expect((await upload([['x.csv', 'a\n']], manager)).status).toBe(403);
    expect((await request(t.app).get('/api/v1/admin/imports').auth(manager, { type: 'bearer' })).status).toBe(403);
    expect((await t.db('import_runs').count<{ n: number }[]>('* as n'))[0].n).toBe(n);
  });
});
