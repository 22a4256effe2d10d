import request from 'supertest';
import bcrypt from 'bcrypt';
import { PROBLEM_CODES, AUTH_MESSAGES, INVITATION_MESSAGES } from '@portal/contracts';
import { createTestContext, FIXTURE_PASSWORD, loginAs, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';

let t: TestContext;
let f: Fixtures;
let roles: Record<string, number>;
beforeAll(async () => {
  t = await createTestContext();
  f = await seedFixtures(t.db);
  roles = Object.fromEntries((await t.db('roles').select('id', 'code')).map((r) => [r.code, r.id]));
});
afterAll(async () => {
  await t.close();
});

type User = keyof Fixtures['users'];
const as = (user: User) => ({ Authorization: `Bearer ${tokenFor(t, f.users[user])}` });
const api = (method: 'get' | 'post' | 'delete', path: string, user?: User, body?: unknown) => {
  const r = request(t.app)[method](`/api/v1${path}`);
  if (user) r.set(as(user));
  return body === undefined ? r : r.send(body as object);
};
const STRONG = 'Welcome#2026x';
let seq = 0;
const newEmail = () => `invitee-${++seq}-${Date.now().toString(36)}@example.com`;
const tokenOf = (text: string) => /inv=([A-Za-z0-9_-]{20,})/.exec(text)?.[1];
const lastMailTo = (to: string, template?: string) =>
  [...t.mail].reverse().find((m) => m.to === to && (!template || m.template === template));
const invitationRow = (id: string) => t.db('invitations').where({ id }).first();

/** Admin invites `email` as a buyer of the Des Moines outlet; returns the created row and the mailed token. */
async function invite(email: string, by: User = 'admin', body: Record<string, unknown> = {}) {
  const res = await api('post', '/invitations', by, {
    email,
    firstName: 'Ivy',
    lastName: 'Invitee',
    roleIds: [roles.outlet_buyer],
    outletIds: [f.outlets.dsm],
    ...body,
  });
  const mail = lastMailTo(email, 'invitation');
  return { res, token: mail ? tokenOf(mail.text) : undefined };
}

describe('GET /invitations/options', () => {
  it('when a super administrator asks, then every role and every active outlet (with the admin outlet) is offered', async () => {
    const res = await api('get', '/invitations/options', 'admin');
    expect(res.status).toBe(200);
    expect(res.body.roles.map((r: { code: string }) => r.code)).toEqual([
      'super_admin',
      'board_admin',
      'store_manager',
      'store_staff',
      'outlet_manager',
      'outlet_buyer',
      'outlet_viewer',
    ]);
    expect(res.body.roles.find((r: { code: string }) => r.code === 'super_admin')).toMatchObject({
      name: 'Super Administrator',
      level: 0,
      grantsAdminOutlet: true,
    });
    const ids = res.body.outlets.map((o: { id: number }) => o.id);
    expect(ids).toEqual(expect.arrayContaining([f.outlets.dsm, f.outlets.ams, f.outlets.dav, f.outlets.admin, f.outlets.unassigned]));
    expect(ids).not.toContain(f.outlets.inactive);
  });

  it('when a store manager asks, then only roles at or below their level and the outlets of their stores are offered', async () => {
    const res = await api('get', '/invitations/options', 'manager');
    expect(res.status).toBe(200);
    expect(res.body.roles.map((r: { code: string }) => r.code)).toEqual([
      'store_manager',
      'store_staff',
      'outlet_manager',
      'outlet_buyer',
      'outlet_viewer',
    ]);
    const ids = res.body.outlets.map((o: { id: number }) => o.id).sort();
    expect(ids).toEqual([f.outlets.dsm, f.outlets.ams, f.outlets.unassigned].sort());
  });

  it('when an inviter holds only bcc.users.allow_invites, then only their own outlets and roles at or below their level are offered', async () => {
    const [role] = await t
      .db('roles')
      .insert({ code: 'test_inviter', role_name: 'Test Inviter', role_level: 45, scope_type: 'outlet' })
      .returning('id');
    const perm = await t.db('permissions').where({ code: 'bcc.users.allow_invites' }).first('id');
    await t.db('role_permissions').insert({ role_id: role.id, permission_id: perm!.id });
    await t.db('role_grants').insert({ user_id: f.users.noRoles.id, role_id: role.id, scope_type: 'outlet', outlet_id: f.outlets.dsm });
    try {
      const res = await api('get', '/invitations/options', 'noRoles');
      expect(res.status).toBe(200);
      expect(res.body.outlets.map((o: { id: number }) => o.id)).toEqual([f.outlets.dsm]);
      expect(res.body.roles.map((r: { code: string }) => r.code)).toEqual(['test_inviter', 'outlet_buyer', 'outlet_viewer']);
      const esc = await api('post', '/invitations', 'noRoles', {
        email: newEmail(),
        firstName: 'A',
        lastName: 'B',
        roleIds: [roles.outlet_manager],
        outletIds: [f.outlets.dsm],
      });
      expect([esc.status, esc.body.code]).toEqual([403, PROBLEM_CODES.roleNotGrantable]);
    } finally {
      await t.db('role_grants').where({ role_id: role.id }).del();
      await t.db('roles').where({ id: role.id }).del();
    }
  });

  it('when a buyer (no bcc.users.allow_invites) asks, then 403', async () => {
    const res = await api('get', '/invitations/options', 'buyer');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
  });
});

describe('POST /invitations', () => {
  it('when an administrator invites, then the row stores only the token hash, the link is mailed and the invitation audited', async () => {
    const email = newEmail();
    const { res, token } = await invite(email);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), email, expiresAt: expect.any(String) });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await invitationRow(res.body.id);
    expect(row).toMatchObject({
      email,
      first_name: 'Ivy',
      last_name: 'Invitee',
      role_ids: [roles.outlet_buyer],
      outlet_ids: [f.outlets.dsm],
      invited_by: f.users.admin.id,
      used_at: null,
      revoked_at: null,
    });
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.token_hash).not.toContain(token);
    const days = (new Date(row!.expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const mail = lastMailTo(email, 'invitation')!;
    expect(mail.text).toContain(`/invitation/accept?inv=${token}`);
    expect(mail.text).toContain('Outlet Buyer');
    expect(mail.text).toContain('Demo – Court Avenue Taproom');
    const audit = await t.db('audit_log').where({ action: 'invitation.created', entity_id: res.body.id }).first();
    expect(audit).toMatchObject({ user_id: f.users.admin.id });
    expect(JSON.stringify(audit!.details)).not.toContain(token!);
  });

  it.each([
    ['without an outlet', { outletIds: [] }, INVITATION_MESSAGES.outletRequired],
    ['without a role', { roleIds: [] }, INVITATION_MESSAGES.missingInfo],
    ['with a blank first name', { firstName: '  ' }, INVITATION_MESSAGES.missingInfo],
    ['with a malformed email', { email: 'not-an-email' }, INVITATION_MESSAGES.invalidEmail],
    ['with an unknown field', { storeIds: '' }, undefined],
  ])('when the body is sent %s, then 400 with the spec message and nothing is stored', async (_name, patch, message) => {
    const email = newEmail();
    const before = await t.db('invitations').count<{ n: string }[]>('* as n');
    const res = await api('post', '/invitations', 'admin', {
      email,
      firstName: 'Ivy',
      lastName: 'Invitee',
      roleIds: [roles.outlet_buyer],
      outletIds: [f.outlets.dsm],
      ...patch,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    if (message) expect(res.body.errors.map((e: { message: string }) => e.message)).toContain(message);
    expect(await t.db('invitations').count<{ n: string }[]>('* as n')).toEqual(before);
  });

  it('when a role or an outlet does not exist, then 400 validation_failed naming it', async () => {
    const r1 = await api('post', '/invitations', 'admin', {
      email: newEmail(),
      firstName: 'A',
      lastName: 'B',
      roleIds: [99999],
      outletIds: [f.outlets.dsm],
    });
    expect([r1.status, r1.body.code, r1.body.detail]).toEqual([400, 'validation_failed', INVITATION_MESSAGES.unknownRole(99999)]);
    const r2 = await api('post', '/invitations', 'admin', {
      email: newEmail(),
      firstName: 'A',
      lastName: 'B',
      roleIds: [roles.outlet_buyer],
      outletIds: [f.outlets.inactive],
    });
    expect([r2.status, r2.body.code, r2.body.detail]).toEqual([
      400,
      'validation_failed',
      INVITATION_MESSAGES.unknownOutlet(f.outlets.inactive),
    ]);
  });

  it('when a store manager invites a super administrator, then 403 role_not_grantable and no invitation', async () => {
    const email = newEmail();
    const res = await api('post', '/invitations', 'manager', {
      email,
      firstName: 'E',
      lastName: 'S',
      roleIds: [roles.super_admin],
      outletIds: [f.outlets.dsm],
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: PROBLEM_CODES.roleNotGrantable,
      detail: INVITATION_MESSAGES.roleNotGrantable('Super Administrator'),
    });
    expect(await t.db('invitations').where({ email }).first()).toBeUndefined();
    expect(lastMailTo(email)).toBeUndefined();
  });

  it('when a store manager invites to an outlet outside their stores, then 403 outlet_not_grantable naming it', async () => {
    const email = newEmail();
    const res = await api('post', '/invitations', 'manager', {
      email,
      firstName: 'E',
      lastName: 'S',
      roleIds: [roles.outlet_buyer],
      outletIds: [f.outlets.dsm, f.outlets.dav],
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: PROBLEM_CODES.outletNotGrantable,
      detail: INVITATION_MESSAGES.outletNotGrantable('Demo – Riverfront Oyster Bar'),
    });
    expect(await t.db('invitations').where({ email }).first()).toBeUndefined();
    const admin = await api('post', '/invitations', 'manager', {
      email,
      firstName: 'E',
      lastName: 'S',
      roleIds: [roles.outlet_buyer],
      outletIds: [f.outlets.admin],
    });
    expect(admin.status).toBe(403);
  });

  it('when a store manager invites within their scope, then 201', async () => {
    // A store role is held at a store (ARCHITECTURE §11): the manager's own store 4129, not an outlet.
    const { res } = await invite(newEmail(), 'manager', {
      roleIds: [roles.store_staff],
      outletIds: [],
      storeIds: [FIXTURE_STORES.cyclone],
    });
    expect(res.status).toBe(201);
  });

  it('when a buyer invites, then 403 and no row; without a token 401', async () => {
    const email = newEmail();
    expect((await invite(email, 'buyer')).res.status).toBe(403);
    expect(
      (await api('post', '/invitations', undefined, { email, firstName: 'A', lastName: 'B', roleIds: [1], outletIds: [1] })).status,
    ).toBe(401);
    expect(await t.db('invitations').where({ email }).first()).toBeUndefined();
  });

  it('when an email with a pending invitation is invited again, then the first link stops working', async () => {
    const email = newEmail();
    const first = await invite(email);
    const second = await invite(email, 'admin', { roleIds: [roles.outlet_viewer] });
    expect(second.res.status).toBe(201);
    expect(second.token).not.toBe(first.token);
    const old = await api('get', `/invitations/${first.token}`);
    expect([old.status, old.body.code]).toEqual([409, PROBLEM_CODES.invitationRevoked]);
    expect(await invitationRow(first.res.body.id)).toMatchObject({ revoked_reason: 'replaced' });
    expect((await api('get', `/invitations/${second.token}`)).status).toBe(200);
  });
});

describe('GET /invitations/{token} (public)', () => {
  it('when read twice (a mail scanner), then it answers the invitation with labels and changes nothing', async () => {
    const email = newEmail();
    const { res, token } = await invite(email, 'admin', {
      roleIds: [roles.outlet_buyer, roles.outlet_viewer],
      outletIds: [f.outlets.dsm, f.outlets.ams],
    });
    const before = await invitationRow(res.body.id);
    const g1 = await api('get', `/invitations/${token}`);
    const g2 = await api('get', `/invitations/${token}`);
    expect(g1.status).toBe(200);
    expect(g1.body).toEqual({
      email,
      firstName: 'Ivy',
      lastName: 'Invitee',
      roleLabels: ['Outlet Buyer', 'Outlet Viewer'],
      outletLabels: ['Demo – Campustown Bistro', 'Demo – Court Avenue Taproom'],
      storeLabels: [],
      boardLabels: [],
      userExists: false,
      expiresAt: new Date(before!.expires_at).toISOString(),
    });
    expect(g2.body).toEqual(g1.body);
    expect(await invitationRow(res.body.id)).toEqual(before);
  });

  it('when the token is unknown or malformed, then 404 invitation_not_found with the spec text', async () => {
    for (const tok of ['notarealtoken0000000000000000000000000000000', 'x']) {
      const res = await api('get', `/invitations/${tok}`);
      expect([res.status, res.body.code, res.body.detail]).toEqual([404, PROBLEM_CODES.invitationNotFound, INVITATION_MESSAGES.notFound]);
    }
  });

  it('when the invitation expired, then 410 invitation_expired and it cannot be accepted', async () => {
    const { res, token } = await invite(newEmail());
    await t
      .db('invitations')
      .where({ id: res.body.id })
      .update({ created_at: t.db.raw("now() - interval '8 days'"), expires_at: t.db.raw("now() - interval '1 day'") });
    const g = await api('get', `/invitations/${token}`);
    expect([g.status, g.body.code, g.body.detail]).toEqual([410, PROBLEM_CODES.invitationExpired, INVITATION_MESSAGES.expired]);
    const a = await api('post', `/invitations/${token}/accept`, undefined, {
      firstName: 'I',
      lastName: 'I',
      password: STRONG,
      confirmPassword: STRONG,
    });
    expect(a.status).toBe(410);
    expect((await invitationRow(res.body.id))!.used_at).toBeNull();
  });
});

describe('POST /invitations/{token}/accept', () => {
  it.each([
    ['a weak password', { password: 'password', confirmPassword: 'password' }, 'password', AUTH_MESSAGES.passwordUpper],
    ['a short password', { password: 'Aa1!', confirmPassword: 'Aa1!' }, 'password', AUTH_MESSAGES.passwordMin],
    ['mismatched passwords', { password: STRONG, confirmPassword: `${STRONG}x` }, 'confirmPassword', AUTH_MESSAGES.passwordsDontMatch],
    ['a blank first name', { firstName: ' ', password: STRONG, confirmPassword: STRONG }, 'firstName', AUTH_MESSAGES.firstNameRequired],
    ['no password for a new account', {}, 'password', INVITATION_MESSAGES.passwordRequired],
    ['a common password', { password: 'Password1!', confirmPassword: 'Password1!' }, 'password', AUTH_MESSAGES.commonPassword],
  ])('when a new person sends %s, then 400 on that field and nothing is created', async (_n, patch, path, message) => {
    const email = newEmail();
    const { res, token } = await invite(email);
    const a = await api('post', `/invitations/${token}/accept`, undefined, { firstName: 'Ivy', lastName: 'Invitee', ...patch });
    expect(a.status).toBe(400);
    expect(a.body.errors).toEqual(expect.arrayContaining([{ path, message }]));
    expect(await t.db('users').where({ email }).first()).toBeUndefined();
    expect((await invitationRow(res.body.id))!.used_at).toBeNull();
  });

  it('when a new person accepts with a phone another active account signs in with, then 409 phone_taken and nothing is created', async () => {
    await t.db('users').where({ id: f.users.viewer.id }).update({ phone: '+15155550177' });
    const email = newEmail();
    const { res, token } = await invite(email);
    const a = await api('post', `/invitations/${token}/accept`, undefined, {
      firstName: 'Ivy',
      lastName: 'Invitee',
      phone: '(515) 555-0177',
      password: STRONG,
      confirmPassword: STRONG,
    });
    expect(a.status).toBe(409);
    expect(a.body.code).toBe('phone_taken');
    expect(await t.db('users').where({ email }).first()).toBeUndefined();
    expect((await invitationRow(res.body.id))!.used_at).toBeNull();
    await t.db('users').where({ id: f.users.viewer.id }).update({ phone: null });
  });

  it('when a new person accepts, then the account, profile, roles and outlets exist, the link is used, the welcome mail is queued and they can sign in', async () => {
    const email = newEmail();
    const { res, token } = await invite(email);
    const a = await api('post', `/invitations/${token}/accept`, undefined, {
      firstName: ' Ivy ',
      lastName: 'Invitee',
      phone: '515-555-0100',
      password: STRONG,
      confirmPassword: STRONG,
    });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ userId: expect.any(String), isNewUser: true });
    const user = await t.db('users').where({ email }).first();
    expect(user!.id).toBe(a.body.userId);
    expect(await bcrypt.compare(STRONG, user!.password_hash)).toBe(true);
    expect(await t.db('user_profiles').where({ user_id: user!.id }).first()).toMatchObject({
      first_name: 'Ivy',
      last_name: 'Invitee',
      full_name: 'Ivy Invitee',
      phone: '+15155550100',
    });
    expect(await t.db('role_grants').where({ user_id: user!.id }).select('role_id', 'scope_type', 'outlet_id', 'granted_by')).toEqual([
      { role_id: roles.outlet_buyer, scope_type: 'outlet', outlet_id: f.outlets.dsm, granted_by: f.users.admin.id },
    ]);
    expect(await t.db('user_outlets').where({ user_id: user!.id }).pluck('outlet_id')).toEqual([f.outlets.dsm]);
    expect(await invitationRow(res.body.id)).toMatchObject({ accepted_user_id: user!.id, used_at: expect.any(Date) });
    expect(lastMailTo(email, 'welcome')?.text).toContain('Your ordering portal account is ready.');
    expect(
      await t.db('audit_log').where({ action: 'invitation.accepted', entity_id: res.body.id, user_id: user!.id }).first(),
    ).toBeTruthy();
    const bearer = await loginAs(t.app, email, STRONG);
    const outlets = await request(t.app).get('/api/v1/me/outlets').set('Authorization', `Bearer ${bearer}`);
    expect(outlets.body.items.map((o: { outletId: number }) => o.outletId)).toEqual([f.outlets.dsm]);
    const again = await api('post', `/invitations/${token}/accept`, undefined, {
      firstName: 'Ivy',
      lastName: 'Invitee',
      password: STRONG,
      confirmPassword: STRONG,
    });
    expect([again.status, again.body.code, again.body.detail]).toEqual([409, PROBLEM_CODES.invitationUsed, INVITATION_MESSAGES.used]);
    expect((await api('get', `/invitations/${token}`)).status).toBe(409);
  });

  it('when two accepts of one link run at once, then exactly one account and one use', async () => {
    const email = newEmail();
    const { token } = await invite(email);
    const body = { firstName: 'Ivy', lastName: 'Invitee', password: STRONG, confirmPassword: STRONG };
    const results = await Promise.all([1, 2, 3].map(() => api('post', `/invitations/${token}/accept`, undefined, body)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await t.db('users').where({ email }).pluck('email')).toEqual([email]);
    expect(await t.db('audit_log').where({ action: 'invitation.accepted', actor_email: email }).pluck('action')).toEqual([
      'invitation.accepted',
    ]);
    expect(t.mail.filter((m) => m.to === email && m.template === 'welcome')).toHaveLength(1);
  });

  it('when an existing user accepts, then their password is kept, the profile updated and the roles and outlets added', async () => {
    const { res, token } = await invite('viewer@example.com', 'admin', { roleIds: [roles.outlet_buyer], outletIds: [f.outlets.dav] });
    expect(res.status).toBe(201);
    expect((await api('get', `/invitations/${token}`)).body.userExists).toBe(true);
    const hashBefore = (await t.db('users').where({ id: f.users.viewer.id }).first())!.password_hash;
    const a = await api('post', `/invitations/${token}/accept`, undefined, { firstName: 'Valerie', lastName: 'Viewer' });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ userId: f.users.viewer.id, isNewUser: false });
    expect((await t.db('users').where({ id: f.users.viewer.id }).first())!.password_hash).toBe(hashBefore);
    await loginAs(t.app, 'viewer@example.com', FIXTURE_PASSWORD);
    expect(await t.db('user_profiles').where({ user_id: f.users.viewer.id }).first()).toMatchObject({ first_name: 'Valerie', phone: null });
    // Granting adds only the new grant: a buyer at Davenport; the viewer grants at the two demo outlets stay as they were.
    expect(await t.db('role_grants').where({ user_id: f.users.viewer.id }).orderBy('outlet_id').select('role_id', 'outlet_id')).toEqual(
      expect.arrayContaining([
        { role_id: roles.outlet_viewer, outlet_id: f.outlets.dsm },
        { role_id: roles.outlet_viewer, outlet_id: f.outlets.ams },
        { role_id: roles.outlet_buyer, outlet_id: f.outlets.dav },
      ]),
    );
    expect(await t.db('role_grants').where({ user_id: f.users.viewer.id, role_id: roles.outlet_buyer }).pluck('outlet_id')).toEqual([
      f.outlets.dav,
    ]);
    expect(await t.db('user_outlets').where({ user_id: f.users.viewer.id }).pluck('outlet_id')).toEqual(
      expect.arrayContaining([f.outlets.dsm, f.outlets.ams, f.outlets.dav]),
    );
    expect(lastMailTo('viewer@example.com', 'welcome')?.subject).toBe('Your portal access was updated');
  });
});

