import request from 'supertest';
import bcrypt from 'bcrypt';
import { ADMIN_USER_MESSAGES as M } from '@portal/contracts';
import { createTestContext, FIXTURE_PASSWORD, type TestContext } from '../../test/harness';
import { grantRoleAtOutlets } from '@portal/seeds';
import { apiClient } from './test-support';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';

/**
 * Administration I: the scoped users list, Edit User (profile, outlets, roles), the self-edit and
 * privilege rules, deactivation, deletion and the audit rows every write leaves (and refusals do not).
 */
let t: TestContext;
let f: Fixtures;
type U = { id: string; email: string };
let boardAdmin: U;
let outletManager: U;
let farUser: U;
let bare: U;
let roleIds: Record<string, number>;
let farOutlet: number;
let api: ReturnType<typeof apiClient>;

async function makeUser(email: string, role: string | null, outlets: number[], names: [string, string]): Promise<U> {
  const hash = await bcrypt.hash(FIXTURE_PASSWORD, 4);
  const [row] = await t.db('users').insert({ email, password_hash: hash }).returning('id');
  await t.db('user_profiles').insert({ user_id: row.id, first_name: names[0], last_name: names[1], full_name: names.join(' ') });
  if (role) await grantRoleAtOutlets(t.db, row.id, role, outlets);
  return { id: row.id, email };
}

beforeAll(async () => {
  t = await createTestContext();
  f = await seedFixtures(t.db);
  api = apiClient(t);
  roleIds = Object.fromEntries((await t.db('roles').select('id', 'code')).map((r) => [r.code, r.id]));
  // A second board with its own outlet and user: outside the demo board administrator's reach.
  const [board] = await t.db('boards').insert({ board_number: 990, name: 'Far Board' }).returning('id');
  [{ id: farOutlet }] = await t
    .db('outlets')
    .insert({ outlet_code: 'FAR-01', name: 'Far – Lakeside Inn', board_id: board.id, default_store_id: FIXTURE_STORES.small })
    .returning('id');
  // The far outlet buys from a store of the far board (a board grant reaches the outlets of its board's stores).
  await t
    .db('stores')
    .insert({ id: 9901, warehouse_code: 'FAR-9901', name: 'Far Board Store', board_id: board.id, city: 'OMAHA', state: 'NE' });
  await t.db('store_outlets').insert({ store_id: 9901, outlet_id: farOutlet });
  boardAdmin = await makeUser('board-admin@example.com', 'board_admin', [f.outlets.dsm], ['Bea', 'Board']);
  outletManager = await makeUser('outlet-manager@example.com', 'outlet_manager', [f.outlets.dav], ['Otto', 'Outlet']);
  farUser = await makeUser('far-buyer@example.com', 'outlet_buyer', [farOutlet], ['Fay', 'Far']);
  bare = await makeUser('bare@example.com', null, [], ['Bo', 'Bare']);
});
afterAll(async () => {
  await t.close();
});

/** A user made by one test and deleted after it (the list tests expect only the users made in beforeAll). */
const made: U[] = [];
const tempUser = async (...args: Parameters<typeof makeUser>) => {
  const u = await makeUser(...args);
  made.push(u);
  return u;
};
afterEach(async () => {
  for (const u of made.splice(0)) await t.db('users').where({ id: u.id }).delete();
});

const code = (res: request.Response) => JSON.parse(res.text).code as string;
/** Audit rows of admin writes (sign-ins, which the lazy logins here cause, are audited too and not counted). */
const auditCount = async () =>
  Number((await t.db('audit_log').whereNot('action', 'like', 'auth.%').count<{ n: number }[]>({ n: '*' }).first())!.n);
