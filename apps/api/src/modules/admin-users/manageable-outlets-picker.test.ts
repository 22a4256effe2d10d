import { createTestContext, type TestContext } from '../../test/harness';
import { seedFixtures, type Fixtures } from '../../test/fixtures';
import { apiClient, makeUser, problemCode, type TestUser } from './test-support';

/**
 * Edit User's outlet picker that scales (issue 26 §4): GET /admin/users/{userId}/manageable-outlets with search,
 * assigned=true and limit, and "User not found" (404) for a malformed id as for a missing one.
 */
let t: TestContext;
let f: Fixtures;
let api: ReturnType<typeof apiClient>;
let user: TestUser;
beforeAll(async () => {
  t = await createTestContext();
  f = await seedFixtures(t.db);
  api = apiClient(t);
  await t.db('outlets').insert(
    Array.from({ length: 40 }, (_, i) => ({
      outlet_code: `PICK-${String(i).padStart(2, '0')}`,
      name: `Picker Pub ${String(i).padStart(2, '0')}`,
    })),
  );
  user = await makeUser(t, 'picked@example.com', 'outlet_buyer', [f.outlets.dsm, f.outlets.dav], ['Pick', 'Ed']);
});
afterAll(() => t.close());

describe('GET /admin/users/{userId}/manageable-outlets for pickers', () => {
  it('when searching with a limit, then the first matches by name come with the total of matches', async () => {
    const res = await api('get', `/admin/users/${user.id}/manageable-outlets?search=picker%20pub&limit=5`, f.users.admin);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(40);
    expect(res.body.items.map((o: { outletCode: string }) => o.outletCode)).toEqual([
      'PICK-00',
      'PICK-01',
      'PICK-02',
      'PICK-03',
      'PICK-04',
    ]);
    const byCode = await api('get', `/admin/users/${user.id}/manageable-outlets?search=pick-3&limit=20`, f.users.admin);
    expect(byCode.body.total).toBe(10);
  });

  it("when assigned=true, then only the user's own outlets, with canManage as the caller's reach says", async () => {
    const res = await api('get', `/admin/users/${user.id}/manageable-outlets?assigned=true`, f.users.manager);
    expect(res.status).toBe(200);
    expect(res.body.items.map((o: { outletId: number }) => o.outletId).sort()).toEqual([f.outlets.dsm, f.outlets.dav].sort());
    expect(res.body.items.find((o: { outletId: number }) => o.outletId === f.outlets.dav).canManage).toBe(false);
    expect(res.body.total).toBe(2);
  });

  it('when a store manager searches, then outlets out of reach are not offered', async () => {
    const res = await api('get', `/admin/users/${user.id}/manageable-outlets?search=picker&limit=10`, f.users.manager);
    expect([res.status, res.body.total]).toEqual([200, 0]);
  });

  it('when the limit is out of range or a key unknown, then 400', async () => {
    expect((await api('get', `/admin/users/${user.id}/manageable-outlets?limit=1000`, f.users.admin)).status).toBe(400);
    expect((await api('get', `/admin/users/${user.id}/manageable-outlets?page=2`, f.users.admin)).status).toBe(400);
  });

  it('when the id is malformed or missing, then 404 "User not found" on every Edit User read', async () => {
    for (const path of ['not-a-uuid', '00000000-0000-4000-8000-000000000000', "x'%20OR%201=1"]) {
      for (const tail of ['', '/manageable-outlets', '/assignable-roles']) {
        const res = await api('get', `/admin/users/${path}${tail}`, f.users.admin);
        expect([res.status, problemCode(res), res.body.detail]).toEqual([404, 'not_found', 'User not found']);
      }
    }
  });

  it('when a buyer asks, then 403', async () => {
    expect((await api('get', `/admin/users/${user.id}/manageable-outlets?search=pub`, f.users.buyer)).status).toBe(403);
  });
});
