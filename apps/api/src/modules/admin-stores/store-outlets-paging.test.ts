import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { seedOtherBoard } from '../boards/admin-org.test-support';

/** A store's Assigned Outlets paged with search (issue 26 §4): GET /admin/stores/{storeId}/outlets?search=&page=&pageSize=. */
describe('GET /admin/stores/{storeId}/outlets paging', () => {
  let t: TestContext;
  let fx: Fixtures;
  let other: Awaited<ReturnType<typeof seedOtherBoard>>;
  let admin: string;
  let manager: string;
  const store = FIXTURE_STORES.cyclone;
  const get = (token: string, query = '') =>
    request(t.app).get(`/api/v1/admin/stores/${store}/outlets${query}`).auth(token, { type: 'bearer' });
  let linkedBefore: number;
  beforeAll(async () => {
    t = await createTestContext();
    fx = await seedFixtures(t.db);
    other = await seedOtherBoard(t.db);
    admin = tokenFor(t, fx.users.admin);
    manager = tokenFor(t, fx.users.manager);
    linkedBefore = (await t.db('store_outlets').where({ store_id: store })).length;
    // 30 more outlets linked to the store: "Paging Bar 01" … "Paging Bar 30", five of them in Ames.
    const rows = await t
      .db('outlets')
      .insert(
        Array.from({ length: 30 }, (_, i) => ({
          outlet_code: `PG-${String(i + 1).padStart(2, '0')}`,
          name: `Paging Bar ${String(i + 1).padStart(2, '0')}`,
          city: i < 5 ? 'AMES' : 'DES MOINES',
          default_store_id: store,
        })),
      )
      .returning('id');
    await t.db('store_outlets').insert(rows.map((r: { id: number }) => ({ store_id: store, outlet_id: r.id })));
  });
  afterAll(() => t.close());

  it('when a page is asked, then that page by name comes with the total of every assigned outlet', async () => {
    const res = await get(admin, '?search=paging%20bar&page=2&pageSize=10');
    expect(res.status).toBe(200);
    expect([res.body.total, res.body.page, res.body.pageSize]).toEqual([30, 2, 10]);
    expect(res.body.items.map((o: { outletName: string }) => o.outletName)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Paging Bar ${String(i + 11).padStart(2, '0')}`),
    );
    const all = await get(admin, '?pageSize=10');
    expect(all.body.total).toBe(30 + linkedBefore);
    expect(all.body.items).toHaveLength(10);
  });

  it('when searching by code or city, then only matches are counted; wildcards are literal', async () => {
    const byCode = await get(admin, '?search=PG-2&pageSize=25');
    expect(byCode.body.total).toBe(10); // PG-20 … PG-29
    const byCity = await get(admin, '?search=ames&pageSize=25');
    expect(byCity.body.items.filter((o: { outletCode: string }) => o.outletCode.startsWith('PG-'))).toHaveLength(5);
    const literal = await get(admin, '?search=%25&pageSize=25');
    expect([literal.status, literal.body.total]).toEqual([200, 0]);
  });

  it('when no pageSize is asked, then every assigned outlet comes in one page (earlier callers)', async () => {
    const res = await get(admin);
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(30 + linkedBefore);
    expect(res.body.total).toBe(30 + linkedBefore);
  });

  it('when the page size is out of range or a key unknown, then 400; a store out of scope is 404', async () => {
    expect((await get(admin, '?pageSize=500')).status).toBe(400);
    expect((await get(admin, '?page=0&pageSize=10')).status).toBe(400);
    expect((await get(admin, '?sort=name')).status).toBe(400);
    const out = await request(t.app).get(`/api/v1/admin/stores/${other.storeId}/outlets?pageSize=10`).auth(manager, { type: 'bearer' });
    expect(out.status).toBe(404);
  });
});