const lastAudit = () => t.db('audit_log').whereNot('action', 'like', 'auth.%').orderBy('id', 'desc').first();
const emails = (res: request.Response) => (res.body.items as { email: string }[]).map((u) => u.email).sort();
const profileOf = (userId: string) => t.db('user_profiles').where({ user_id: userId }).first();
const roleCodes = async (userId: string) =>
  (
    await t
      .db('role_grants as ur')
      .join('roles as r', 'r.id', 'ur.role_id')
      .where('ur.user_id', userId)
      .orderBy('r.code')
      .distinct('r.code')
  ).map((r) => r.code);
const outletIds = async (userId: string) =>
  (await t.db('user_outlets').where({ user_id: userId }).orderBy('outlet_id').select('outlet_id')).map((r) => r.outlet_id);

describe('GET /admin/users', () => {
  it('when the super administrator lists users, then every user holding a grant is there (not one with none), with meta', async () => {
    const res = await api('get', '/admin/users?limit=100', f.users.admin);
    expect(res.status).toBe(200);
    // `bare` and the fixtures' no-role user hold no grant anywhere (a membership needs a grant).
    const all = (await t.db('users').select('email'))
      .map((u) => u.email)
      .filter((e) => e !== bare.email && e !== f.users.noRoles.email)
      .sort();
    expect(emails(res)).toEqual(all);
    expect(res.body.meta).toEqual({
      scopeDescription: expect.any(String),
      filterType: 'all',
      currentUserRoles: ['super_admin', 'outlet_manager'],
      userCount: all.length,
    });
    const buyer = res.body.items.find((u: { email: string }) => u.email === f.users.buyer.email);
    expect(buyer).toMatchObject({
      id: f.users.buyer.id,
      fullName: 'Blake Buyer',
      canEdit: true,
      roles: [expect.objectContaining({ code: 'outlet_buyer', scopeType: 'outlet', scopeCount: 2, scopeName: null })],
    });
    expect(buyer.outlets.map((o: { id: number }) => o.id).sort()).toEqual([f.outlets.dsm, f.outlets.ams].sort());
    expect(res.body.items.find((u: { email: string }) => u.email === f.users.admin.email).canEdit).toBe(true);
  });

  it("when a store manager lists users, then only the users of the outlets linked to their stores come, and more privileged ones can't be edited", async () => {
    const res = await api('get', '/admin/users', f.users.manager);
    expect(res.status).toBe(200);
    // The manager's stores 2190 and 4129 link DSM, AMS and the test outlets (the admin outlet, also linked to 2190, is
    // never reached through a store): their members, and the people holding grants at those stores.
    expect(emails(res)).toEqual([
      'admin@example.com',
      'board-admin@example.com',
      'buyer@example.com',
      'inactive@example.com',
      'manager@example.com',
      'viewer@example.com',
    ]);
    expect(res.body.meta).toMatchObject({ filterType: 'store', currentUserRoles: ['store_manager', 'outlet_viewer'], userCount: 6 });
    const canEdit = Object.fromEntries(res.body.items.map((u: { email: string; canEdit: boolean }) => [u.email, u.canEdit]));
    expect(canEdit).toMatchObject({
      'admin@example.com': false,
      'board-admin@example.com': false,
      'manager@example.com': false,
      'buyer@example.com': true,
    });
  });

  it("when a board administrator or an outlet manager lists users, then the board's or the outlet's users come", async () => {
    const board = await api('get', '/admin/users', boardAdmin);
    expect(board.body.meta.filterType).toBe('board');
    expect(emails(board)).toContain('other-buyer@example.com');
    expect(emails(board)).not.toContain(farUser.email);
    const outlet = await api('get', '/admin/users', outletManager);
    expect(emails(outlet)).toEqual([
      'admin@example.com',
      'other-buyer@example.com',
      'other-manager@example.com',
      'outlet-manager@example.com',
    ]);
    expect(outlet.body.meta.filterType).toBe('outlet');
  });

  it('when searching by name or email, then only matches come; 50 a page with a cursor walks every user once', async () => {
    const byName = await api('get', '/admin/users?search=blake', f.users.admin);
    expect(emails(byName)).toEqual(['buyer@example.com']);
    const byMail = await api('get', '/admin/users?search=VIEWER@', f.users.admin);
    expect(emails(byMail)).toEqual(['viewer@example.com']);
    expect((await api('get', '/admin/users?search=%25', f.users.admin)).body.items).toEqual([]);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: request.Response = await api('get', `/admin/users?limit=3${cursor ? `&cursor=${cursor}` : ''}`, f.users.admin);
      expect(res.status).toBe(200);
      seen.push(...res.body.items.map((u: { id: string }) => u.id));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor && pages < 20);
    const full = await api('get', '/admin/users?limit=100', f.users.admin);
    expect(seen).toEqual(full.body.items.map((u: { id: string }) => u.id));
    expect(full.body.nextCursor).toBeNull();
    expect((await api('get', '/admin/users?limit=1', f.users.admin)).body.items).toHaveLength(1);
    expect(code(await api('get', '/admin/users?cursor=garbage', f.users.admin))).toBe('validation_failed');
  });

  it('when the caller is signed out or lacks every user-management permission, then 401 and 403', async () => {
    expect((await api('get', '/admin/users')).status).toBe(401);
    const res = await api('get', '/admin/users', f.users.buyer);
    expect([res.status, code(res)]).toEqual([403, 'forbidden']);
  });
});

