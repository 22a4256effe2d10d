import { brotliCompressSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { storeItems, type StoreItem } from '../orders/test-support';

/**
 * Bulk bodies the portal cannot read are refused, never read as "no rows" (issue 23 §2): empty bodies, an
 * unknown CSV header, binary or undecodable bytes; gzip and br bodies are decoded and capped after
 * decoding; mode=replace never removes more than half of a store's items without allowMassRemoval=true.
 */
const S = FIXTURE_STORES;
let t: TestContext;
let fx: Fixtures;
let items: StoreItem[];
let key: string;
let boardKey: string;
const INV = `/api/v1/integrations/stores/${S.central}/inventory`;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  items = await storeItems(t.db, S.central, 4);
  const admin = tokenFor(t, fx.users.admin);
  const k = await request(t.app)
    .post('/api/v1/admin/api-keys')
    .set('Authorization', `Bearer ${admin}`)
    .send({ name: 'wms', storeId: S.central, scopes: ['inventory:write'] });
  key = k.body.key;
  const board = await t.db('stores').where({ id: S.central }).first('board_id');
  const b = await request(t.app)
    .post('/api/v1/admin/api-keys')
    .set('Authorization', `Bearer ${admin}`)
    .send({ name: 'board', boardId: board!.board_id, scopes: ['catalog:write'] });
  boardKey = b.body.key;
});
afterAll(async () => {
  await t.close();
});

/** PUTs raw bytes with the headers given (Content-Type text/csv unless said). */
const raw = (path: string, body: Buffer | string, headers: Record<string, string> = {}, k = key) => {
  let r = request(t.app).put(path).set('Authorization', `Bearer ${k}`).set('Content-Type', 'text/csv');
  for (const [h, v] of Object.entries(headers)) r = r.set(h, v);
  // The bytes as they are (superagent would otherwise JSON-encode a Buffer sent as application/json).
  return r.serialize((b: unknown) => b as string).send(Buffer.isBuffer(body) ? body : Buffer.from(body));
};
const carried = async () => Number((await t.db('inventory').where({ store_id: S.central }).count<{ n: string }[]>('* as n'))[0].n);
const csvOf = (rows: StoreItem[], onHand = 7) => `Item Number,On Hand\n${rows.map((i) => `${i.code},${onHand}`).join('\n')}\n`;

describe('bulk bodies that say nothing', () => {
  it('when the body is [] or a CSV with only its header, then 400 bulk_body_empty and nothing is removed, dry run or not', async () => {
    const before = await carried();
    const empty = await request(t.app).put(`${INV}?mode=replace&dryRun=true`).set('Authorization', `Bearer ${key}`).send([]);
    expect(empty.status).toBe(400);
    expect(empty.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(empty.body).toMatchObject({ code: 'bulk_body_empty', detail: expect.stringContaining('no rows') });
    const headerOnly = await raw(`${INV}?mode=replace`, 'Item Number,On Hand\n');
    expect(headerOnly.status).toBe(400);
    expect(headerOnly.body.code).toBe('bulk_body_empty');
    expect(await carried()).toBe(before);
  });

  it('when the CSV header is not one the route reads (semicolons), then 400 csv_header_unknown naming what it read and what it needs', async () => {
    const res = await raw(`${INV}?mode=replace&dryRun=true`, `Item Number;On Hand\n${items[0].code};4\n`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'csv_header_unknown', detail: expect.stringContaining('"Item Number;On Hand"') });
    expect(res.body.detail).toContain('Item Number,On Hand');
    expect(res.body.errors).toEqual(expect.arrayContaining([{ path: 'header.itemCode', message: 'No column for itemCode' }]));
  });

  it('when binary bytes are sent as CSV or JSON, then 400 body_binary', async () => {
    const junk = Buffer.from('\u0000\u0001binary\u00ff'.repeat(200), 'latin1');
    const csv = await raw(`${INV}?mode=replace&dryRun=true`, junk);
    expect(csv.status).toBe(400);
    expect(csv.body.code).toBe('body_binary');
    const notUtf8 = await raw(INV, Buffer.from([0x49, 0x74, 0x65, 0x6d, 0xff, 0xfe, 0x0a]), { 'Content-Type': 'application/json' });
    expect(notUtf8.status).toBe(400);
    expect(notUtf8.body.code).toBe('body_binary');
  });
});