describe('a deactivated account', () => {
  it('when the invited email belongs to a deactivated account, then accepting answers 409 invitee_deactivated and grants nothing', async () => {
    const { res, token } = await invite('inactive@example.com', 'admin', { outletIds: [f.outlets.dav] });
    expect(res.status).toBe(201);
    const a = await api('post', `/invitations/${token}/accept`, undefined, { firstName: 'In', lastName: 'Active' });
    expect([a.status, a.body.code, a.body.detail]).toEqual([409, 'invitee_deactivated', AUTH_MESSAGES.deactivated]);
    expect(await t.db('user_outlets').where({ user_id: f.users.inactive.id, outlet_id: f.outlets.dav }).first()).toBeUndefined();
    expect((await invitationRow(res.body.id))!.used_at).toBeNull();
  });
});

describe('/admin/invitations', () => {
  it('when an administrator resends, then a new link is mailed, the old one dies and the list shows it pending', async () => {
    const email = newEmail();
    const { res, token: oldToken } = await invite(email);
    const r = await api('post', `/admin/invitations/${res.body.id}/resend`, 'admin');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: res.body.id, email });
    const newToken = tokenOf(lastMailTo(email, 'invitation')!.text);
    expect(newToken).toBeDefined();
    expect(newToken).not.toBe(oldToken);
    expect((await api('get', `/invitations/${oldToken}`)).status).toBe(404);
    expect((await api('get', `/invitations/${newToken}`)).status).toBe(200);
    const list = await api('get', `/admin/invitations?status=pending&search=${encodeURIComponent(email)}`, 'admin');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({
      total: 1,
      page: 1,
      items: [
        {
          id: res.body.id,
          email,
          status: 'pending',
          roleLabels: ['Outlet Buyer'],
          outletLabels: ['Demo – Court Avenue Taproom'],
          invitedByEmail: 'admin@example.com',
        },
      ],
    });
    expect(await t.db('audit_log').where({ action: 'invitation.resent', entity_id: res.body.id }).first()).toBeTruthy();
  });

  it('when an administrator revokes, then 204, the link answers 409 invitation_revoked, and a second revoke or resend is 409', async () => {
    const { res, token } = await invite(newEmail());
    const d = await api('delete', `/admin/invitations/${res.body.id}`, 'admin');
    expect(d.status).toBe(204);
    expect(await invitationRow(res.body.id)).toMatchObject({ revoked_by: f.users.admin.id, revoked_reason: 'revoked' });
    const g = await api('get', `/invitations/${token}`);
    expect([g.status, g.body.code]).toEqual([409, PROBLEM_CODES.invitationRevoked]);
    expect((await api('delete', `/admin/invitations/${res.body.id}`, 'admin')).body.code).toBe(PROBLEM_CODES.invitationNotPending);
    expect((await api('post', `/admin/invitations/${res.body.id}/resend`, 'admin')).status).toBe(409);
    expect(await t.db('audit_log').where({ action: 'invitation.revoked', entity_id: res.body.id }).first()).toBeTruthy();
  });

  it('when an administrator of another store acts on an invitation outside their scope, then 404 and it stays pending; the list hides it', async () => {
    const email = newEmail();
    const { res, token } = await invite(email);
    expect((await api('delete', `/admin/invitations/${res.body.id}`, 'otherManager')).status).toBe(404);
    expect((await api('post', `/admin/invitations/${res.body.id}/resend`, 'otherManager')).status).toBe(404);
    expect((await api('get', `/invitations/${token}`)).status).toBe(200);
    const list = await api('get', `/admin/invitations?search=${encodeURIComponent(email)}`, 'otherManager');
    expect(list.body.total).toBe(0);
    const mgr = await api('get', `/admin/invitations?search=${encodeURIComponent(email)}`, 'manager');
    expect(mgr.body.total).toBe(1);
    expect((await api('get', '/admin/invitations', 'buyer')).status).toBe(403);
  });

  it('when the status filter is unknown, then 400', async () => {
    expect((await api('get', '/admin/invitations?status=nope', 'admin')).status).toBe(400);
  });
});

