import request from 'supertest';
import bcrypt from 'bcrypt';
import { AUTH_MESSAGES } from '@portal/contracts';
import { createTestContext, FIXTURE_PASSWORD, loginAs, tokenFor, type TestContext } from '../../test/harness';
import { problem } from '../../test/http';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { appendTestOrderEvent } from '../orders/orders.service';

let t: TestContext;
let f: Fixtures;
beforeAll(async () => {
  t = await createTestContext();
  f = await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

type User = keyof Fixtures['users'];
const as = (user: User) => ({ Authorization: `Bearer ${tokenFor(t, f.users[user])}` });
const get = (path: string, user: User) => request(t.app).get(`/api/v1${path}`).set(as(user));
const send = (method: 'put' | 'post' | 'patch', path: string, user: User, body: unknown) => {
  const agent = request(t.app);
  return agent[method](`/api/v1${path}`)
    .set(as(user))
    .send(body as object);
};
const profileRow = (userId: string) => t.db('user_profiles').where({ user_id: userId }).first();
const BOARD = 'Iowa Alcoholic Beverages Division';

describe('GET /me', () => {
  it('when the buyer asks, then it answers account, profile, roles and permission codes', async () => {
    const res = await get('/me', 'buyer');
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({ id: f.users.buyer.id, email: 'buyer@example.com', isActive: true, lastLoginAt: null });
    expect(res.body.profile).toMatchObject({
      userId: f.users.buyer.id,
      email: 'buyer@example.com',
      firstName: 'Blake',
      lastName: 'Buyer',
      phone: null,
    });
    expect(res.body.roles).toEqual([
      {
        id: expect.any(String),
        roleCode: 'outlet_buyer',
        roleName: 'Outlet Buyer',
        description: expect.any(String),
        roleLevel: 50,
        permissions: [],
        scopeType: 'outlet',
        scopeCount: 2,
      },
    ]);
    expect(res.body.permissions).toEqual(expect.arrayContaining(['bcc.carts.use', 'bcc.carts.checkout']));
    expect(res.body.permissions).toEqual([...res.body.permissions].sort());
  });

  it('when the user has no profile row, then a blank profile is built from id and email', async () => {
    const [u] = await t.db('users').insert({ email: 'no-profile@example.com', password_hash: 'x' }).returning('id');
    const res = await request(t.app)
      .get('/api/v1/me')
      .set('Authorization', `Bearer ${tokenFor(t, { id: u.id, email: 'no-profile@example.com' })}`);
    expect(res.status).toBe(200);
    expect(res.body.profile).toEqual({
      userId: u.id,
      email: 'no-profile@example.com',
      firstName: null,
      lastName: null,
      fullName: null,
      phone: null,
      lastSelectedOutletId: null,
      lastSelectedStoreId: null,
    });
    expect(res.body.roles).toEqual([]);
    expect(res.body.permissions).toEqual([]);
  });

  it('when there is no token, then every /me route answers 401', async () => {
    for (const path of [
      '/me',
      '/me/boot',
      '/me/roles',
      '/me/permissions',
      '/me/permissions/bcc.carts.use',
      '/me/outlets',
      '/me/selection',
      '/me/requestable-outlets',
    ]) {
      const res = await request(t.app).get(`/api/v1${path}`);
      expect([path, res.status]).toEqual([path, 401]);
    }
    expect((await request(t.app).patch('/api/v1/me/profile').send({ firstName: 'A', lastName: 'B' })).status).toBe(401);
  });
});

describe("GET /me/boot (issue 26: a page load's first reads in one answer)", () => {
  /** What the part's own route answers this user: its body on 200, null when it refuses. */
  const own = async (path: string, user: User) => {
    const res = await get(path, user);
    return res.status === 200 ? res.body : null;
  };

  it('when each kind of user asks, then each part is what its own route answers (null where that route refuses)', async () => {
    for (const user of ['buyer', 'manager', 'admin', 'viewer', 'otherBuyer', 'noRoles'] as const) {
      const res = await get('/me/boot', user);
      expect([user, res.status]).toEqual([user, 200]);
      const selection = await own('/me/selection', user);
      const expected = {
        me: await own('/me', user),
        outlets: await own('/me/outlets', user),
        selection,
        stores: selection?.outletId != null ? await own(`/outlets/${selection.outletId}/stores`, user) : null,
        orderFeedSeq: expect.any(Number),
      };
      expect([user, res.body]).toEqual([user, expected]);
    }
  });

  it('when the buyer asks, then the stores are those of the selected outlet', async () => {
    const res = await get('/me/boot', 'buyer');
    expect(res.body.selection.outletId).toEqual(expect.any(Number));
    expect(res.body.stores.items.length).toBeGreaterThan(0);
    expect(res.body.outlets.items.map((o: { outletId: number }) => o.outletId)).toContain(res.body.selection.outletId);
  });

  it('when the user lacks bcc.outlets.read_assigned, then me is answered and outlets, selection and stores are null', async () => {
    const res = await get('/me/boot', 'noRoles');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      me: expect.objectContaining({ permissions: [] }),
      outlets: null,
      selection: null,
      stores: null,
      orderFeedSeq: expect.any(Number),
    });
  });

  it("when order events are appended, then orderFeedSeq is the feed's horizon: past a committed event, below one in flight", async () => {
    const newest = async () => {
      const row = (await t.db('order_events').max('seq as seq').first()) as { seq: string | number | null } | undefined;
      return Number(row?.seq ?? 0);
    };
    // Nothing in flight: at or past every committed event (a live stream's ready id, the horizon, is not past it).
    expect((await get('/me/boot', 'buyer')).body.orderFeedSeq).toBeGreaterThanOrEqual(await newest());
    const seq = await appendTestOrderEvent(t.db, FIXTURE_STORES.central, { note: 'me/boot test' });
    // Any user's answer names it, whoever's order it is: the ready event does the same.
    expect((await get('/me/boot', 'noRoles')).body.orderFeedSeq).toBe(seq);
    // An append not yet committed: the horizon stays below it, so the lists read later may lack it and the first
    // stream's ready id (once it commits) is past orderFeedSeq: the app asks the lists again.
    const trx = await t.db.transaction();
    try {
      const inFlight = await appendTestOrderEvent(trx, FIXTURE_STORES.central, { note: 'in flight' });
      expect((await get('/me/boot', 'buyer')).body.orderFeedSeq).toBe(inFlight - 1);
    } finally {
      await trx.rollback();
    }
  });
});

