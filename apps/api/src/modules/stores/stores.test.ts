import { productPageSchema, productSchema, storeDetailSchema } from '@portal/contracts';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { as, problem } from '../../test/http';

/** The catalog's principal cache (CATALOG_PRINCIPAL_CACHE_MS, 2 s in production), short here so the test waits little. */
const PRINCIPAL_CACHE_MS = 200;
let t: TestContext;
let fx: Fixtures;
let buyer: string;
const S = FIXTURE_STORES;

beforeAll(async () => {
  t = await createTestContext({ env: { CATALOG_PRINCIPAL_CACHE_MS: String(PRINCIPAL_CACHE_MS) } });
  fx = await seedFixtures(t.db);
  buyer = tokenFor(t, fx.users.buyer);
});
afterAll(async () => {
  await t.close();
});

const get = (path: string, token: string | null = buyer) => as(t.app, token).get(path);
const sizeId = async (volumeMl: number) => (await t.db('bottle_sizes').where({ volume_ml: volumeMl }).first('id'))!.id as number;

describe('GET /stores/{storeId}', () => {
  it('when the buyer asks for a store of their outlet, then it answers the address, phone and delivery settings', async () => {
    const res = await get(`/stores/${S.central}`);
    expect(res.status).toBe(200);
    expect(storeDetailSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({
      id: 2190,
      warehouseId: 2190,
      name: 'CENTRAL CITY LIQUOR, INC.',
      warehouseCode: 'IA-2190',
      address: '1460 2ND AVE',
      city: 'DES MOINES',
      state: 'IA',
      zipCode: '50314',
      phone: '(515) 555-0100',
      boardNumber: 1,
      active: true,
      deliveryEnabled: true,
      deliveryCharge: '15.00',
    });
  });

  it('when the store has delivery disabled, then deliveryEnabled is false with charge 0.00', async () => {
    const res = await get(`/stores/${S.cyclone}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 4129, deliveryEnabled: false, deliveryCharge: '0.00' });
  });

  it.each([
    ['a store of another outlet only (Davenport)', S.davenport],
    ['an inactive store linked to the outlet', S.inactive],
    ['a store that does not exist', 999999],
  ])('when the buyer asks for %s, then it answers 404 not_found', async (_what, id) => {
    const res = await get(`/stores/${id}`);
    expect(res.status).toBe(404);
    expect(problem(res)).toMatchObject({ status: 404, code: 'not_found', detail: 'Store not found' });
  });

  it('when the store id is not a number, then it answers 400 validation_failed', async () => {
    const res = await get('/stores/abc');
    expect(res.status).toBe(400);
    expect(problem(res).code).toBe('validation_failed');
  });

  it('when nobody is signed in, then it answers 401', async () => {
    const res = await get(`/stores/${S.central}`, null);
    expect(res.status).toBe(401);
    expect(problem(res).code).toBe('unauthenticated');
  });

  it('when the user lacks bcc.carts.use, then it answers 403 forbidden', async () => {
    const res = await get(`/stores/${S.central}`, tokenFor(t, fx.users.noRoles));
    expect(res.status).toBe(403);
    expect(problem(res).code).toBe('forbidden');
  });

  it('when the user is deactivated, then a still-valid token answers 401', async () => {
    const res = await get(`/stores/${S.central}`, tokenFor(t, fx.users.inactive));
    expect(res.status).toBe(401);
  });
});

describe('GET /stores/{storeId}/products', () => {
  it('when no search is given, then the first page holds 30 products by name with the store total', async () => {
    const res = await get(`/stores/${S.central}/products`);
    expect(res.status).toBe(200);
    expect(productPageSchema.parse(res.body)).toEqual(res.body);
    const { n } = (await t.db('inventory').where({ store_id: S.central }).count<{ n: number }[]>('* as n'))[0];
    expect(res.body).toMatchObject({ page: 1, pageSize: 30, total: Number(n) });
    expect(res.body.total).toBe(64);
    expect(res.body.items).toHaveLength(30);
    const names = res.body.items.map((p: { name: string }) => p.name);
    expect(names).toEqual([...names].sort());
  });

  it('when every page is read, then the pages hold each product exactly once and the last page is short', async () => {
    const pages = await Promise.all([1, 2, 3].map((p) => get(`/stores/${S.central}/products?page=${p}&pageSize=30`)));
    expect(pages.map((r) => r.body.items.length)).toEqual([30, 30, 4]);
    expect(pages.every((r) => r.body.total === 64)).toBe(true);
    const codes = pages.flatMap((r) => r.body.items.map((p: { code: string }) => p.code));
    expect(new Set(codes).size).toBe(64);
    const db = await t.db('inventory as inv').join('items as i', 'i.id', 'inv.item_id').where('inv.store_id', S.central).pluck('i.code');
    expect(new Set(codes)).toEqual(new Set(db));
  });

  it('when a page past the end is asked, then it is empty and still carries the total', async () => {
    const res = await get(`/stores/${S.central}/products?page=4&pageSize=30`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], page: 4, pageSize: 30, total: 64 });
  });

  it('when a product is listed, then it carries code, name, category, price string, size, volume, pack and stock', async () => {
    const res = await get(`/stores/${S.central}/products?search=34006`);
    expect(res.body.items[0]).toEqual({
      code: '34006',
      name: 'ABSOLUT SWEDISH VODKA 80PRF',
      category: 'IMPORTED VODKAS',
      price: '14.99',
      bottleSizeId: await sizeId(750),
      bottleSize: '750 ml',
      volumeMl: 750,
      bottlesPerCase: 12,
      stock: null,
      quantityRule: { min: 1, max: null, increment: 1 },
    });
  });

  it('when searching "vodka" in any case, then only products with vodka in the name are found', async () => {
    for (const q of ['vodka', 'VoDkA']) {
      const res = await get(`/stores/${S.central}/products?search=${q}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(8);
      expect(res.body.items.every((p: { name: string }) => /vodka/i.test(p.name))).toBe(true);
    }
  });

  it('when searching several words, then names holding the words in that order are found', async () => {
    const res = await get(`/stores/${S.central}/products?search=${encodeURIComponent('absolut   vodka')}`);
    expect(res.body.total).toBe(6);
    expect(res.body.items.every((p: { name: string }) => p.name.startsWith('ABSOLUT SWEDISH VODKA'))).toBe(true);
  });

  it('when searching by a code prefix, then the items whose code starts with it are found', async () => {
    const res = await get(`/stores/${S.central}/products?search=3400`);
    // Same rank and similarity: by name, so the MINI (34001) sorts after the plain name.
    expect(res.body.items.map((p: { code: string }) => p.code)).toEqual(['34003', '34004', '34006', '34007', '34008', '34001']);
  });

  describe('ranking', () => {
    beforeAll(async () => {
      // Two extra items of store 2190 whose names sort last/first, to prove rank beats alphabetical order.
      const board = (await t.db('stores').where({ id: S.central }).first('board_id'))!.board_id;
      const items = await t
        .db('items')
        .insert([
          { board_id: board, code: '1000', name: 'ZZ TEST ITEM NAMED AFTER NOTHING', retail: '1.00', bottles_per_case: 1 },
          { board_id: board, code: '999001', name: 'VODKA SELTZER TEST', retail: '2.00', bottles_per_case: 24 },
        ])
        .returning('id');
      await t.db('inventory').insert(items.map((i: { id: number }) => ({ store_id: S.central, item_id: i.id })));
    });
    afterAll(async () => {
      await t.db('items').whereIn('code', ['1000', '999001']).del();
    });

    it('when the search is an exact item code, then that item comes first, then the code-prefix matches', async () => {
      const res = await get(`/stores/${S.central}/products?search=1000`);
      expect(res.status).toBe(200);
      expect(res.body.items.map((p: { code: string }) => p.code)).toEqual(['1000', '10006', '10008']);
    });

    it('when a name starts with the search, then it comes before names that only contain it', async () => {
      const res = await get(`/stores/${S.central}/products?search=vodka`);
      expect(res.body.total).toBe(9);
      expect(res.body.items[0].name).toBe('VODKA SELTZER TEST');
      // Then the names containing the phrase, most similar (shortest) first.
      expect(res.body.items[1].name).toBe('SWELL VODKA');
    });
  });

  it('when filtering by size, then only that bottle size is listed and the total counts them', async () => {
    const id = await sizeId(750);
    const res = await get(`/stores/${S.central}/products?size=${id}&pageSize=100`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(35);
    expect(res.body.items).toHaveLength(35);
    expect(
      res.body.items.every((p: { bottleSizeId: number; bottleSize: string }) => p.bottleSizeId === id && p.bottleSize === '750 ml'),
    ).toBe(true);
  });

  it('when filtering by size and searching, then both apply', async () => {
    const res = await get(`/stores/${S.central}/products?size=${await sizeId(750)}&search=absolut`);
    expect(res.body.items.map((p: { code: string }) => p.code).sort()).toEqual([
      '33467',
      '34006',
      '34014',
      '34026',
      '34030',
      '34036',
      '34052',
      '34076',
      '34116',
    ]);
  });

  it('when search and size are empty strings, then they count as absent', async () => {
    const res = await get(`/stores/${S.central}/products?search=&size=`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(64);
  });

  it('when the search holds LIKE wildcards or SQL, then they match literally and nothing breaks', async () => {
    for (const q of ['%', '_', "'; DROP TABLE items; --", '\\']) {
      const res = await get(`/stores/${S.central}/products?search=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ items: [], total: 0 });
    }
    expect(Number((await t.db('items').count<{ n: number }[]>('* as n'))[0].n)).toBeGreaterThan(80);
  });

  it('when pageSize is 100, then it is accepted; over 100, then 400 names the limit', async () => {
    expect((await get(`/stores/${S.central}/products?pageSize=100`)).body.items).toHaveLength(64);
    const res = await get(`/stores/${S.central}/products?pageSize=101`);
    expect(res.status).toBe(400);
    expect(problem(res)).toMatchObject({ code: 'validation_failed', detail: 'pageSize must be a whole number from 1 to 100' });
    expect(problem(res).errors[0].path).toBe('pageSize');
  });

  it.each([
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['pageSize=0', 'pageSize'],
    ['pageSize=1.5', 'pageSize'],
    ['size=abc', 'size'],
    ['color=red', ''],
  ])('when the query has %s, then it answers 400 validation_failed', async (qs, path) => {
    const res = await get(`/stores/${S.central}/products?${qs}`);
    expect(res.status).toBe(400);
    expect(problem(res).code).toBe('validation_failed');
    expect(problem(res).errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('when an item is inactive, then the store no longer lists it', async () => {
    await t.db('items').where({ code: '34188' }).update({ active: false });
    try {
      const res = await get(`/stores/${S.central}/products?search=effen`);
      expect(res.body.total).toBe(0);
      expect((await get(`/stores/${S.central}/products/34188`)).status).toBe(404);
    } finally {
      await t.db('items').where({ code: '34188' }).update({ active: true });
    }
  });

  it('when an item has no category and no bottle size, then it shows Uncategorized and Unknown Size', async () => {
    const before = await t.db('items').where({ code: '34188' }).first('category', 'bottle_size_id');
    await t.db('items').where({ code: '34188' }).update({ category: null, bottle_size_id: null });
    try {
      const res = await get(`/stores/${S.central}/products?search=34188`);
      expect(res.body.items[0]).toMatchObject({
        code: '34188',
        category: 'Uncategorized',
        bottleSize: 'Unknown Size',
        bottleSizeId: null,
        volumeMl: null,
      });
    } finally {
      await t.db('items').where({ code: '34188' }).update(before!);
    }
  });

  it('when the bottle size is the unknown size (0 ml), then volumeMl is null', async () => {
    const [unknown] = await t
      .db('bottle_sizes')
      .insert({ name: 'Unknown Size', volume_ml: 0 })
      .onConflict('volume_ml')
      .merge()
      .returning('id');
    const before = await t.db('items').where({ code: '34188' }).first('bottle_size_id');
    await t.db('items').where({ code: '34188' }).update({ bottle_size_id: unknown.id });
    try {
      const res = await get(`/stores/${S.central}/products/34188`);
      expect(res.body).toMatchObject({ bottleSizeId: unknown.id, bottleSize: 'Unknown Size', volumeMl: null });
    } finally {
      await t.db('items').where({ code: '34188' }).update(before!);
    }
  });

  it('when the buyer cannot reach the store, then the catalog answers 404', async () => {
    for (const id of [S.davenport, S.inactive, 999999]) {
      const res = await get(`/stores/${id}/products?search=vodka`);
      expect(res.status).toBe(404);
      expect(problem(res).code).toBe('not_found');
    }
  });

  it("when another outlet's buyer asks for their own store, then it is listed for them", async () => {
    const res = await get(`/stores/${S.davenport}/products`, tokenFor(t, fx.users.otherBuyer));
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(70);
  });

  it('when the user lacks bcc.carts.use or is not signed in, then 403 and 401', async () => {
    expect((await get(`/stores/${S.central}/products`, tokenFor(t, fx.users.noRoles))).status).toBe(403);
    expect((await get(`/stores/${S.central}/products`, null)).status).toBe(401);
    expect((await get(`/stores/${S.central}/products`, 'not-a-jwt')).status).toBe(401);
  });
});

describe('GET /stores/{storeId}/products/{code}', () => {
  it('when the store carries the code, then it answers that product', async () => {
    const res = await get(`/stores/${S.central}/products/34006`);
    expect(res.status).toBe(200);
    expect(productSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({ code: '34006', price: '14.99', bottleSize: '750 ml' });
  });

  it('when the code exists but this store does not carry it, then 404', async () => {
    const other = await t
      .db('inventory as inv')
      .join('items as i', 'i.id', 'inv.item_id')
      .where('inv.store_id', S.cyclone)
      .whereNotIn('inv.item_id', t.db('inventory').where('store_id', S.central).select('item_id'))
      .first('i.code');
    const res = await get(`/stores/${S.central}/products/${other.code}`);
    expect(res.status).toBe(404);
    expect(problem(res).code).toBe('not_found');
  });

  it('when the code is unknown or the store unreachable, then 404', async () => {
    expect((await get(`/stores/${S.central}/products/NO-SUCH-CODE`)).status).toBe(404);
    expect((await get(`/stores/${S.davenport}/products/34006`)).status).toBe(404);
  });
});

describe('GET /stores/{storeId}/bottle-sizes', () => {
  it('when asked, then it lists the sizes the store carries, smallest first', async () => {
    const res = await get(`/stores/${S.central}/bottle-sizes`);
    expect(res.status).toBe(200);
    const volumes = res.body.items.map((s: { volumeMl: number }) => s.volumeMl);
    expect(volumes).toEqual([20, 50, 100, 200, 375, 600, 700, 750, 800, 900, 1000, 1200, 1750, 5250]);
    expect(res.body.items).toContainEqual({ id: await sizeId(1750), name: '1.75 L', volumeMl: 1750 });
  });

  it('when the store is not reachable or the user lacks the permission, then 404 and 403', async () => {
    expect((await get(`/stores/${S.davenport}/bottle-sizes`)).status).toBe(404);
    expect((await get(`/stores/${S.central}/bottle-sizes`, tokenFor(t, fx.users.noRoles))).status).toBe(403);
  });
});

describe('permission cache and search indexes', () => {
  it('when a user loses bcc.carts.use, then the catalog refuses them within CATALOG_PRINCIPAL_CACHE_MS (permissions are reused at most that long)', async () => {
    const [u] = await t.db('users').insert({ email: 'revoked@example.com', password_hash: 'x' }).returning('id');
    const role = await t.db('roles').where({ code: 'outlet_buyer' }).first('id');
    await t.db('role_grants').insert({ user_id: u.id, role_id: role!.id, scope_type: 'outlet', outlet_id: fx.outlets.dsm });
    const token = tokenFor(t, { id: u.id, email: 'revoked@example.com' });
    expect((await get(`/stores/${S.central}/products`, token)).status).toBe(200);
    await t.db('role_grants').where({ user_id: u.id }).del();
    await new Promise((ok) => setTimeout(ok, PRINCIPAL_CACHE_MS + 100));
    const res = await get(`/stores/${S.central}/products`, token);
    expect(res.status).toBe(403);
    // Reach is never cached: with the role back at an outlet of another store only, this store answers 404;
    // back at the Des Moines outlet it answers at once.
    await t.db('role_grants').insert({ user_id: u.id, role_id: role!.id, scope_type: 'outlet', outlet_id: fx.outlets.dav });
    await new Promise((ok) => setTimeout(ok, PRINCIPAL_CACHE_MS + 100));
    expect((await get(`/stores/${S.central}/products`, token)).status).toBe(404);
    await t.db('role_grants').insert({ user_id: u.id, role_id: role!.id, scope_type: 'outlet', outlet_id: fx.outlets.dsm });
    expect((await get(`/stores/${S.central}/products`, token)).status).toBe(200);
    await t.db('role_grants').where({ user_id: u.id, outlet_id: fx.outlets.dsm }).del();
    expect((await get(`/stores/${S.central}/products`, token)).status).toBe(404);
  });

  it('when the schema is migrated, then the trigram indexes write through (fastupdate off)', async () => {
    const rows = await t.db('pg_class').whereIn('relname', ['items_name_trgm', 'items_code_trgm']).select('relname', 'reloptions');
    expect(rows).toHaveLength(2);
    expect(rows.every((r: { reloptions: string[] }) => r.reloptions.includes('fastupdate=off'))).toBe(true);
  });
});

describe('OpenAPI', () => {
  it('when the document is read, then every store route is described', async () => {
    const res = await as(t.app, null).get('/openapi.json');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/stores/{storeId}',
        '/api/v1/stores/{storeId}/products',
        '/api/v1/stores/{storeId}/products/{code}',
        '/api/v1/stores/{storeId}/bottle-sizes',
      ]),
    );
  });
});