describe('GET /admin/users/{userId}', () => {
  it('when the user is in scope, then profile (lastLogin), roles, outlets, canEdit and canDelete come', async () => {
    await t
      .db('users')
      .where({ id: f.users.buyer.id })
      .update({ last_login_at: new Date('2026-11-20T10:00:00Z') });
    const res = await api('get', `/admin/users/${f.users.buyer.id}`, f.users.manager);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: f.users.buyer.id,
      email: 'buyer@example.com',
      canEdit: true,
      canDelete: false,
      profile: { firstName: 'Blake', lastName: 'Buyer', phone: null, isActive: true, lastLogin: '2026-11-20T10:00:00.000Z' },
      canEditProfile: true,
      // Every grant with where it is held, and whether the caller may change it.
      roles: [
        expect.objectContaining({
          code: 'outlet_buyer',
          roleId: roleIds.outlet_buyer,
          scopeType: 'outlet',
          scopeId: f.outlets.ams,
          editable: true,
        }),
        expect.objectContaining({
          code: 'outlet_buyer',
          roleId: roleIds.outlet_buyer,
          scopeType: 'outlet',
          scopeId: f.outlets.dsm,
          editable: true,
        }),
      ],
    });
    expect((await api('get', `/admin/users/${f.users.buyer.id}`, f.users.admin)).body.canDelete).toBe(true);
  });

  it('when the user is outside the scope, unknown or the id malformed, then 404', async () => {
    for (const id of [f.users.otherBuyer.id, farUser.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await api('get', `/admin/users/${id}`, f.users.manager);
      expect([res.status, code(res)]).toEqual([404, 'not_found']);
    }
    const bad = await api('get', '/admin/users/not-a-uuid', f.users.manager);
    expect([bad.status, code(bad), bad.body.detail]).toEqual([404, 'not_found', 'User not found']);
  });

  it('when a manager opens their own account, then it reads with canEdit false; the super administrator may edit themselves', async () => {
    expect((await api('get', `/admin/users/${f.users.manager.id}`, f.users.manager)).body.canEdit).toBe(false);
    expect((await api('get', `/admin/users/${f.users.admin.id}`, f.users.admin)).body).toMatchObject({ canEdit: true, canDelete: false });
  });
});

