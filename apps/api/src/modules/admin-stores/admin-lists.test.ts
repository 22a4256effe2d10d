import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { createUserWithRole, seedOtherBoard } from '../boards/admin-org.test-support';

/**
 * Administration at scale (ARCHITECTURE §5, issue 26): the stores, outlets and items lists' sorts, filters,
 * paging and totals, and PATCH /admin/stores/bulk through the single store edit (scope per store, one
 * audit entry per store, an empty list refused).
 */
let t: TestContext;
let fx: Fixtures;
let other: Awaited<ReturnType<typeof seedOtherBoard>>;
let admin: string;
let boardAdmin: string;
let manager: string;
const get = (path: string, token: string) => request(t.app).get(`/api/v1${path}`).auth(token, { type: 'bearer' });
const patch = (path: string, token: string, body: object) =>
  request(t.app).patch(`/api/v1${path}`).auth(token, { type: 'bearer' }).send(body);
type Row = Record<string, unknown>;
const col = (res: request.Response, key: string) => (res.body.items as Row[]).map((r) => r[key]);
const sorted = <T>(xs: T[], cmp: (a: T, b: T) => number) => [...xs].sort(cmp);
const byText = (a: unknown, b: unknown) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  other = await seedOtherBoard(t.db);
  admin = tokenFor(t, fx.users.admin);
  manager = tokenFor(t, fx.users.manager);
  boardAdmin = tokenFor(t, await createUserWithRole(t.db, 'board-admin@example.com', 'board_admin', [fx.outlets.dsm]));
});
afterAll(() => t.close());

describe('GET /admin/stores', () => {
  it('filters by delivery, board, active and credentials, sorts by name both ways, pages with the total', async () => {
    const all = await t.db('stores').select('id', 'name', 'delivery_enabled', 'active', 'board_id');
    const delivering = all.filter((s) => s.delivery_enabled);
    const on = await get('/admin/stores?deliveryEnabled=true&sort=name&page=1&pageSize=100', admin);
    expect(on.status).toBe(200);
    expect(on.body.total).toBe(delivering.length);
    expect(on.body.items.every((s: { deliveryEnabled: boolean }) => s.deliveryEnabled)).toBe(true);
    expect(col(on, 'name')).toEqual(
      sorted(
        delivering.map((s) => s.name),
        byText,
      ),
    );
    const p2 = await get('/admin/stores?sort=name&page=2&pageSize=2', admin);
    expect(p2.body).toMatchObject({ page: 2, pageSize: 2, total: all.length });
    expect(col(p2, 'name')).toEqual(
      sorted(
        all.map((s) => s.name),
        byText,
      ).slice(2, 4),
    );
    const desc = await get('/admin/stores?sort=-name&pageSize=100', admin);
    expect(col(desc, 'name')).toEqual(
      sorted(
        all.map((s) => s.name),
        byText,
      ).reverse(),
    );
    const board = await get(`/admin/stores?boardId=${other.boardId}`, admin);
    expect(col(board, 'id')).toEqual([other.storeId]);
    const inactive = await get('/admin/stores?active=false&pageSize=100', admin);
    expect(col(inactive, 'id')).toEqual(all.filter((s) => !s.active).map((s) => s.id));
    const noCreds = await get('/admin/stores?hasCredentials=false&pageSize=100', admin);
    const withCreds = new Set((await t.db('payment_credentials').distinct('store_id')).map((r) => r.store_id));
    expect(noCreds.body.total).toBe(all.filter((s) => !withCreds.has(s.id)).length);
    const byId = await get('/admin/stores?sort=-id&pageSize=1', admin);
    expect(col(byId, 'id')).toEqual([Math.max(...all.map((s) => s.id))]);
  });

  it('answers the ids of every store matching the filters (select all N matching)', async () => {
    const res = await get('/admin/stores/ids?deliveryEnabled=false', admin);
    expect(res.status).toBe(200);
    const expected = (await t.db('stores').where({ delivery_enabled: false }).orderBy('id').select('id')).map((r) => r.id);
    expect(res.body).toEqual({ ids: expected, total: expected.length, truncated: false });
    const mine = await get('/admin/stores/ids', manager);
    expect(mine.body.ids).not.toContain(other.storeId);
    expect((await get('/admin/stores/ids?page=2', admin)).status).toBe(400);
  });

  it('refuses an unknown sort or filter value', async () => {
    expect((await get('/admin/stores?sort=secret', admin)).status).toBe(400);
    expect((await get('/admin/stores?deliveryEnabled=maybe', admin)).status).toBe(400);
  });
});

