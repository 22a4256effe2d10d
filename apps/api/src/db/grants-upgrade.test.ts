import { join } from 'node:path';
import bcrypt from 'bcrypt';
import { migrationSource } from '@portal/migrations';
import { DEMO_ACCOUNTS, DEMO_OUTLETS, importFiles } from '@portal/seeds';
import { PERMISSIONS as P } from '@portal/contracts';
import { createTestContext, FIXTURE_PASSWORD, type TestContext } from '../test/harness';
import { findPrincipal, isGlobalAdmin, mayActAt, reachIds, usersInReach, type Principal } from '../modules/access/access.service';
import { USER_MANAGEMENT_CODES } from '../modules/access/grants.service';

/**
 * The upgrade to scoped grants (migration 2026113000010001, ARCHITECTURE §11): a database holding today's demo
 * data — roles held globally in `user_roles`, reach through `user_outlets` — is migrated, and every demo account
 * reaches exactly what it reached before. "Before" is computed with the old model's own rules (the queries the
 * code ran until this migration, kept here as SQL); "after" with the new access module.
 *
 * Reach, per account: the outlets they belong to; the permission codes they hold; the (store, outlet) pairs they
 * shop at; the stores whose orders they process; the users they administer; the stores and boards of the admin
 * screens; the outlets they may invite to. A super administrator held everything everywhere before (their
 * administration reached every row) and holds a global grant after.
 */
const MIGRATION = '2026113000010001_create_role_grants';
let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
  await t.db.migrate.down({ migrationSource, name: MIGRATION });
  await importFiles(
    t.db,
    ['stores.csv', 'products.csv', 'store_items.csv'].map((f) => join(__dirname, '../test/fixtures', f)),
  );
  // Today's demo data, as the demo seed wrote it before the upgrade: roles in user_roles, outlets in user_outlets.
  const storeIds = new Set<number>(await t.db('stores').pluck('id'));
  const board = await t.db('boards').orderBy('board_number').first('id');
  for (const o of DEMO_OUTLETS) {
    const [row] = await t
      .db('outlets')
      .insert({ outlet_code: o.code, name: o.name, city: o.city, state: o.state, is_admin_outlet: Boolean(o.admin), board_id: board!.id })
      .returning('id');
    const linked = o.stores.filter((s) => storeIds.has(s));
    if (linked.length) await t.db('store_outlets').insert(linked.map((s) => ({ store_id: s, outlet_id: row.id })));
  }
  const hash = await bcrypt.hash(FIXTURE_PASSWORD, 4);
  const roles = new Map<string, number>((await t.db('roles').select('id', 'code')).map((r) => [r.code, r.id]));
  const outlets = new Map<string, number>((await t.db('outlets').select('id', 'outlet_code')).map((o) => [o.outlet_code, o.id]));
  for (const a of DEMO_ACCOUNTS) {
    const [u] = await t.db('users').insert({ email: a.email, password_hash: hash }).returning('id');
    await t.db('user_roles').insert({ user_id: u.id, role_id: roles.get(a.role) });
    await t.db('user_outlets').insert(a.outlets.map((c) => ({ user_id: u.id, outlet_id: outlets.get(c) })));
  }
}, 120_000);
afterAll(async () => {
  await t.close();
});

const ids = async (q: Promise<{ id: number | string }[]> | ReturnType<TestContext['db']>) =>
  [...new Set(((await q) as { id: number | string }[]).map((r) => String(r.id)))].sort();