describe('PATCH /me/profile', () => {
  it('when names and an empty phone are saved, then the profile has them and phone is stored as null', async () => {
    await t.db('user_profiles').where({ user_id: f.users.viewer.id }).update({ phone: '+15155550000' });
    const res = await send('patch', '/me/profile', 'viewer', { firstName: '  Valerie ', lastName: 'Viewer', phone: '' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      firstName: 'Valerie',
      lastName: 'Viewer',
      fullName: 'Valerie Viewer',
      phone: null,
      email: 'viewer@example.com',
    });
    expect(await profileRow(f.users.viewer.id)).toMatchObject({
      first_name: 'Valerie',
      last_name: 'Viewer',
      full_name: 'Valerie Viewer',
      phone: null,
    });
    expect(await t.db('audit_log').where({ action: 'profile.updated', user_id: f.users.viewer.id })).toHaveLength(1);
    const withPhone = await send('patch', '/me/profile', 'viewer', { firstName: 'Val', lastName: 'Viewer', phone: '(515) 555-0199' });
    expect(withPhone.body.phone).toBe('+15155550199'); // stored in E.164 (issue 26 §7)
  });

  it('when the first or last name is empty, then it answers 400 with the spec messages and nothing is saved', async () => {
    const res = await send('patch', '/me/profile', 'viewer', { firstName: '', lastName: ' ' });
    expect(res.status).toBe(400);
    expect(problem(res).errors).toEqual([
      { path: 'firstName', message: 'First name is required' },
      { path: 'lastName', message: 'Last name is required' },
    ]);
    expect(problem(res).detail).toBe('First name is required');
    expect((await profileRow(f.users.viewer.id))!.first_name).not.toBe('');
  });

  it('when the body tries to change the email, then it is refused (email is read-only)', async () => {
    const res = await send('patch', '/me/profile', 'viewer', { firstName: 'Val', lastName: 'Viewer', email: 'new@example.com' });
    expect(res.status).toBe(400);
    expect((await t.db('users').where({ id: f.users.viewer.id }).first('email'))!.email).toBe('viewer@example.com');
  });
});

