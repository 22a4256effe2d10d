import request from 'supertest';
import { productPageSchema } from '@portal/contracts';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';

/**
 * The catalog's page cache (issue 29 §2, catalog-cache.ts): a page is answered from the cache only while the
 * catalog version it was read under is unchanged (catalog_versions, bumped by triggers on inventory, items
 * and bottle_sizes), and the caller's reach is checked on every request.
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