/** The old model's reach of one user (the queries of the code before the upgrade). */
async function reachBefore(userId: string) {
  const db = t.db;
  const codes = (
    await db.raw(
      `SELECT DISTINCT p.code FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id JOIN permissions p ON p.id = rp.permission_id WHERE ur.user_id = ? ORDER BY 1`,
      [userId],
    )
  ).rows.map((r: { code: string }) => r.code);
  const has = (c: string) => codes.includes(c);
  const own = `SELECT outlet_id FROM user_outlets WHERE user_id = '${userId}'`;
  const storeReach = `SELECT so.store_id, so.outlet_id FROM user_outlets uo JOIN outlets o ON o.id = uo.outlet_id JOIN store_outlets so ON so.outlet_id = uo.outlet_id
    JOIN stores s ON s.id = so.store_id WHERE uo.user_id = '${userId}' AND o.active AND s.active`;
  const manageable = [
    has(P.usersManageBoard)
      ? `SELECT mo.id FROM outlets mo WHERE mo.board_id IN (SELECT board_id FROM outlets WHERE id IN (${own}))`
      : null,
    has(P.usersManageStore)
      ? `SELECT so2.outlet_id FROM store_outlets so2 WHERE so2.store_id IN (SELECT store_id FROM store_outlets WHERE outlet_id IN (${own}))`
      : null,
    has(P.usersManageOutlet) ? own : null,
  ].filter(Boolean);
  const manageableSql = manageable.length
    ? `SELECT id FROM outlets WHERE NOT is_admin_outlet AND id IN (${manageable.join(' UNION ')})`
    : 'SELECT NULL::int WHERE false';
  const inviteSql = [
    has(P.usersAllowInvites) ? own : null,
    has(P.usersAllowInvitesAllStoreOutlets) || has(P.usersManageStore)
      ? `SELECT so2.outlet_id FROM store_outlets so2 WHERE so2.store_id IN (SELECT store_id FROM store_outlets WHERE outlet_id IN (${own}))`
      : null,
    ...manageable,
  ].filter(Boolean);
  const boards = `SELECT board_id FROM outlets WHERE id IN (${own}) AND board_id IS NOT NULL UNION SELECT s.board_id FROM stores s WHERE s.id IN (SELECT store_id FROM store_outlets WHERE outlet_id IN (${own}))`;
  const boardAdmin = has(P.boardsManage) || has(P.usersManageBoard);
  const adminStores = has(P.storesSuperAdmin)
    ? 'SELECT id FROM stores'
    : boardAdmin
      ? `SELECT id FROM stores WHERE board_id IN (${boards})`
      : `SELECT store_id AS id FROM store_outlets WHERE outlet_id IN (${own})`;
  const q = async (sql: string) => ids(db.raw(sql).then((r: { rows: { id: number | string }[] }) => r.rows));
  return {
    outlets: await q(`SELECT o.id FROM user_outlets uo JOIN outlets o ON o.id = uo.outlet_id WHERE uo.user_id = '${userId}' AND o.active`),
    codes,
    shop: has(P.cartsUse) ? await q(`SELECT store_id || ':' || outlet_id AS id FROM (${storeReach}) r`) : [],
    storeOrders: has(P.ordersStoreManage) ? await q(`SELECT DISTINCT store_id AS id FROM (${storeReach}) r`) : [],
    users: manageable.length ? await q(`SELECT DISTINCT user_id AS id FROM user_outlets WHERE outlet_id IN (${manageableSql})`) : [],
    adminStores: has(P.storesAdmin) || has(P.storesSuperAdmin) ? await q(adminStores) : [],
    catalogBoards: has(P.itemsView) ? await q(`SELECT board_id AS id FROM (${boards}) b`) : [],
    inviteOutlets:
      has(P.usersAllowInvites) && inviteSql.length
        ? await q(`SELECT id FROM outlets WHERE active AND NOT is_admin_outlet AND id IN (${inviteSql.join(' UNION ')})`)
        : [],
  };
}