describe('POST /me/password', () => {
  it('when the current password is wrong, then it answers 400 with "Your current password is incorrect." and nothing changes', async () => {
    const before = (await t.db('users').where({ id: f.users.otherBuyer.id }).first('password_hash'))!.password_hash;
    const res = await send('post', '/me/password', 'otherBuyer', {
      currentPassword: 'Not#theOne1',
      newPassword: 'Another#Pass9',
      confirmPassword: 'Another#Pass9',
    });
    expect(res.status).toBe(400);
    expect(problem(res)).toMatchObject({
      code: 'current_password_incorrect',
      detail: AUTH_MESSAGES.currentPasswordIncorrect,
      errors: [{ path: 'currentPassword', message: AUTH_MESSAGES.currentPasswordIncorrect }],
    });
    expect((await t.db('users').where({ id: f.users.otherBuyer.id }).first('password_hash'))!.password_hash).toBe(before);
  });

  it('when the new password is weak, common, or not confirmed, then it answers 400 with the spec messages', async () => {
    const weak = await send('post', '/me/password', 'otherBuyer', {
      currentPassword: FIXTURE_PASSWORD,
      newPassword: 'short',
      confirmPassword: 'short',
    });
    expect(weak.status).toBe(400);
    expect(problem(weak).errors).toEqual(
      expect.arrayContaining([{ path: 'newPassword', message: 'Password must be at least 8 characters' }]),
    );
    const missing = await send('post', '/me/password', 'otherBuyer', {
      currentPassword: '',
      newPassword: 'Another#Pass9',
      confirmPassword: 'Another#Pass9',
    });
    expect(problem(missing).errors).toEqual([{ path: 'currentPassword', message: 'Current password is required' }]);
    const mismatch = await send('post', '/me/password', 'otherBuyer', {
      currentPassword: FIXTURE_PASSWORD,
      newPassword: 'Another#Pass9',
      confirmPassword: 'Another#Pass8',
    });
    expect(problem(mismatch).errors).toEqual([{ path: 'confirmPassword', message: "Passwords don't match" }]);
    const common = await send('post', '/me/password', 'otherBuyer', {
      currentPassword: FIXTURE_PASSWORD,
      newPassword: 'Welcome1!',
      confirmPassword: 'Welcome1!',
    });
    expect([common.status, problem(common).code]).toEqual([400, 'common_password']);
  });

  it('when the change is valid, then the new bcrypt hash is stored, other sessions end, this one stays, and the notice is mailed', async () => {
    try {
      const here = await request(t.app).post('/api/v1/auth/login').send({ email: 'other-buyer@example.com', password: FIXTURE_PASSWORD });
      const elsewhere = await request(t.app)
        .post('/api/v1/auth/login')
        .send({ email: 'other-buyer@example.com', password: FIXTURE_PASSWORD });
      const before = t.mail.length;
      const res = await request(t.app)
        .post('/api/v1/me/password')
        .set('Authorization', `Bearer ${here.body.access_token}`)
        .send({ currentPassword: FIXTURE_PASSWORD, newPassword: 'Another#Pass9', confirmPassword: 'Another#Pass9' });
      expect(res.status).toBe(204);
      const hash = (await t.db('users').where({ id: f.users.otherBuyer.id }).first('password_hash'))!.password_hash;
      expect(hash).toMatch(/^\$2[aby]\$/);
      expect(await bcrypt.compare('Another#Pass9', hash)).toBe(true);
      // Sessions of the two sign-ins above (earlier tests' tokenFor() sessions of this user are ended too).
      const sessions = await t.db('auth_sessions').where({ user_id: f.users.otherBuyer.id }).whereNotNull('ip');
      const live = sessions.filter((s) => !s.revoked_at);
      expect(live).toHaveLength(1);
      expect(sessions.filter((s) => s.revoked_reason === 'password_changed')).toHaveLength(1);
      expect(await t.db('auth_sessions').where({ user_id: f.users.otherBuyer.id }).whereNull('revoked_at')).toHaveLength(1);
      const refreshHere = await request(t.app)
        .post('/api/v1/auth/refresh')
        .set('Cookie', [].concat(here.headers['set-cookie'] as never)[0]);
      const refreshElsewhere = await request(t.app)
        .post('/api/v1/auth/refresh')
        .set('Cookie', [].concat(elsewhere.headers['set-cookie'] as never)[0]);
      expect([refreshHere.status, refreshElsewhere.status]).toEqual([200, 401]);
      expect(t.mail.slice(before)).toEqual([expect.objectContaining({ to: 'other-buyer@example.com', template: 'password_changed' })]);
      expect(await t.db('audit_log').where({ action: 'auth.password_changed', user_id: f.users.otherBuyer.id })).toHaveLength(1);
      expect(await loginAs(t.app, 'other-buyer@example.com', 'Another#Pass9')).toEqual(expect.any(String));
    } finally {
      // Restore the fixture password for the other tests (they send it as the current password).
      await t
        .db('users')
        .where({ id: f.users.otherBuyer.id })
        .update({ password_hash: await bcrypt.hash(FIXTURE_PASSWORD, 4) });
    }
  });
});