describe('outlet requests', () => {
  it('when a buyer requests an outlet, then the administrators who manage it are mailed, and only they see and decide it', async () => {
    t.mail.length = 0;
    const r = await api('post', '/me/outlet-requests', 'buyer', { outletId: f.outlets.unassigned });
    expect(r.status).toBe(201);
    const to = t.mail
      .filter((m) => m.template === 'outlet_request')
      .map((m) => m.to)
      .sort();
    expect(to).toEqual(['admin@example.com', 'manager@example.com']);

    const mine = await api('get', '/admin/outlet-requests?status=pending', 'manager');
    expect(mine.status).toBe(200);
    expect(mine.body.items).toEqual([
      expect.objectContaining({
        id: r.body.id,
        status: 'pending',
        userEmail: 'buyer@example.com',
        userName: 'Blake Buyer',
        outletId: f.outlets.unassigned,
        outletName: 'Test – Open Cellar',
      }),
    ]);
    expect((await api('get', '/admin/outlet-requests', 'otherManager')).body.items).toEqual([]);
    expect((await api('post', `/admin/outlet-requests/${r.body.id}/approve`, 'otherManager')).status).toBe(404);
    const self = await api('post', `/admin/outlet-requests/${r.body.id}/approve`, 'buyer');
    expect([self.status, self.body.code]).toEqual([403, 'forbidden']);

    const ok = await api('post', `/admin/outlet-requests/${r.body.id}/approve`, 'manager');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'approved', decidedByEmail: 'manager@example.com', decidedAt: expect.any(String) });
    expect(await t.db('user_outlets').where({ user_id: f.users.buyer.id, outlet_id: f.outlets.unassigned }).first()).toBeTruthy();
    expect(await t.db('outlet_requests').where({ id: r.body.id }).first()).toMatchObject({
      status: 'approved',
      decided_by: f.users.manager.id,
    });
    expect(lastMailTo('buyer@example.com', 'outlet_request_approved')?.text).toContain('Test – Open Cellar');
    expect(
      await t
        .db('audit_log')
        .where({ action: 'outlet_request.approved', entity_id: String(r.body.id) })
        .first(),
    ).toBeTruthy();

    const twice = await api('post', `/admin/outlet-requests/${r.body.id}/approve`, 'admin');
    expect([twice.status, twice.body.code]).toEqual([409, PROBLEM_CODES.outletRequestDecided]);
    expect((await api('post', `/admin/outlet-requests/${r.body.id}/reject`, 'admin', {})).status).toBe(409);
  });

  it('when an administrator rejects with a reason, then no outlet is linked and the requester is told why', async () => {
    const r = await api('post', '/me/outlet-requests', 'otherBuyer', { outletId: f.outlets.dsm });
    expect(r.status).toBe(201);
    const no = await api('post', `/admin/outlet-requests/${r.body.id}/reject`, 'admin', { reason: 'Not your venue' });
    expect(no.status).toBe(200);
    expect(no.body).toMatchObject({ status: 'rejected', reason: 'Not your venue' });
    expect(await t.db('user_outlets').where({ user_id: f.users.otherBuyer.id, outlet_id: f.outlets.dsm }).first()).toBeUndefined();
    expect(await t.db('outlet_requests').where({ id: r.body.id }).first()).toMatchObject({
      status: 'rejected',
      decision_reason: 'Not your venue',
    });
    expect(lastMailTo('other-buyer@example.com', 'outlet_request_rejected')?.text).toContain('Reason: Not your venue');
    const long = await api('post', `/admin/outlet-requests/${r.body.id}/reject`, 'admin', { reason: 'x'.repeat(501) });
    expect(long.status).toBe(400);
  });

  it('when the request id does not exist, then 404', async () => {
    expect((await api('post', '/admin/outlet-requests/999999/approve', 'admin')).status).toBe(404);
  });
});

