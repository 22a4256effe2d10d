import request from 'supertest';
import type { z } from 'zod';
import { DEFAULT_ROLES, type RoleCode } from '@portal/contracts';
import { routeTable } from '../routes';
import { expressPath, type Route } from '../http/route';
import { createTestContext, loginAs, type TestContext } from './harness';
import { seedFixtures, type Fixtures } from './fixtures';
import { makeUser } from '../modules/admin-users/test-support';

/**
 * The permission × role × route matrix: generated from the route table, not written by hand,
 * so every `/admin` route any module declares is covered as it lands. For each default role a user holding
 * only that role (assigned to a demo outlet) calls each route with ids that do not exist and an empty body:
 * the answer is 403 `forbidden` exactly when the role holds none of the route's permission codes, and
 * otherwise neither 401 nor 403 nor a 500 (404 / 400 / 422 for the made-up input are fine; a route may answer
 * 503 when a dependency it needs, such as the job queue, is not running in tests).
 */
const adminRoutes = routeTable.filter((r) => r.path.startsWith('/admin') && r.auth !== 'public');

/** Made-up path parameter values, tried in order until the route's schema accepts one. */
const CANDIDATES = ['987654', '00000000-0000-4000-8000-000000000000', 'bcc.carts.use', 'zz-unknown'];
function pathOf(r: Route): string {
  const shape = ((r.def.params as z.ZodObject | undefined)?.shape ?? {}) as Record<string, z.ZodType>;
  const values: Record<string, string> = {};
  for (const [key, schema] of Object.entries(shape)) values[key] = CANDIDATES.find((c) => schema.safeParse(c).success) ?? 'x';
  return expressPath(r.path).replace(/:(\w+)/g, (_m, k: string) => encodeURIComponent(values[k] ?? '1'));
}
const label = (r: Route) => `${r.method.toUpperCase()} ${r.path}`;
const allows = (role: RoleCode, r: Route) => {
  const held = DEFAULT_ROLES.find((d) => d.code === role)!.permissions as readonly string[];
  // A route whose permission must be held globally (ARCHITECTURE §11) is the super administrator's.
  if (r.scope === 'global') return role === 'super_admin';
  return r.permissions.length === 0 || r.permissions.some((p) => held.includes(p));
};

let t: TestContext;
let f: Fixtures;
const tokens = new Map<RoleCode, string>();
beforeAll(async () => {
  t = await createTestContext();
  f = await seedFixtures(t.db);
  for (const role of DEFAULT_ROLES) {
    const u = await makeUser(t, `matrix-${role.code.replace(/_/g, '-')}@example.com`, role.code, [f.outlets.dsm]);
    tokens.set(role.code, await loginAs(t.app, u.email));
  }
}, 60_000);
afterAll(async () => {
  await t.close();
});

const call = (r: Route, token?: string) => {
  const req = request(t.app)[r.method](`/api/v1${pathOf(r)}`);
  if (token) req.set('Authorization', `Bearer ${token}`);
  return ['post', 'put', 'patch'].includes(r.method) ? req.send({}) : req;
};

it('the seeded roles hold exactly the default catalogue the matrix expects', async () => {
  const rows = await t
    .db('roles as r')
    .join('role_permissions as rp', 'rp.role_id', 'r.id')
    .join('permissions as p', 'p.id', 'rp.permission_id')
    .select('r.code', 'p.code as perm');
  for (const role of DEFAULT_ROLES) {
    expect([
      role.code,
      rows
        .filter((x) => x.code === role.code)
        .map((x) => x.perm)
        .sort(),
    ]).toEqual([role.code, [...role.permissions].sort()]);
  }
});

it('the route table has the administration routes', () => {
  expect(adminRoutes.length).toBeGreaterThanOrEqual(13);
});

describe.each(adminRoutes.map((r) => [label(r), r] as const))('%s', (_name, r) => {
  it('answers 401 without a token', async () => {
    expect((await call(r)).status).toBe(401);
  });

  it.each(DEFAULT_ROLES.map((d) => [d.code] as const))('as %s: 403 exactly when the role holds none of its codes', async (role) => {
    const res = await call(r, tokens.get(role));
    const code = res.status >= 400 ? JSON.parse(res.text).code : undefined;
    if (allows(role, r)) {
      expect({ role, status: res.status, code, refused: [401, 403].includes(res.status), crashed: res.status === 500 }).toEqual({
        role,
        status: res.status,
        code,
        refused: false,
        crashed: false,
      });
    } else {
      expect([role, res.status, code]).toEqual([role, 403, 'forbidden']);
    }
  });
});

/**
 * What spec 002 and ARCHITECTURE §9 allow for the administration routes, stated by hand and compared with the
 * route table's codes through the catalogue: who may reach each route at all.
 */
const SPEC: Record<string, RoleCode[]> = {
  'GET /admin/users': ['super_admin', 'board_admin', 'store_manager', 'outlet_manager'],
  'PATCH /admin/users/{userId}/profile': ['super_admin', 'board_admin', 'store_manager', 'outlet_manager'],
  'POST /admin/users/{userId}/roles': ['super_admin', 'board_admin', 'store_manager', 'outlet_manager'],
  'DELETE /admin/users/{userId}': ['super_admin'],
  'GET /admin/roles': ['super_admin', 'board_admin'],
  'PUT /admin/roles/{roleId}/permissions/{permissionCode}': ['super_admin'],
  'DELETE /admin/roles/{roleId}/permissions/{permissionCode}': ['super_admin'],
  'GET /admin/audit-log': ['super_admin', 'board_admin'],
};
it.each(Object.entries(SPEC))('%s is open to exactly %j', (name, roles) => {
  const r = adminRoutes.find((x) => label(x) === name);
  expect(r).toBeDefined();
  expect(DEFAULT_ROLES.filter((d) => allows(d.code, r!)).map((d) => d.code)).toEqual(roles);
});