describe('roles and permissions', () => {
  it('when a user holds several roles, then /me/roles lists them sorted by role_level descending with the processed fields', async () => {
    // The demo manager holds store_manager at the stores of their two outlets and shops there as an outlet viewer.
    const roles = await t.db('roles').whereIn('code', ['store_manager', 'outlet_viewer']).select('id', 'code');
    {
      const res = await get('/me/roles', 'manager');
      expect(res.status).toBe(200);
      expect(res.body.items.map((r: { roleCode: string; roleLevel: number }) => [r.roleCode, r.roleLevel])).toEqual([
        ['outlet_viewer', 60],
        ['store_manager', 20],
      ]);
      expect(res.body.items[0]).toEqual({
        id: String(roles.find((r) => r.code === 'outlet_viewer')!.id),
        roleCode: 'outlet_viewer',
        roleName: 'Outlet Viewer',
        description: expect.any(String),
        roleLevel: 60,
        permissions: [],
        scopeType: 'outlet',
        scopeCount: 2,
      });
      expect(res.body.items[1]).toMatchObject({ roleCode: 'store_manager', scopeType: 'store', scopeCount: 2 });
    }
  });

  it('when codes are asked, then /me/permissions lists them and /me/permissions/{code} answers granted true or false', async () => {
    const codes = await get('/me/permissions', 'viewer');
    expect(codes.status).toBe(200);
    expect(codes.body.codes).toEqual(expect.arrayContaining(['bcc.carts.use']));
    expect(codes.body.codes).not.toContain('bcc.carts.checkout');
    expect((await get('/me/permissions/bcc.carts.checkout', 'buyer')).body).toEqual({ granted: true });
    expect((await get('/me/permissions/bcc.carts.checkout', 'viewer')).body).toEqual({ granted: false });
    expect((await get('/me/permissions/bcc.no.such', 'admin')).body).toEqual({ granted: false });
    expect((await get('/me/permissions', 'noRoles')).body).toEqual({ codes: [], global: [], boards: [], stores: [], outlets: [] });
  });

  it('when a user lacks bcc.outlets.read_assigned, then the outlet and selection routes answer 403', async () => {
    for (const res of [
      await get('/me/outlets', 'noRoles'),
      await get('/me/selection', 'noRoles'),
      await send('put', '/me/selection', 'noRoles', { outletId: f.outlets.dsm, storeId: null }),
    ]) {
      expect(res.status).toBe(403);
      expect(problem(res).code).toBe('forbidden');
    }
  });
});