/** The same reach under scoped grants, from the access module. */
async function reachAfter(p: Principal) {
  const db = t.db;
  const list = async (x: Promise<number[] | null>) => ((await x) ?? []).map(String).sort();
  const has = (c: string) => p.permissions.has(c);
  const pairs = (await db('store_outlets as so')
    .join('user_outlets as uo', 'uo.outlet_id', 'so.outlet_id')
    .where('uo.user_id', p.userId)
    .select('so.store_id', 'so.outlet_id')) as {
    store_id: number;
    outlet_id: number;
  }[];
  const shop: string[] = [];
  for (const x of pairs) if (await mayActAt(db, p, P.cartsUse, x.outlet_id, x.store_id)) shop.push(`${x.store_id}:${x.outlet_id}`);
  const users = usersInReach(db, p, USER_MANAGEMENT_CODES);
  const activeStores = async (x: Promise<number[] | null>) => {
    const all = await x;
    return all ? ids(db('stores').whereIn('id', all).where('active', true).select('id')) : [];
  };
  return {
    outlets: await ids(
      db('user_outlets as uo')
        .join('outlets as o', 'o.id', 'uo.outlet_id')
        .where({ 'uo.user_id': p.userId, 'o.active': true })
        .select('o.id'),
    ),
    codes: [...p.permissions].sort(),
    shop: shop.sort(),
    storeOrders: has(P.ordersStoreManage) ? await activeStores(reachIds(db, p, P.ordersStoreManage, 'store')) : [],
    users: users ? await ids(db.from(users.as('u')).distinct('u.user_id as id')) : [],
    adminStores: await list(reachIds(db, p, [P.storesAdmin, P.storesSuperAdmin], 'store')),
    catalogBoards: has(P.itemsView) ? await list(reachIds(db, p, P.itemsView, 'catalog')) : [],
    inviteOutlets: has(P.usersAllowInvites)
      ? await ids(
          db('outlets')
            .where({ active: true, is_admin_outlet: false })
            .whereIn('id', (await reachIds(db, p, P.usersAllowInvites, 'outlet')) ?? [])
            .select('id'),
        )
      : [],
  };
}

it('when the demo data is upgraded to scoped grants, then every demo account reaches exactly what it reached before', async () => {
  const accounts = await t
    .db('users')
    .whereIn(
      'email',
      DEMO_ACCOUNTS.map((a) => a.email),
    )
    .select('id', 'email');
  const before = new Map<string, Awaited<ReturnType<typeof reachBefore>>>();
  for (const a of accounts) before.set(a.email, await reachBefore(a.id));

  await t.db.migrate.up({ migrationSource, name: MIGRATION });

  expect(await t.db.schema.hasTable('user_roles')).toBe(false);
  for (const a of accounts) {
    const p = (await findPrincipal(t.db, a.id))!;
    const was = before.get(a.email)!;
    if (a.email === 'admin@example.com') {
      // Everything everywhere before and after: a global grant of every code, and the same outlets to shop at.
      expect(isGlobalAdmin(p)).toBe(true);
      expect([...p.globalPermissions].sort()).toEqual(was.codes);
      const now = await reachAfter(p);
      expect({ outlets: now.outlets, shop: now.shop, codes: now.codes }).toEqual({
        outlets: was.outlets,
        shop: was.shop,
        codes: was.codes,
      });
      continue;
    }
    expect([a.email, await reachAfter(p)]).toEqual([a.email, was]);
  }
  // One audit entry per converted user, naming the old roles and outlets and the new grants.
  const audits = await t.db('audit_log').where({ action: 'user.grants.migrated' }).select('entity_id', 'details');
  expect(audits.map((r) => r.entity_id).sort()).toEqual(accounts.map((a) => a.id).sort());
  const manager = audits.find((r) => r.entity_id === accounts.find((a) => a.email === 'manager@example.com')!.id)!;
  expect(manager.details).toMatchObject({
    roles: ['store_manager'],
    grants: expect.arrayContaining([expect.objectContaining({ role: 'store_manager', scopeType: 'store' })]),
  });
});

it('when the upgrade is rolled back, then user_roles holds each role each user held', async () => {
  const grants = await t.db('role_grants').distinct('user_id', 'role_id');
  await t.db.migrate.down({ migrationSource, name: MIGRATION });
  const rows = await t.db('user_roles').select('user_id', 'role_id');
  const key = (r: { user_id: string; role_id: number }) => `${r.user_id}:${r.role_id}`;
  expect(rows.map(key).sort()).toEqual(grants.map(key).sort());
  await t.db.migrate.up({ migrationSource, name: MIGRATION });
});
