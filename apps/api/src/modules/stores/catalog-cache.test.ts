import request from 'supertest';
import { productPageSchema } from '@portal/contracts';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { findPrincipal } from '../access/access.service';
import { catalogCacheOf } from './catalog-cache';
import { listProducts } from './stores.service';

/**
 * The catalog's page cache (issue 29 §2, catalog-cache.ts): a page is answered from the cache only while the
 * catalog version it was read under is unchanged (catalog_versions, bumped by triggers on inventory, items
 * and bottle_sizes), and the caller's reach is checked on every request. The answer kept with an entry (its JSON,
 * strong ETag and coded bodies) is sent as it is, or 304 to a matching If-None-Match after the same checks.
 */
let t: TestContext;
let fx: Fixtures;
const S = FIXTURE_STORES;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

const page = async (who: 'buyer' | 'otherBuyer', query = 'search=vodka') => {
  const res = await request(t.app)
    .get(`/api/v1/stores/${S.central}/products?${query}`)
    .set('Authorization', `Bearer ${tokenFor(t, fx.users[who])}`);
  return { status: res.status, body: res.status === 200 ? productPageSchema.parse(res.body) : undefined };
};

/** The SQL statements `run` sends. */
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const sqls: string[] = [];
  const listen = (q: { sql: string }) => sqls.push(q.sql);
  t.db.on('query', listen);
  try {
    await run();
  } finally {
    t.db.removeListener('query', listen);
  }
  return sqls;
}

const itemId = async (code: string) => (await t.db('items').where({ code }).first('id'))!.id;

describe('catalog page cache', () => {
  it('when the same page is asked again with nothing changed, then it is answered without the page query', async () => {
    const first = await page('buyer');
    expect(first.body!.items.length).toBeGreaterThan(0);
    let again: Awaited<ReturnType<typeof page>> | undefined;
    const sqls = await statementsOf(async () => (again = await page('buyer')));
    expect(again).toEqual(first);
    expect(sqls.filter((s) => /FROM inventory inv/.test(s))).toEqual([]);
    expect(sqls.filter((s) => /catalog_versions/.test(s))).toHaveLength(1);
  });

  it("when a listed item's stock changes, then the next page shows the new stock", async () => {
    const before = await page('buyer');
    const item = before.body!.items[0];
    await t
      .db('inventory')
      .where({ store_id: S.central, item_id: await itemId(item.code) })
      .update({ on_hand: 4321 });
    const after = await page('buyer');
    expect(after.body!.items.find((i) => i.code === item.code)!.stock).toBe(4321);
  });

  it("when a listed item's name changes, then the next page shows the new name", async () => {
    const before = await page('buyer');
    const item = before.body!.items[0];
    await t
      .db('items')
      .where({ code: item.code })
      .update({ name: `${item.name} Renamed Vodka` });
    const after = await page('buyer');
    expect(after.body!.items.find((i) => i.code === item.code)!.name).toBe(`${item.name} Renamed Vodka`);
  });

  it('when a listed item leaves the store, then the next page no longer lists it', async () => {
    const before = await page('buyer');
    const item = before.body!.items[0];
    await t
      .db('inventory')
      .where({ store_id: S.central, item_id: await itemId(item.code) })
      .delete();
    const after = await page('buyer');
    expect(after.body!.items.map((i) => i.code)).not.toContain(item.code);
    expect(after.body!.total).toBe(before.body!.total - 1);
  });

  it("when another store's inventory changes, then this store's version is unchanged", async () => {
    const version = async (storeId: number) =>
      (await t.db('catalog_versions').where({ store_id: storeId }).first('version'))?.version ?? '0';
    const central = await version(S.central);
    const other = await version(S.davenport);
    await t.db('inventory').where({ store_id: S.davenport }).update({ on_hand: 7 });
    expect(await version(S.central)).toBe(central);
    expect(Number(await version(S.davenport))).toBeGreaterThan(Number(other));
  });

  it('when a user who does not reach the store asks for a cached page, then 404', async () => {
    expect((await page('buyer')).status).toBe(200);
    expect((await page('otherBuyer')).status).toBe(404);
  });
});