describe('GET /me/outlets', () => {
  it('when the buyer asks, then it lists the assigned active outlets by name, with board name and only active stores', async () => {
    const res = await get('/me/outlets', 'buyer');
    expect(res.status).toBe(200);
    expect(res.body.items.map((o: { outletCode: string }) => o.outletCode)).toEqual(['DEMO-AMS-01', 'DEMO-DSM-01']);
    const dsm = res.body.items[1];
    expect(dsm).toEqual({
      outletId: f.outlets.dsm,
      outletCode: 'DEMO-DSM-01',
      outletName: 'Demo – Court Avenue Taproom',
      isAdminOutlet: false,
      outletActive: true,
      outletCity: 'DES MOINES',
      outletState: 'IA',
      outletPhone: '(515) 555-0142',
      outletEmail: 'taproom@example.com',
      boardName: BOARD,
      defaultStoreId: FIXTURE_STORES.central,
      storeIds: [FIXTURE_STORES.central],
      storeNames: ['CENTRAL CITY LIQUOR, INC.'],
      storeCodes: [expect.any(String)],
    });
    expect(dsm.storeIds).not.toContain(FIXTURE_STORES.inactive);
    expect(res.body.items[0].storeIds).toEqual([FIXTURE_STORES.central, FIXTURE_STORES.cyclone]); // ordered by store name
  });

  it('when an outlet with no store is granted (a new outlet, requested and approved), then it is listed after the outlets with stores, whatever its name', async () => {
    const [bare] = await t.db('outlets').insert({ outlet_code: 'AAA-BARE-01', name: 'AAA Bare Outlet' }).returning('id');
    const viewer = await t.db('roles').where({ code: 'outlet_viewer' }).first('id');
    await t.db('role_grants').insert({ user_id: f.users.buyer.id, role_id: viewer!.id, scope_type: 'outlet', outlet_id: bare.id });
    try {
      const res = await get('/me/outlets', 'buyer');
      expect(res.body.items.map((o: { outletCode: string }) => o.outletCode)).toEqual(['DEMO-AMS-01', 'DEMO-DSM-01', 'AAA-BARE-01']);
      expect(res.body.items[2].storeIds).toEqual([]);
    } finally {
      await t.db('role_grants').where({ outlet_id: bare.id }).delete();
      await t.db('outlets').where({ id: bare.id }).delete();
    }
  });

  it('when an assigned outlet is inactive, then it is not listed', async () => {
    const viewer = await t.db('roles').where({ code: 'outlet_viewer' }).first('id');
    await t
      .db('role_grants')
      .insert({ user_id: f.users.otherManager.id, role_id: viewer!.id, scope_type: 'outlet', outlet_id: f.outlets.inactive });
    const res = await get('/me/outlets', 'otherManager');
    expect(res.body.items.map((o: { outletId: number }) => o.outletId)).toEqual([f.outlets.dav]);
  });
});

