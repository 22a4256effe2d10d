import { ALL_PERMISSION_CODES, ADMIN_USER_MESSAGES as M } from '@portal/contracts';
import { createTestContext, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { adminAuditCount, apiClient, makeUser, problemCode as code, type TestUser } from '../admin-users/test-support';

/** Roles and permissions (spec 002 Roles tab; ARCHITECTURE §9 the immutable super_admin role). */

/** The catalog's principal cache (CATALOG_PRINCIPAL_CACHE_MS, 2 s in production), short here so the test waits little. */
const PRINCIPAL_CACHE_MS = 200;
let t: TestContext;
let f: Fixtures;
let api: ReturnType<typeof apiClient>;
let boardAdmin: TestUser;
let roleIds: Record<string, number>;
beforeAll(async () => {
  t = await createTestContext({ env: { CATALOG_PRINCIPAL_CACHE_MS: String(PRINCIPAL_CACHE_MS) } });
  f = await seedFixtures(t.db);
  api = apiClient(t);
  roleIds = Object.fromEntries((await t.db('roles').select('id', 'code')).map((r) => [r.code, r.id]));
  boardAdmin = await makeUser(t, 'board-admin@example.com', 'board_admin', [f.outlets.dsm]);
});
afterAll(async () => {
  await t.close();
});

const granted = async (roleCode: string, perm: string) =>
  Boolean(
    await t
      .db('role_permissions as rp')
      .join('roles as r', 'r.id', 'rp.role_id')
      .join('permissions as p', 'p.id', 'rp.permission_id')
      .where({ 'r.code': roleCode, 'p.code': perm })
      .first('rp.role_id'),
  );
const wait = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

describe('GET /admin/roles and /admin/permissions', () => {
  it('when the super administrator reads them, then every role comes by level with its codes and holders; super_admin is immutable', async () => {
    const res = await api('get', '/admin/roles', f.users.admin);
    expect(res.status).toBe(200);
    expect(res.body.items.map((r: { code: string }) => r.code)).toEqual([
      'super_admin',
      'board_admin',
      'store_manager',
      'store_staff',
      'outlet_manager',
      'outlet_buyer',
      'outlet_viewer',
    ]);
    const sa = res.body.items[0];
    expect(sa).toMatchObject({ id: roleIds.super_admin, name: 'Super Administrator', level: 0, immutable: true, userCount: 1 });
    expect([...sa.permissions].sort()).toEqual([...ALL_PERMISSION_CODES].sort());
    const viewer = res.body.items.find((r: { code: string }) => r.code === 'outlet_viewer');
    const db = (
      await t
        .db('role_permissions as rp')
        .join('permissions as p', 'p.id', 'rp.permission_id')
        .where('rp.role_id', roleIds.outlet_viewer)
        .orderBy('p.code')
        .select('p.code')
    ).map((r) => r.code);
    expect(viewer).toMatchObject({ immutable: false, permissions: db });
    const perms = await api('get', '/admin/permissions', f.users.admin);
    expect(perms.body.items.map((p: { code: string }) => p.code)).toEqual([...ALL_PERMISSION_CODES].sort());
  });

  it('when a board administrator (assigns roles) reads roles, then 200; a buyer or a store manager, 403', async () => {
    expect((await api('get', '/admin/roles', boardAdmin)).status).toBe(200);
    for (const u of [f.users.buyer, f.users.manager]) expect((await api('get', '/admin/roles', u)).status).toBe(403);
  });
});

describe('PUT|DELETE /admin/roles/{roleId}/permissions/{code}', () => {
  it("when the super administrator grants, then revokes, a permission, then the role's holders have it on their next request, and each change is audited once", async () => {
    const before = await adminAuditCount(t);
    // The role audit rows written from here on (another test of this file edits a role too).
    const lastId = ((await t.db('audit_log').max('id as id').first()) as { id: number } | undefined)?.id ?? 0;
    const perm = (u: TestUser) => api('get', '/me/permissions/bcc.carts.checkout', u);
    expect((await perm(f.users.viewer)).body.granted).toBe(false);
    const g = await api('put', `/admin/roles/${roleIds.outlet_viewer}/permissions/bcc.carts.checkout`, f.users.admin);
    expect(g.status).toBe(200);
    expect(g.body.permissions).toContain('bcc.carts.checkout');
    expect(await granted('outlet_viewer', 'bcc.carts.checkout')).toBe(true);
    expect((await perm(f.users.viewer)).body.granted).toBe(true);
    // Granting again changes nothing and writes no row.
    expect((await api('put', `/admin/roles/${roleIds.outlet_viewer}/permissions/bcc.carts.checkout`, f.users.admin)).status).toBe(200);
    const r = await api('delete', `/admin/roles/${roleIds.outlet_viewer}/permissions/bcc.carts.checkout`, f.users.admin);
    expect([r.status, r.body.permissions.includes('bcc.carts.checkout')]).toEqual([200, false]);
    expect((await perm(f.users.viewer)).body.granted).toBe(false);
    expect(await adminAuditCount(t)).toBe(before + 2);
    const rows = await t
      .db('audit_log')
      .where('entity_type', 'role')
      .where('id', '>', lastId)
      .orderBy('id')
      .select('action', 'entity_id', 'details', 'user_id');
    expect(rows).toEqual([
      {
        action: 'role.permission.granted',
        entity_id: String(roleIds.outlet_viewer),
        details: { role: 'outlet_viewer', permission: 'bcc.carts.checkout' },
        user_id: f.users.admin.id,
      },
      {
        action: 'role.permission.revoked',
        entity_id: String(roleIds.outlet_viewer),
        details: { role: 'outlet_viewer', permission: 'bcc.carts.checkout' },
        user_id: f.users.admin.id,
      },
    ]);
  });

  it('when a permission is revoked, then the catalog routes (principal cache: CATALOG_PRINCIPAL_CACHE_MS) refuse within that TTL', async () => {
    const catalog = () => api('get', `/stores/${FIXTURE_STORES.central}/products?pageSize=1`, f.users.viewer);
    expect((await catalog()).status).toBe(200);
    expect((await api('delete', `/admin/roles/${roleIds.outlet_viewer}/permissions/bcc.carts.use`, f.users.admin)).status).toBe(200);
    // Outside the catalog the change applies on the very next request.
    expect((await api('get', '/me/permissions/bcc.carts.use', f.users.viewer)).body.granted).toBe(false);
    await wait(PRINCIPAL_CACHE_MS + 100);
    expect((await catalog()).status).toBe(403);
    expect((await api('put', `/admin/roles/${roleIds.outlet_viewer}/permissions/bcc.carts.use`, f.users.admin)).status).toBe(200);
    await wait(PRINCIPAL_CACHE_MS + 100);
    expect((await catalog()).status).toBe(200);
  });

  it('when anyone changes the super_admin role, then 409 role_immutable and nothing changes', async () => {
    const before = await adminAuditCount(t);
    for (const method of ['put', 'delete'] as const) {
      const res = await api(method, `/admin/roles/${roleIds.super_admin}/permissions/bcc.users.super_admin`, f.users.admin);
      expect([res.status, code(res), JSON.parse(res.text).detail]).toEqual([409, 'role_immutable', M.roleImmutable]);
    }
    expect(await granted('super_admin', 'bcc.users.super_admin')).toBe(true);
    expect(await adminAuditCount(t)).toBe(before);
  });

  it('when the role or the code is unknown, or the code malformed, then 404, 404 and 400', async () => {
    expect((await api('put', '/admin/roles/987654/permissions/bcc.carts.use', f.users.admin)).status).toBe(404);
    expect((await api('put', `/admin/roles/${roleIds.outlet_viewer}/permissions/bcc.nope.never`, f.users.admin)).status).toBe(404);
    expect((await api('put', `/admin/roles/${roleIds.outlet_viewer}/permissions/DROP%20TABLE`, f.users.admin)).status).toBe(400);
  });

  it('when a board administrator or a buyer changes a role, then 403 and nothing changes', async () => {
    for (const u of [boardAdmin, f.users.buyer]) {
      const res = await api('put', `/admin/roles/${roleIds.outlet_viewer}/permissions/bcc.carts.checkout`, u);
      expect([res.status, code(res)]).toEqual([403, 'forbidden']);
    }
    expect(await granted('outlet_viewer', 'bcc.carts.checkout')).toBe(false);
  });
});