describe('the queued invitation mail', () => {
  it('when an invitation is queued, then the job holds no token; the link is made when the mail is rendered, and not for a revoked invitation', async () => {
    const queued: unknown[] = [];
    const t2 = await createTestContext({
      mailer: {
        enqueue: async (_db, m) => {
          queued.push(m);
        },
      },
    });
    try {
      const f2 = await seedFixtures(t2.db);
      const bearer = { Authorization: `Bearer ${tokenFor(t2, f2.users.admin)}` };
      const roleId = (await t2.db('roles').where({ code: 'outlet_buyer' }).first('id'))!.id;
      const res = await request(t2.app)
        .post('/api/v1/invitations')
        .set(bearer)
        .send({ email: 'queued@example.com', firstName: 'Q', lastName: 'Ueued', roleIds: [roleId], outletIds: [f2.outlets.dsm] });
      expect(res.status).toBe(201);
      expect(queued).toEqual([
        {
          render: 'invitation',
          to: 'queued@example.com',
          data: { invitationId: res.body.id, linkBase: expect.any(String), inviterName: 'Alex Admin' },
        },
      ]);
      expect(JSON.stringify(queued)).not.toMatch(/inv=/);
      expect((await t2.db('invitations').where({ id: res.body.id }).first())!.token_hash).toBeNull();
      const { renderMail } = await import('../../lib/mail/render');
      const msg = await renderMail({ db: t2.db, config: t2.config }, queued[0] as never);
      const token = tokenOf(msg!.text)!;
      expect((await request(t2.app).get(`/api/v1/invitations/${token}`)).status).toBe(200);
      expect((await request(t2.app).delete(`/api/v1/admin/invitations/${res.body.id}`).set(bearer)).status).toBe(204);
      expect(await renderMail({ db: t2.db, config: t2.config }, queued[0] as never)).toBeNull();
    } finally {
      await t2.close();
    }
  });
});