describe('catalog answer kept with the page cache (ETag, 304, coded bodies)', () => {
  const url = () => `/api/v1/stores/${S.central}/products?search=vodka`;
  const auth = (who: 'buyer' | 'otherBuyer' = 'buyer') => `Bearer ${tokenFor(t, fx.users[who])}`;
  // supertest asks for gzip unless told otherwise: these take the page as it is.
  const get = (path = url()) => request(t.app).get(path).set('Accept-Encoding', 'identity');

  it('when a page is asked again with its ETag, then it answers 304 without a body, and 200 with the same body otherwise', async () => {
    const first = await get().set('Authorization', auth());
    expect(first.status).toBe(200);
    expect(first.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const again = await get().set('Authorization', auth()).set('If-None-Match', first.headers.etag);
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    const weak = await get().set('Authorization', auth()).set('If-None-Match', `"other", W/${first.headers.etag}`);
    expect(weak.status).toBe(304);
    const plain = await get().set('Authorization', auth());
    expect(plain.status).toBe(200);
    expect(plain.text).toBe(first.text);
  });

  it('when the caller does not reach the store, then a matching ETag still gets 404', async () => {
    const first = await get().set('Authorization', auth());
    const other = await get().set('Authorization', auth('otherBuyer')).set('If-None-Match', first.headers.etag);
    expect(other.status).toBe(404);
    const anonymous = await get().set('If-None-Match', first.headers.etag);
    expect(anonymous.status).toBe(401);
  });

  it('when the inventory changes, then the old ETag gets 200 with a body equal to a freshly read one', async () => {
    const first = await get().set('Authorization', auth());
    const item = productPageSchema.parse(first.body).items[0];
    await t
      .db('inventory')
      .where({ store_id: S.central, item_id: await itemId(item.code) })
      .update({ on_hand: 777 });
    const after = await get().set('Authorization', auth()).set('If-None-Match', first.headers.etag);
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(productPageSchema.parse(after.body).items.find((i) => i.code === item.code)!.stock).toBe(777);
    // The same page read with the cache emptied: the kept answer is byte for byte what a fresh read gives.
    catalogCacheOf(t.db).clear();
    const fresh = await get().set('Authorization', auth());
    expect(fresh.text).toBe(after.text);
    expect(fresh.headers.etag).toBe(after.headers.etag);
    // And as listProducts (the object) answers it.
    expect(JSON.parse(after.text)).toEqual(
      await listProducts(t.db, (await findPrincipal(t.db, fx.users.buyer.id))!, {
        storeId: S.central,
        search: 'vodka',
        page: 1,
        pageSize: 30,
      }),
    );
  });

  it('when the client accepts brotli or gzip, then the kept coded body decodes to the same JSON, with its own ETag', async () => {
    const plain = await request(t.app).get(`${url()}&pageSize=100`).set('Authorization', auth()).set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [asked, coding, suffix] of [
      ['gzip, deflate, br', 'br', '-br'],
      ['gzip', 'gzip', '-gz'],
    ] as const) {
      const res = await request(t.app)
        .get(`${url()}&pageSize=100`)
        .set('Authorization', auth())
        .set('Accept-Encoding', asked)
        .buffer(true)
        .parse((r, done) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers.etag).toBe(`${plain.headers.etag.slice(0, -1)}${suffix}"`);
      expect((res.body as Buffer).toString('utf8')).toBe(plain.text);
      const again = await request(t.app)
        .get(`${url()}&pageSize=100`)
        .set('Authorization', auth())
        .set('Accept-Encoding', asked)
        .set('If-None-Match', res.headers.etag);
      expect(again.status).toBe(304);
    }
  });
});

describe('catalog input parsed once per distinct query (memoInput)', () => {
  it('when the same query is sent again, then a refused one is refused again and an accepted one answers the same', async () => {
    const get = (query: string) =>
      request(t.app)
        .get(`/api/v1/stores/${S.central}/products?${query}`)
        .set('Authorization', `Bearer ${tokenFor(t, fx.users.buyer)}`);
    for (let i = 0; i < 2; i++) expect((await get('search=vodka&page=0')).status).toBe(400);
    const a = await get('search=vodka&pageSize=2');
    const b = await get('search=vodka&pageSize=2');
    expect(a.status).toBe(200);
    expect(productPageSchema.parse(a.body)).toMatchObject({ page: 1, pageSize: 2 });
    expect(b.body).toEqual(a.body);
  });
});
