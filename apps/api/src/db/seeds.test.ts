import bcrypt from 'bcrypt';
import { ALL_PERMISSION_CODES, DEFAULT_ROLES } from '@portal/contracts';
import { createTestContext, FIXTURE_PASSWORD, type TestContext } from '../test/harness';
import { seedFixtures } from '../test/fixtures';
import { seedDemo, seedReference } from '@portal/seeds';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

describe('reference and demo seeds', () => {
  it('when reference data is seeded, then every permission code of spec 000 §6 and 002 §6 exists', async () => {
    const codes = (await t.db('permissions').pluck('code')).sort();
    expect(codes).toEqual([...ALL_PERMISSION_CODES].sort());
    expect(codes).toEqual(
      expect.arrayContaining(['bcc.carts.use', 'bcc.carts.checkout', 'bcc.orders.store.manage', 'bcc.item.view', 'bcc.ui.show_admin_menu']),
    );
  });

  it('when reference data is seeded, then the seven default roles carry their levels and permissions', async () => {
    const roles = await t.db('roles').orderBy('role_level').select('code', 'role_level');
    expect(roles).toEqual(DEFAULT_ROLES.map((r) => ({ code: r.code, role_level: r.roleLevel })));
    const viewer = await t
      .db('role_permissions as rp')
      .join('roles as r', 'r.id', 'rp.role_id')
      .join('permissions as p', 'p.id', 'rp.permission_id')
      .where('r.code', 'outlet_viewer')
      .pluck('p.code');
    expect(viewer).toContain('bcc.carts.use');
    expect(viewer).not.toContain('bcc.carts.checkout');
  });

  it('when the seeds run twice, then nothing is duplicated', async () => {
    const before = await Promise.all(
      ['permissions', 'roles', 'role_permissions', 'users', 'outlets', 'store_outlets'].map(async (x) =>
        Number((await t.db(x).count('* as n'))[0].n),
      ),
    );
    await seedReference(t.db);
    await seedDemo(t.db, { password: FIXTURE_PASSWORD, bcryptCost: 4 });
    const after = await Promise.all(
      ['permissions', 'roles', 'role_permissions', 'users', 'outlets', 'store_outlets'].map(async (x) =>
        Number((await t.db(x).count('* as n'))[0].n),
      ),
    );
    expect(after).toEqual(before);
  });

  it('when the demo data is seeded, then the four accounts have their roles, hashed passwords and the buyer two outlets on large stores', async () => {
    const rows = await t
      .db('users as u')
      .join('role_grants as ur', 'ur.user_id', 'u.id')
      .join('roles as r', 'r.id', 'ur.role_id')
      .whereIn('u.email', ['admin@example.com', 'manager@example.com', 'buyer@example.com', 'viewer@example.com'])
      .orderBy(['u.email', 'r.role_level'])
      .distinct('u.email', 'r.code', 'r.role_level', 'u.password_hash');
    // Scoped grants (ARCHITECTURE §11): the admin globally (and an outlet manager where they shop), the manager at
    // the stores of their outlets (and a viewer at the outlets), buyer and viewer at their outlets.
    expect(rows.map((r) => [r.email, r.code])).toEqual([
      ['admin@example.com', 'super_admin'],
      ['admin@example.com', 'outlet_manager'],
      ['buyer@example.com', 'outlet_buyer'],
      ['manager@example.com', 'store_manager'],
      ['manager@example.com', 'outlet_viewer'],
      ['viewer@example.com', 'outlet_viewer'],
    ]);
    for (const r of rows) {
      expect(r.password_hash).toMatch(/^\$2[aby]\$/);
      expect(await bcrypt.compare(FIXTURE_PASSWORD, r.password_hash)).toBe(true);
    }
    const buyerOutlets = await t
      .db('user_outlets as uo')
      .join('users as u', 'u.id', 'uo.user_id')
      .join('outlets as o', 'o.id', 'uo.outlet_id')
      .where('u.email', 'buyer@example.com')
      .orderBy('o.outlet_code')
      .pluck('o.name');
    expect(buyerOutlets).toEqual(['Demo – Campustown Bistro', 'Demo – Court Avenue Taproom']);
  });
});