describe('GET /admin/outlets and /admin/items', () => {
  it('outlets: search, sort by name descending, board, store and active filters, total', async () => {
    const all = await t.db('outlets').select('id', 'name', 'board_id', 'active');
    const desc = await get('/admin/outlets?sort=-name&pageSize=100', admin);
    expect(desc.status).toBe(200);
    expect(desc.body.total).toBe(all.length);
    expect(col(desc, 'name')).toEqual(
      sorted(
        all.map((o) => o.name),
        byText,
      ).reverse(),
    );
    const board = await get(`/admin/outlets?boardId=${other.boardId}`, admin);
    expect(col(board, 'id')).toEqual([other.outletId]);
    const linked = (await t.db('store_outlets').where({ store_id: FIXTURE_STORES.central }).select('outlet_id')).map((r) => r.outlet_id);
    const store = await get(`/admin/outlets?storeId=${FIXTURE_STORES.central}&sort=id&pageSize=100`, admin);
    expect(col(store, 'id')).toEqual([...linked].sort((a, b) => a - b));
    const inactive = await get('/admin/outlets?active=false&pageSize=100', admin);
    expect(inactive.body.total).toBe(all.filter((o) => !o.active).length);
    const search = await get('/admin/outlets?search=other-01', admin);
    expect(col(search, 'id')).toEqual([other.outletId]);
  });

  it('items: sort by retail descending, category and bottle size filters, total', async () => {
    const res = await get('/admin/items?sort=-retail&pageSize=5', admin);
    expect(res.status).toBe(200);
    const prices = col(res, 'retail').map(Number);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    const top = await t.db('items').max<{ m: string }[]>('retail as m');
    expect(prices[0]).toBe(Number(top[0].m));
    const category = String((await t.db('items').whereNotNull('category').first('category'))!.category);
    const cat = await get(`/admin/items?category=${encodeURIComponent(category)}&pageSize=100`, admin);
    const expected = await t.db('items').whereRaw('lower(category) = lower(?)', [category]).count<{ n: string }[]>('* as n');
    expect(cat.body.total).toBe(Number(expected[0].n));
    expect(cat.body.items.every((i: { category: string }) => i.category.toLowerCase() === category.toLowerCase())).toBe(true);
    const size = await t.db('items as i').join('bottle_sizes as bs', 'bs.id', 'i.bottle_size_id').first('bs.volume_ml', 'bs.name');
    const bySize = await get(`/admin/items?bottleSizeMl=${size!.volume_ml}&pageSize=100`, admin);
    expect(bySize.body.total).toBeGreaterThan(0);
    expect(bySize.body.items.every((i: { bottleSize: string }) => i.bottleSize === size!.name)).toBe(true);
    expect((await get('/admin/items?sort=cost', admin)).status).toBe(400);
  });
});

