import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { ImportError, importFile } from '@portal/seeds';
import { ABANDONED_RUN_ERROR, createImportQueue, type ImportQueue } from '../../jobs/import-queue';
import { runImportInChild } from '../../jobs/import-runner';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { seedFixtures, type Fixtures } from '../../test/fixtures';
import { getRun, insertRun, updateRun } from './imports.repository';

/**
 * Hostile import files (issue 23 §3): a file that inflates to one huge field, a binary file, a process that
 * dies: each fails its own run, recorded and shown, and the API keeps serving.
 */
const FIXTURES = join(__dirname, '../../test/fixtures');
const products = readFileSync(join(FIXTURES, 'products.csv'), 'utf8').trimEnd().split('\n');

let t: TestContext;
let fx: Fixtures;
let queue: ImportQueue;
let admin: string;

async function waitForRun(id: string) {
  for (let i = 0; i < 150; i++) {
    const res = await request(t.app).get(`/api/v1/admin/imports/${id}`).auth(admin, { type: 'bearer' });
    if (res.body.status === 'succeeded' || res.body.status === 'failed') return res;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`import ${id} did not finish`);
}
const upload = (name: string, body: Buffer, contentType = 'text/csv') =>
  request(t.app).post('/api/v1/admin/imports').auth(admin, { type: 'bearer' }).attach('files', body, { filename: name, contentType });
const alive = async () => (await request(t.app).get('/api/v1/health')).status;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  admin = tokenFor(t, fx.users.admin);
});
afterAll(async () => {
  await queue?.stop();
  await t.close();
});

describe('a run left running by a process that died', () => {
  it('when the import queue starts, then a run whose heartbeat is stale is marked failed with the reason', async () => {
    const id = await insertRun(t.db, { source: 'upload', status: 'running', files: [] });
    await t
      .db('import_runs')
      .where({ id })
      .update({ started_at: t.db.raw(`now() - interval '10 minutes'`), heartbeat_at: t.db.raw(`now() - interval '5 minutes'`) });
    const fresh = await insertRun(t.db, { source: 'upload', status: 'running', files: [] });
    await t
      .db('import_runs')
      .where({ id: fresh })
      .update({ started_at: t.db.raw('now()'), heartbeat_at: t.db.raw('now()') });
    queue = createImportQueue({
      connectionString: t.config.databaseUrl!,
      db: t.db,
      logger: t.ctx.logger,
      work: true,
      pollingIntervalSeconds: 0.5,
    });
    await queue.start();
    t.ctx.imports = queue;
    expect(await getRun(t.db, id)).toMatchObject({ status: 'failed', error: ABANDONED_RUN_ERROR });
    expect((await t.db('import_runs').where({ id }).first('finished_at'))!.finished_at).not.toBeNull();
    // A run another live process is running (fresh heartbeat) is left alone.
    expect(await getRun(t.db, fresh)).toMatchObject({ status: 'running' });
    await t.db('import_runs').where({ id: fresh }).update({ status: 'failed' });
  });
});

describe('error texts PostgreSQL cannot hold', () => {
  it('when a run is recorded with NUL bytes and lone surrogates in its errors, then it is recorded with U+FFFD in their place', async () => {
    const id = await insertRun(t.db, { source: 'upload', status: 'running', files: [] });
    await updateRun(t.db, id, {
      status: 'failed',
      finished: true,
      error: 'bad\u0000file',
      files: [
        { name: 'x\u0000.csv', kind: null, rows: 0, created: 0, updated: 0, unchanged: 0, errors: ['x.csv:1: header: "\u0000\ud800"'] },
      ],
    });
    const run = await getRun(t.db, id);
    expect(run).toMatchObject({ status: 'failed', error: 'bad\uFFFDfile' });
    expect(run!.files[0]).toMatchObject({ name: 'x\uFFFD.csv', errors: ['x.csv:1: header: "\uFFFD\uFFFD"'] });
  });
});

describe('hostile files', () => {
  it('when a .csv.gz inflates to one field of several MB, then its run fails naming the file (record too long) and the API keeps serving', async () => {
    const field = 'A'.repeat(4 * 2 ** 20);
    const bomb = gzipSync(`${products[0]}\n1,"${field}",x\n`, { level: 9 });
    expect(bomb.length).toBeLessThan(50_000);
    const res = await upload('products.csv.gz', bomb, 'application/gzip');
    expect(res.status).toBe(202);
    const run = await waitForRun(res.body.id);
    expect(run.body.status).toBe('failed');
    expect(run.body.files[0].errors[0]).toMatch(/^products\.csv\.gz:\d+: row: a record is longer than 64 KB/);
    expect(await alive()).toBe(200);
  });

  it('when a binary file is uploaded as CSV, then its run fails with a readable error that is recorded and shown', async () => {
    const binary = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256));
    const res = await upload('m.csv', binary);
    const run = await waitForRun(res.body.id);
    expect(run.body.status).toBe('failed');
    expect(run.body.files[0].errors).toEqual([
      'm.csv:1: header: the file is binary, not CSV text (a compressed file without its .gz name?)',
    ]);
    expect(await alive()).toBe(200);
  });

  it('when a gzip file decompresses past the cap, then importFile refuses it as the file error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-import-'));
    const path = join(dir, 'products.csv.gz');
    writeFileSync(path, gzipSync(products.join('\n') + '\n'));
    const refused = await importFile(t.db, path, { maxBytes: 200 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ImportError);
    expect((refused as ImportError).message).toBe('products.csv.gz:0: file: is larger than 0 MB once decompressed');
  });

  it("when the importer's process runs out of memory, then its run is failed with the reason and the API keeps serving", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-import-'));
    writeFileSync(join(dir, 'products.csv'), products.join('\n') + '\n');
    const id = await insertRun(t.db, {
      source: 'upload',
      status: 'queued',
      files: [{ name: 'products.csv', kind: null, rows: 0, created: 0, updated: 0, unchanged: 0, errors: [] }],
      workDir: dir,
    });
    // 16 MB of heap is not enough to even load the importer: the process dies as a hostile file would make it.
    // (Its V8 out-of-memory text is kept off this jest worker's stderr, where jest would take it for the worker's.)
    await runImportInChild({
      connectionString: t.config.databaseUrl!,
      db: t.db,
      runId: id,
      logger: t.ctx.logger,
      memoryMb: 16,
      stderr: 'ignore',
    });
    const run = await getRun(t.db, id);
    expect(run).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^The import stopped: its process ran out of memory \(its limit is 16 MB\)/),
    });
    expect(await t.db('import_runs').where({ id }).first('work_dir')).toEqual({ work_dir: null });
    expect(await alive()).toBe(200);
  });
});