describe('selection', () => {
  it('when nothing is saved, then GET picks the first accessible outlet and its default store and saves them', async () => {
    // Nothing saved: no choice on the profile nor on the outlet assignments (other tests save some).
    await t
      .db('user_profiles')
      .where({ user_id: f.users.buyer.id })
      .update({ last_selected_outlet_id: null, last_selected_store_id: null });
    await t.db('user_outlets').where({ user_id: f.users.buyer.id }).update({ last_selected_store_id: null });
    const res = await get('/me/selection', 'buyer');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ outletId: f.outlets.ams, storeId: FIXTURE_STORES.cyclone });
    expect(await profileRow(f.users.buyer.id)).toMatchObject({
      last_selected_outlet_id: f.outlets.ams,
      last_selected_store_id: FIXTURE_STORES.cyclone,
    });
  });

  it('when a linked store is chosen, then it is saved on the profile and on the outlet assignment', async () => {
    const res = await send('put', '/me/selection', 'buyer', { outletId: f.outlets.ams, storeId: FIXTURE_STORES.central });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ outletId: f.outlets.ams, storeId: FIXTURE_STORES.central });
    expect((await get('/me/selection', 'buyer')).body).toEqual({ outletId: f.outlets.ams, storeId: FIXTURE_STORES.central });
    expect(await t.db('user_outlets').where({ user_id: f.users.buyer.id, outlet_id: f.outlets.ams }).first()).toMatchObject({
      last_selected_store_id: FIXTURE_STORES.central,
    });
  });

  it('when the outlet is switched without a store, then the store resets and falls back (assignment last store, else default store)', async () => {
    // The last store chosen on AMS is Central City (saved on the assignment), none on DSM.
    await t.db('user_outlets').where({ user_id: f.users.buyer.id }).update({ last_selected_store_id: null });
    await t
      .db('user_outlets')
      .where({ user_id: f.users.buyer.id, outlet_id: f.outlets.ams })
      .update({ last_selected_store_id: FIXTURE_STORES.central });
    const toDsm = await send('put', '/me/selection', 'buyer', { outletId: f.outlets.dsm, storeId: null });
    expect(toDsm.body).toEqual({ outletId: f.outlets.dsm, storeId: FIXTURE_STORES.central }); // DSM's default (its only active store)
    const back = await send('put', '/me/selection', 'buyer', { outletId: f.outlets.ams, storeId: null });
    expect(back.body).toEqual({ outletId: f.outlets.ams, storeId: FIXTURE_STORES.central }); // the last store chosen on AMS
  });

  it("when another user's outlet, an unassigned or inactive outlet, or a store not linked to the outlet is chosen, then it answers 404 and nothing is saved", async () => {
    const saved = await profileRow(f.users.buyer.id);
    const cases = [
      { outletId: f.outlets.dav, storeId: null },
      { outletId: f.outlets.unassigned, storeId: null },
      { outletId: f.outlets.inactive, storeId: null },
      { outletId: 999999999, storeId: null },
      { outletId: f.outlets.dsm, storeId: FIXTURE_STORES.cyclone }, // linked to AMS, not DSM
      { outletId: f.outlets.dsm, storeId: FIXTURE_STORES.inactive }, // linked to DSM but inactive
      { outletId: f.outlets.ams, storeId: FIXTURE_STORES.davenport }, // another user's store
    ];
    for (const body of cases) {
      const res = await send('put', '/me/selection', 'buyer', body);
      expect([body, res.status, problem(res).code]).toEqual([body, 404, 'not_found']);
    }
    expect(await profileRow(f.users.buyer.id)).toMatchObject({
      last_selected_outlet_id: saved!.last_selected_outlet_id,
      last_selected_store_id: saved!.last_selected_store_id,
    });
  });

  it('when the body is malformed, then it answers 400', async () => {
    expect((await send('put', '/me/selection', 'buyer', { outletId: 'x', storeId: null })).status).toBe(400);
    expect((await send('put', '/me/selection', 'buyer', { outletId: f.outlets.ams })).status).toBe(400);
  });

  it('when the saved choice is no longer valid, then GET clears it and falls back to the first accessible outlet', async () => {
    await t
      .db('user_profiles')
      .where({ user_id: f.users.viewer.id })
      .update({ last_selected_outlet_id: f.outlets.dav, last_selected_store_id: FIXTURE_STORES.davenport });
    const res = await get('/me/selection', 'viewer');
    expect(res.body).toEqual({ outletId: f.outlets.ams, storeId: FIXTURE_STORES.cyclone });
    expect(await profileRow(f.users.viewer.id)).toMatchObject({
      last_selected_outlet_id: f.outlets.ams,
      last_selected_store_id: FIXTURE_STORES.cyclone,
    });
    // A saved store that became inactive falls back to the outlet's default store.
    await t
      .db('user_profiles')
      .where({ user_id: f.users.viewer.id })
      .update({ last_selected_outlet_id: f.outlets.dsm, last_selected_store_id: FIXTURE_STORES.inactive });
    expect((await get('/me/selection', 'viewer')).body).toEqual({ outletId: f.outlets.dsm, storeId: FIXTURE_STORES.central });
  });

  it('when the user has no accessible outlet, then the selection is empty and saved choices are cleared', async () => {
    const [u] = await t.db('users').insert({ email: 'lonely@example.com', password_hash: 'x' }).returning('id');
    // A store staff member: reads outlets (bcc.outlets.read_assigned) but belongs to none.
    const role = await t.db('roles').where({ code: 'store_staff' }).first('id');
    await t.db('role_grants').insert({ user_id: u.id, role_id: role!.id, scope_type: 'store', store_id: FIXTURE_STORES.central });
    await t
      .db('user_profiles')
      .insert({ user_id: u.id, last_selected_outlet_id: f.outlets.dsm, last_selected_store_id: FIXTURE_STORES.central });
    const res = await request(t.app)
      .get('/api/v1/me/selection')
      .set('Authorization', `Bearer ${tokenFor(t, { id: u.id, email: 'lonely@example.com' })}`);
    expect(res.body).toEqual({ outletId: null, storeId: null });
    expect(await profileRow(u.id)).toMatchObject({ last_selected_outlet_id: null, last_selected_store_id: null });
  });
});