describe('PATCH /admin/stores/bulk', () => {
  const row = (id: number) => t.db('stores').where({ id }).first('delivery_charge', 'delivery_enabled', 'orderconf_ccemails');
  const audits = (id: number) => t.db('audit_log').where({ action: 'store.updated', entity_id: String(id) });

  it('changes each store through the single edit, one audit entry per store', async () => {
    const ids = [FIXTURE_STORES.central, FIXTURE_STORES.cyclone];
    const before = await Promise.all(ids.map(async (id) => (await audits(id)).length));
    const res = await patch('/admin/stores/bulk', admin, {
      storeIds: ids,
      deliveryEnabled: true,
      deliveryCharge: '7.5',
      orderconfCcemails: 'cc@example.com',
    });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual(ids.map((storeId) => ({ storeId, ok: true })));
    for (const id of ids)
      expect(await row(id)).toMatchObject({ delivery_enabled: true, delivery_charge: '7.50', orderconf_ccemails: 'cc@example.com' });
    const after = await Promise.all(ids.map(async (id) => (await audits(id)).length));
    expect(after).toEqual(before.map((n) => n + 1));
  });

  it('sets the ordering calendar, delivery minimum and split-case policy of many stores (issues 27, 28)', async () => {
    const ids = [FIXTURE_STORES.central, FIXTURE_STORES.cyclone];
    const res = await patch('/admin/stores/bulk', admin, {
      storeIds: ids,
      orderDays: [2, 4],
      cutoffLocalTime: '11:00',
      deliveryMinimumMl: 9000,
      emergencyAllowance: 6,
      splitCasePolicy: 'full_cases',
    });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual(ids.map((storeId) => ({ storeId, ok: true })));
    for (const id of ids) {
      const store = (await get(`/admin/stores/${id}`, admin)).body;
      expect(store).toMatchObject({
        orderDays: [2, 4],
        cutoffLocalTime: '11:00',
        deliveryMinimumMl: 9000,
        emergencyAllowance: 6,
        splitCasePolicy: 'full_cases',
      });
    }
    // A bad value refuses the whole call before any store changes.
    expect((await patch('/admin/stores/bulk', admin, { storeIds: ids, orderDays: [] })).status).toBe(400);
    expect((await patch('/admin/stores/bulk', admin, { storeIds: ids, deliveryMinimumMl: -1 })).status).toBe(400);
  });

  it("refuses per store a store out of the caller's scope and an unknown one", async () => {
    // The store manager's role may edit stores here (at their stores 2190 and 4129 only: a store grant).
    const role = (await t.db('roles').where({ code: 'store_manager' }).first('id'))!.id;
    const perm = (await t.db('permissions').where({ code: 'bcc.stores.super_admin' }).first('id'))!.id;
    await t.db('role_permissions').insert({ role_id: role, permission_id: perm });
    const before = await row(other.storeId);
    const res = await patch('/admin/stores/bulk', manager, {
      storeIds: [FIXTURE_STORES.central, other.storeId, 999999],
      deliveryEnabled: false,
    });
    await t.db('role_permissions').where({ role_id: role, permission_id: perm }).delete();
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { ok: boolean; code?: string }) => [r.ok, r.code ?? null])).toEqual([
      [true, null],
      [false, 'not_found'],
      [false, 'not_found'],
    ]);
    expect(await row(other.storeId)).toEqual(before);
  });

  it('refuses an empty list, no setting, an invalid charge, and a store manager without the edit permission', async () => {
    expect((await patch('/admin/stores/bulk', admin, { storeIds: [], deliveryEnabled: true })).status).toBe(400);
    expect((await patch('/admin/stores/bulk', admin, { storeIds: [FIXTURE_STORES.central] })).status).toBe(400);
    expect((await patch('/admin/stores/bulk', admin, { storeIds: [FIXTURE_STORES.central], deliveryCharge: '-3' })).status).toBe(400);
    expect((await patch('/admin/stores/bulk', manager, { storeIds: [FIXTURE_STORES.central], deliveryEnabled: true })).status).toBe(403);
    expect((await patch('/admin/stores/bulk', boardAdmin, { storeIds: [FIXTURE_STORES.central], deliveryEnabled: true })).status).toBe(403);
  });
});