describe('PATCH /admin/users/{userId}/profile', () => {
  it('when a store manager changes a buyer in scope, then the profile is stored and one audit row written', async () => {
    const before = await auditCount();
    const res = await api('patch', `/admin/users/${f.users.viewer.id}/profile`, f.users.manager).send({
      firstName: ' Valerie ',
      lastName: 'Viewer',
      phone: '(515) 555-0199',
      isActive: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.profile).toMatchObject({ firstName: 'Valerie', lastName: 'Viewer', phone: '+15155550199', isActive: true });
    expect(await profileOf(f.users.viewer.id)).toMatchObject({
      first_name: 'Valerie',
      full_name: 'Valerie Viewer',
      phone: '+15155550199',
    });
    expect(await auditCount()).toBe(before + 1);
    const row = await lastAudit();
    expect(row).toMatchObject({
      action: 'user.profile.updated',
      user_id: f.users.manager.id,
      actor_email: 'manager@example.com',
      entity_type: 'user',
      entity_id: f.users.viewer.id,
    });
    expect((row!.details as { changed: Record<string, unknown> }).changed.firstName).toEqual({ from: 'Val', to: 'Valerie' });
    expect(row!.ip).toBeTruthy();
  });

  it("when the first name is blank, then 400 'First name is required' and nothing changes", async () => {
    const before = await auditCount();
    const res = await api('patch', `/admin/users/${f.users.viewer.id}/profile`, f.users.admin).send({
      firstName: '   ',
      lastName: 'X',
      phone: null,
      isActive: true,
    });
    expect([res.status, code(res), JSON.parse(res.text).detail]).toEqual([400, 'validation_failed', M.firstNameRequired]);
    expect((await profileOf(f.users.viewer.id))!.last_name).toBe('Viewer');
    expect(await auditCount()).toBe(before);
    expect(
      (
        await api('patch', `/admin/users/${f.users.viewer.id}/profile`, f.users.admin).send({
          firstName: 'V',
          isActive: true,
          email: 'x@y.z',
        })
      ).status,
    ).toBe(400);
  });

  it('when a user edits someone out of scope, then 404 and nothing changes', async () => {
    const before = await auditCount();
    const res = await api('patch', `/admin/users/${f.users.otherBuyer.id}/profile`, f.users.manager).send({
      firstName: 'Hacked',
      lastName: 'X',
      phone: null,
      isActive: false,
    });
    expect([res.status, code(res)]).toEqual([404, 'not_found']);
    expect(await profileOf(f.users.otherBuyer.id)).toMatchObject({ first_name: 'otherBuyer' });
    expect((await t.db('users').where({ id: f.users.otherBuyer.id }).first())!.is_active).toBe(true);
    expect(await auditCount()).toBe(before);
  });

  it("when a store manager edits themselves, then 403 with the spec's message; a super administrator may", async () => {
    const before = await auditCount();
    const res = await api('patch', `/admin/users/${f.users.manager.id}/profile`, f.users.manager).send({
      firstName: 'Me',
      lastName: 'Myself',
      phone: null,
      isActive: true,
    });
    expect([res.status, code(res), JSON.parse(res.text).detail]).toEqual([403, 'self_edit_forbidden', M.selfEdit]);
    expect((await profileOf(f.users.manager.id))!.first_name).toBe('Morgan');
    expect(await auditCount()).toBe(before);
    const own = await api('patch', `/admin/users/${f.users.admin.id}/profile`, f.users.admin).send({
      firstName: 'Alexis',
      lastName: 'Admin',
      phone: null,
      isActive: true,
    });
    expect(own.status).toBe(200);
    expect((await profileOf(f.users.admin.id))!.first_name).toBe('Alexis');
    const off = await api('patch', `/admin/users/${f.users.admin.id}/profile`, f.users.admin).send({
      firstName: 'Alexis',
      lastName: 'Admin',
      phone: null,
      isActive: false,
    });
    expect([off.status, code(off)]).toEqual([409, 'self_deactivate']);
    expect((await t.db('users').where({ id: f.users.admin.id }).first())!.is_active).toBe(true);
  });

  it("when a store manager edits a more privileged user in scope, then 403 with the spec's message", async () => {
    const res = await api('patch', `/admin/users/${boardAdmin.id}/profile`, f.users.manager).send({
      firstName: 'B',
      lastName: null,
      phone: null,
      isActive: false,
    });
    expect([res.status, code(res), JSON.parse(res.text).detail]).toEqual([403, 'user_not_editable', M.notEditable]);
    expect((await t.db('users').where({ id: boardAdmin.id }).first())!.is_active).toBe(true);
  });

  it('when a user is deactivated, then their live refresh token and access token stop working at once; reactivation audits too', async () => {
    const u = await tempUser('short-lived@example.com', 'outlet_buyer', [f.outlets.dsm], ['Sho', 'Rt']);
    const login = await request(t.app).post('/api/v1/auth/login').send({ email: u.email, password: FIXTURE_PASSWORD });
    expect(login.status).toBe(200);
    const cookie = ([] as string[])
      .concat(login.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('portal_refresh='))!
      .split(';')[0];
    const access = login.body.access_token as string;
    expect((await request(t.app).get('/api/v1/me').set('Authorization', `Bearer ${access}`)).status).toBe(200);
    const off = await api('patch', `/admin/users/${u.id}/profile`, f.users.manager).send({
      firstName: 'Sho',
      lastName: 'Rt',
      phone: null,
      isActive: false,
    });
    expect([off.status, off.body.profile.isActive]).toEqual([200, false]);
    expect((await request(t.app).post('/api/v1/auth/refresh').set('Cookie', cookie)).status).toBe(401);
    expect((await request(t.app).get('/api/v1/me').set('Authorization', `Bearer ${access}`)).status).toBe(401);
    expect(await t.db('auth_sessions').where({ user_id: u.id }).whereNull('revoked_at').count<{ n: number }[]>({ n: '*' }).first()).toEqual(
      { n: 0 },
    );
    const row = await lastAudit();
    expect(row).toMatchObject({ action: 'user.deactivated', entity_id: u.id, details: expect.objectContaining({ sessionsRevoked: 1 }) });
    const on = await api('patch', `/admin/users/${u.id}/profile`, f.users.manager).send({
      firstName: 'Sho',
      lastName: 'Rt',
      phone: null,
      isActive: true,
    });
    expect(on.status).toBe(200);
    expect((await lastAudit())!.action).toBe('user.reactivated');
    expect((await request(t.app).post('/api/v1/auth/login').send({ email: u.email, password: FIXTURE_PASSWORD })).status).toBe(200);
  });
});

describe('PUT /admin/users/{userId}/outlets', () => {
  it('when the manager adds and removes manageable outlets, then only the difference changes and the audit names it', async () => {
    const u = await tempUser('outlets-target@example.com', 'outlet_viewer', [f.outlets.dsm], ['Out', 'Lets']);
    const res = await api('put', `/admin/users/${u.id}/outlets`, f.users.manager).send({
      add: [f.outlets.ams, f.outlets.unassigned],
      remove: [f.outlets.dsm],
    });
    expect(res.status).toBe(200);
    expect(await outletIds(u.id)).toEqual([f.outlets.ams, f.outlets.unassigned].sort((a, b) => a - b));
    expect(await lastAudit()).toMatchObject({
      action: 'user.outlets.updated',
      details: {
        email: 'outlets-target@example.com',
        added: expect.arrayContaining([f.outlets.ams, f.outlets.unassigned]),
        removed: [f.outlets.dsm],
      },
    });
  });

  it("when an outlet is not manageable, then 403 with the spec's message and nothing changes", async () => {
    const before = await auditCount();
    for (const body of [{ add: [f.outlets.dav] }, { remove: [f.outlets.admin] }, { add: [f.outlets.ams, farOutlet] }]) {
      const res = await api('put', `/admin/users/${f.users.viewer.id}/outlets`, f.users.manager).send(body);
      expect([res.status, code(res), JSON.parse(res.text).detail]).toEqual([403, 'outlet_not_manageable', M.outletNotManageable]);
    }
    expect(await outletIds(f.users.viewer.id)).toEqual([f.outlets.dsm, f.outlets.ams].sort((a, b) => a - b));
    expect(await auditCount()).toBe(before);
    const both = await api('put', `/admin/users/${f.users.viewer.id}/outlets`, f.users.manager).send({
      add: [f.outlets.ams],
      remove: [f.outlets.ams],
    });
    expect(both.status).toBe(400);
    expect((await api('put', `/admin/users/${f.users.viewer.id}/outlets`, f.users.admin).send({ add: [999999] })).status).toBe(404);
  });

  it("GET …/manageable-outlets lists the manageable outlets plus the user's own with canManage and assigned", async () => {
    const u = await tempUser('mixed@example.com', 'outlet_viewer', [f.outlets.dsm, f.outlets.dav], ['Mix', 'Ed']);
    const res = await api('get', `/admin/users/${u.id}/manageable-outlets`, f.users.manager);
    expect(res.status).toBe(200);
    const byId = new Map(res.body.items.map((o: { outletId: number }) => [o.outletId, o]));
    expect(byId.get(f.outlets.dav)).toMatchObject({ canManage: false, assigned: true, outletCode: 'DEMO-DAV-01' });
    expect(byId.get(f.outlets.dsm)).toMatchObject({ canManage: true, assigned: true });
    expect(byId.get(f.outlets.unassigned)).toMatchObject({ canManage: true, assigned: false });
    expect(byId.has(farOutlet)).toBe(false);
    expect(byId.has(f.outlets.admin)).toBe(false);
    const names = res.body.items.map((o: { outletName: string }) => o.outletName);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' }) || 0));
    const all = await api('get', `/admin/users/${u.id}/manageable-outlets`, f.users.admin);
    expect(all.body.items.every((o: { canManage: boolean }) => o.canManage)).toBe(true);
    expect(all.body.items.some((o: { outletId: number }) => o.outletId === farOutlet)).toBe(true);
  });
});

describe('roles of a user', () => {
  it("GET …/assignable-roles offers only roles strictly less privileged than the caller's; every role to the super administrator", async () => {
    const res = await api('get', `/admin/users/${f.users.buyer.id}/assignable-roles`, f.users.manager);
    expect(res.body.items.map((r: { code: string }) => r.code)).toEqual(['store_staff', 'outlet_manager', 'outlet_buyer', 'outlet_viewer']);
    expect((await api('get', `/admin/users/${f.users.buyer.id}/assignable-roles`, f.users.admin)).body.items).toHaveLength(7);
  });

  it('when the manager grants and removes a lower role, then the grants change and each write leaves one audit row', async () => {
    const before = await auditCount();
    const add = await api('post', `/admin/users/${f.users.buyer.id}/roles`, f.users.manager).send({
      roleId: roleIds.store_staff,
      storeIds: [FIXTURE_STORES.central],
    });
    expect(add.status).toBe(200);
    expect(await roleCodes(f.users.buyer.id)).toEqual(['outlet_buyer', 'store_staff']);
    expect(await lastAudit()).toMatchObject({
      action: 'user.roles.added',
      details: { email: 'buyer@example.com', roles: ['store_staff'] },
    });
    const del = await api('delete', `/admin/users/${f.users.buyer.id}/roles/${roleIds.store_staff}`, f.users.manager);
    expect(del.status).toBe(200);
    expect(await roleCodes(f.users.buyer.id)).toEqual(['outlet_buyer']);
    expect(await auditCount()).toBe(before + 2);
  });

  it('when the manager grants a role as privileged as their own (or more), then 403 and nothing changes', async () => {
    const before = await auditCount();
    for (const role of ['store_manager', 'board_admin', 'super_admin']) {
      const res = await api('post', `/admin/users/${f.users.buyer.id}/roles`, f.users.manager).send({ roleId: roleIds[role] });
      expect([role, res.status, code(res)]).toEqual([role, 403, 'role_not_assignable']);
    }
    const mixed = await api('post', `/admin/users/${f.users.buyer.id}/roles`, f.users.manager).send({
      roleIds: [roleIds.outlet_viewer, roleIds.store_manager],
    });
    expect(mixed.status).toBe(403);
    expect(await roleCodes(f.users.buyer.id)).toEqual(['outlet_buyer']);
    expect(await auditCount()).toBe(before);
  });

  it("when no valid role id is given, then 422 'Invalid role selection: no valid role IDs found'", async () => {
    const res = await api('post', `/admin/users/${f.users.buyer.id}/roles`, f.users.admin).send({ roleIds: [987654] });
    expect([res.status, code(res), JSON.parse(res.text).detail]).toEqual([422, 'invalid_role_selection', M.invalidRoleSelection]);
    expect((await api('post', `/admin/users/${f.users.buyer.id}/roles`, f.users.admin).send({})).status).toBe(400);
  });

  it('when removing a role the user lacks, or one the caller cannot grant, then 404 and 403', async () => {
    expect((await api('delete', `/admin/users/${f.users.buyer.id}/roles/${roleIds.store_staff}`, f.users.manager)).status).toBe(404);
    const u = await tempUser('staff-and-buyer@example.com', 'outlet_buyer', [f.outlets.dsm], ['Sa', 'B']);
    await t
      .db('role_grants')
      .insert({ user_id: u.id, role_id: roleIds.store_manager, scope_type: 'store', store_id: FIXTURE_STORES.central });
    const res = await api('delete', `/admin/users/${u.id}/roles/${roleIds.store_manager}`, f.users.manager);
    expect([res.status, code(res)]).toEqual([403, 'user_not_editable']);
    expect(await roleCodes(u.id)).toEqual(['outlet_buyer', 'store_manager']);
  });

  it('when the super administrator removes the super_admin role from the last one holding it, then 409', async () => {
    const other = await tempUser('second-super@example.com', 'super_admin', [], ['Sec', 'Ond']);
    const res = await api('delete', `/admin/users/${f.users.admin.id}/roles/${roleIds.super_admin}`, other);
    expect(res.status).toBe(200); // `other` remains
    const back = await api('delete', `/admin/users/${other.id}/roles/${roleIds.super_admin}`, other);
    expect([back.status, code(back)]).toEqual([409, 'last_super_admin']);
    await t.db('role_grants').insert({ user_id: f.users.admin.id, role_id: roleIds.super_admin, scope_type: 'global' });
    await t.db('users').where({ id: other.id }).delete();
  });
  it('when two super administrators demote each other at the same moment, then exactly one succeeds and one super administrator remains', async () => {
    const b = await tempUser('rival-super@example.com', 'super_admin', [], ['Riv', 'Al']);
    expect((await api('get', `/admin/users/${b.id}`, b)).status).toBe(200); // signed in before the race
    const [x, y] = await Promise.all([
      api('delete', `/admin/users/${b.id}/roles/${roleIds.super_admin}`, f.users.admin),
      api('delete', `/admin/users/${f.users.admin.id}/roles/${roleIds.super_admin}`, b),
    ]);
    // The loser is refused: 409 last_super_admin when both passed the permission check, 403 when its own
    // super administration was already gone.
    const statuses = [x.status, y.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const holders = await t
      .db('role_grants')
      .where({ role_id: roleIds.super_admin })
      .join('users', 'users.id', 'role_grants.user_id')
      .where('users.is_active', true)
      .count<{ n: number }[]>({ n: '*' })
      .first();
    expect(Number(holders!.n)).toBe(1);
    // Restore: the fixture admin stays the super administrator.
    await t
      .db('role_grants')
      .insert({ user_id: f.users.admin.id, role_id: roleIds.super_admin, scope_type: 'global' })
      .onConflict()
      .ignore();
    await t.db('users').where({ id: b.id }).delete();
  });
});

describe('DELETE /admin/users/{userId}', () => {
  it('when a board administrator or a store manager deletes a user, then 403 and the user stays', async () => {
    for (const u of [boardAdmin, f.users.manager]) {
      const res = await api('delete', `/admin/users/${f.users.viewer.id}`, u);
      expect([res.status, code(res)]).toEqual([403, 'forbidden']);
    }
    expect(await t.db('users').where({ id: f.users.viewer.id }).first()).toBeDefined();
  });

  it('when the super administrator deletes a user, then the account and its links go, the orders stay as "Deleted user", and the audit keeps the id', async () => {
    const u = await tempUser('to-delete@example.com', 'outlet_buyer', [f.outlets.dsm], ['Del', 'Ete']);
    await t.db('auth_sessions').insert({
      user_id: u.id,
      family_id: '00000000-0000-4000-8000-0000000000aa',
      token_hash: 'x'.repeat(64),
      expires_at: new Date(Date.now() + 3600_000),
    });
    await t.db('carts').insert({ user_id: u.id, outlet_id: f.outlets.dsm, store_id: FIXTURE_STORES.central });
    await t.db('invitations').insert({
      email: u.email,
      first_name: 'Del',
      last_name: 'Ete',
      role_ids: [roleIds.outlet_viewer],
      outlet_ids: [f.outlets.dsm],
      expires_at: new Date(Date.now() + 86400_000),
    });
    const [order] = await t
      .db('orders')
      .insert({
        order_number: 'ORD-TEST-DELETE-1',
        user_id: u.id,
        store_id: FIXTURE_STORES.central,
        outlet_id: f.outlets.dsm,
        status: 'completed',
        payment_method: 'in_store',
        payment_status: 'not_required',
        fulfillment_flag: 'Pickup',
        subtotal: '10.00',
        total_amount: '10.00',
        delivery_charge: 0,
        customer_name: 'Del Ete',
        customer_email: u.email,
        customer_phone: '555',
      })
      .returning('id');
    const res = await api('delete', `/admin/users/${u.id}`, f.users.admin);
    expect(res.status).toBe(204);
    expect(await t.db('users').where({ id: u.id }).first()).toBeUndefined();
    for (const table of ['user_profiles', 'role_grants', 'user_outlets', 'auth_sessions', 'carts']) {
      expect([table, await t.db(table).where({ user_id: u.id }).first()]).toEqual([table, undefined]);
    }
    expect(await t.db('invitations').where({ email: u.email }).first()).toBeUndefined();
    expect(await t.db('orders').where({ id: order.id }).first()).toMatchObject({
      user_id: null,
      customer_name: 'Deleted user',
      customer_email: '',
      customer_phone: null,
      total_amount: '10.00',
    });
    expect(await lastAudit()).toMatchObject({
      action: 'user.deleted',
      entity_type: 'user',
      entity_id: u.id,
      user_id: f.users.admin.id,
      details: expect.objectContaining({ email: u.email, ordersKept: 1 }),
    });
    expect((await api('get', `/admin/users/${u.id}`, f.users.admin)).status).toBe(404);
    expect((await api('delete', `/admin/users/${u.id}`, f.users.admin)).status).toBe(404);
  });

  it('when the super administrator deletes themselves, then 409 and nothing changes', async () => {
    const before = await auditCount();
    const res = await api('delete', `/admin/users/${f.users.admin.id}`, f.users.admin);
    expect([res.status, code(res)]).toEqual([409, 'self_delete']);
    expect(await t.db('users').where({ id: f.users.admin.id }).first()).toBeDefined();
    expect(await auditCount()).toBe(before);
  });
});