describe('rate limits (from an address of their own: the other tests keep their accept budget)', () => {
  it('when one IP posts more than 50 accepts in 15 minutes, then 429 with Retry-After', async () => {
    const body = { firstName: 'A', lastName: 'B', password: STRONG, confirmPassword: STRONG };
    let last: request.Response | undefined;
    for (let i = 0; i < 51; i++)
      last = await api('post', '/invitations/notarealtoken0000000000000000000000000000000/accept', undefined, body).set(
        'X-Forwarded-For',
        '198.51.100.77',
      );
    expect(last!.status).toBe(429);
    expect(last!.body.code).toBe('rate_limited');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('OpenAPI', () => {
  it('when the document is fetched, then every invitation and outlet request route is in it', async () => {
    const res = await request(t.app).get('/api/v1/openapi.json');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/invitations',
        '/api/v1/invitations/options',
        '/api/v1/invitations/{token}',
        '/api/v1/invitations/{token}/accept',
        '/api/v1/admin/invitations',
        '/api/v1/admin/invitations/{id}',
        '/api/v1/admin/invitations/{id}/resend',
        '/api/v1/admin/outlet-requests',
        '/api/v1/admin/outlet-requests/{id}/approve',
        '/api/v1/admin/outlet-requests/{id}/reject',
      ]),
    );
    expect(res.body.paths['/api/v1/invitations/{token}'].get.security ?? []).toEqual([]);
  });
});