describe('refusals over a real connection', () => {
  it('when a refused body is sent over HTTP (fetch), then the client gets the 400 problem, not a cut connection', async () => {
    const server = t.app.listen(0, '127.0.0.1');
    await new Promise((ok) => server.once('listening', ok));
    try {
      const { port } = server.address() as { port: number };
      // 2 MB: the refusal comes while most of the body is still on its way.
      const junk = Buffer.from('\u0000\u0001binary\u00ff'.repeat(200_000), 'latin1');
      const res = await fetch(`http://127.0.0.1:${port}${INV}?mode=replace&dryRun=true`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
        body: junk,
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('body_binary');
    } finally {
      server.close();
    }
  });
});

describe('compressed bulk bodies', () => {
  it('when a CSV or a JSON array comes gzip or br encoded, then it is decoded and answered like the plain body', async () => {
    const csv = csvOf(items.slice(0, 3), 11);
    const gz = await raw(`${INV}?dryRun=true`, gzipSync(csv), { 'Content-Encoding': 'gzip' });
    expect(gz.status).toBe(200);
    expect(gz.body.created + gz.body.updated + gz.body.unchanged).toBe(3);
    const br = await raw(INV, brotliCompressSync(csv), { 'Content-Encoding': 'br' });
    expect(br.status).toBe(200);
    expect(br.body.created + br.body.updated).toBe(3);
    const row = await t.db('inventory').where({ store_id: S.central, item_id: items[0].id }).first('on_hand');
    expect(row!.on_hand).toBe(11);
    const json = gzipSync(JSON.stringify(items.slice(0, 3).map((i) => ({ itemCode: i.code, onHand: 11 }))));
    const j = await raw(INV, json, { 'Content-Encoding': 'gzip', 'Content-Type': 'application/json' });
    expect(j.status).toBe(200);
    expect(j.body).toMatchObject({ unchanged: 3, created: 0, updated: 0 });
  });

  it('when the bytes are not the encoding they claim, then 400 body_undecodable; an unknown encoding → 415', async () => {
    const bad = await raw(`${INV}?dryRun=true`, csvOf(items), { 'Content-Encoding': 'gzip' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('body_undecodable');
    const zstd = await raw(`${INV}?dryRun=true`, csvOf(items), { 'Content-Encoding': 'zstd' });
    expect(zstd.status).toBe(415);
    expect(zstd.body.code).toBe('unsupported_media_type');
  });

  it('when a small gzip body decodes to more than 50,000 rows, then 413 (the row cap holds after decoding)', async () => {
    const big = `Item Number,On Hand\n${`${items[0].code},1\n`.repeat(50_001)}`;
    const gz = gzipSync(big);
    expect(gz.length).toBeLessThan(100_000);
    const res = await raw(`${INV}?dryRun=true`, gz, { 'Content-Encoding': 'gzip' });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
  });
});

describe('replace that would empty a store', () => {
  it('when mode=replace would remove more than half of the carried items, then 422 mass_removal_refused naming the count (dry run too) and nothing is removed; allowMassRemoval=true removes them', async () => {
    const before = await carried();
    expect(before).toBeGreaterThan(4);
    const one = [{ itemCode: items[0].code, onHand: 3 }];
    const dry = await request(t.app).put(`${INV}?mode=replace&dryRun=true`).set('Authorization', `Bearer ${key}`).send(one);
    expect(dry.status).toBe(422);
    expect(dry.body).toMatchObject({ code: 'mass_removal_refused', removing: before - 1, carried: before });
    expect(dry.body.detail).toContain(`remove ${before - 1} of the ${before}`);
    const wet = await request(t.app).put(`${INV}?mode=replace`).set('Authorization', `Bearer ${key}`).send(one);
    expect(wet.status).toBe(422);
    expect(wet.body.code).toBe('mass_removal_refused');
    expect(await carried()).toBe(before);
    const allowed = await request(t.app).put(`${INV}?mode=replace&allowMassRemoval=true`).set('Authorization', `Bearer ${key}`).send(one);
    expect(allowed.status).toBe(200);
    expect(allowed.body.removed).toBe(before - 1);
    expect(await carried()).toBe(1);
  });

  it("when a board's catalog replace would deactivate more than half of its items, then 422 mass_removal_refused and none is deactivated", async () => {
    const board = await t.db('stores').where({ id: S.central }).first('board_id');
    const active = async () =>
      Number((await t.db('items').where({ board_id: board!.board_id, active: true }).count<{ n: string }[]>('* as n'))[0].n);
    const before = await active();
    const res = await request(t.app)
      .put('/api/v1/integrations/items?mode=replace&dryRun=true')
      .set('Authorization', `Bearer ${boardKey}`)
      .send([{ itemCode: items[0].code, name: 'Only one', retail: '9.99' }]);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'mass_removal_refused', carried: before });
    expect(await active()).toBe(before);
  });
});