describe('outlet requests', () => {
  it('when the buyer asks for requestable outlets, then only active outlets not already assigned are listed, with board name', async () => {
    const res = await get('/me/requestable-outlets', 'buyer');
    expect(res.status).toBe(200);
    const ids = res.body.items.map((o: { outletId: number }) => o.outletId);
    expect(ids).toEqual(expect.arrayContaining([f.outlets.dav, f.outlets.unassigned]));
    expect(ids).not.toContain(f.outlets.dsm);
    expect(ids).not.toContain(f.outlets.ams);
    expect(ids).not.toContain(f.outlets.inactive);
    expect(ids).not.toContain(f.outlets.admin);
    expect(res.body.items.find((o: { outletId: number }) => o.outletId === f.outlets.unassigned)).toEqual({
      outletId: f.outlets.unassigned,
      outletName: 'Test – Open Cellar',
      outletCode: 'TEST-OPEN',
      boardName: BOARD,
    });
  });

  it('when the system admin outlet is requested, then it is refused with 404 and nothing is stored', async () => {
    const res = await send('post', '/me/outlet-requests', 'buyer', { outletId: f.outlets.admin });
    expect(res.status).toBe(404);
    expect(await t.db('outlet_requests').where({ outlet_id: f.outlets.admin }).first()).toBeUndefined();
  });

  it('when an outlet is requested, then a pending request is stored, audited, and the administrators who manage it are mailed', async () => {
    // The buyer has no request yet (another test stores one).
    await t.db('outlet_requests').where({ user_id: f.users.buyer.id }).del();
    const before = t.mail.length;
    const res = await send('post', '/me/outlet-requests', 'buyer', { outletId: f.outlets.unassigned });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      outletId: f.outlets.unassigned,
      outletName: 'Test – Open Cellar',
      status: 'pending',
      createdAt: expect.any(String),
    });
    expect(await t.db('outlet_requests').where({ id: res.body.id }).first()).toMatchObject({
      user_id: f.users.buyer.id,
      outlet_id: f.outlets.unassigned,
      status: 'pending',
    });
    const mails = t.mail.slice(before);
    // The administrators who may manage that outlet: the super administrator and the manager of its store.
    expect(mails.map((m) => m.to).sort()).toEqual(['admin@example.com', 'manager@example.com']);
    expect(mails[0]).toMatchObject({ template: 'outlet_request' });
    expect(mails[0].text).toContain('Blake Buyer (buyer@example.com)');
    expect(mails[0].text).toContain('Test – Open Cellar (TEST-OPEN)');
    expect(await t.db('audit_log').where({ action: 'outlet_request.created', user_id: f.users.buyer.id })).toHaveLength(1);
  });

  it('when the same outlet is requested again, or an assigned one, then it answers 409; an inactive or unknown one 404; a missing id 400', async () => {
    // The buyer's one pending request for the open outlet.
    await t.db('outlet_requests').where({ user_id: f.users.buyer.id }).del();
    await t.db('outlet_requests').insert({ user_id: f.users.buyer.id, outlet_id: f.outlets.unassigned });
    const again = await send('post', '/me/outlet-requests', 'buyer', { outletId: f.outlets.unassigned });
    expect([again.status, problem(again).detail]).toEqual([409, 'You have already requested access to this outlet.']);
    const assigned = await send('post', '/me/outlet-requests', 'buyer', { outletId: f.outlets.dsm });
    expect([assigned.status, problem(assigned).detail]).toEqual([409, 'You already have access to this outlet.']);
    expect((await send('post', '/me/outlet-requests', 'buyer', { outletId: f.outlets.inactive })).status).toBe(404);
    expect((await send('post', '/me/outlet-requests', 'buyer', { outletId: 999999999 })).status).toBe(404);
    const missing = await send('post', '/me/outlet-requests', 'buyer', {});
    expect([missing.status, problem(missing).detail]).toEqual([400, 'Please select a valid outlet.']);
    expect(await t.db('outlet_requests').where({ user_id: f.users.buyer.id })).toHaveLength(1);
  });
});
