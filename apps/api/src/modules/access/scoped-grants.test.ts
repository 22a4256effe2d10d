import bcrypt from 'bcrypt';
import { PROBLEM_CODES } from '@portal/contracts';
import { grantRole } from '@portal/seeds';
import { createTestContext, FIXTURE_PASSWORD, tokenFor, type TestContext } from '../../test/harness';
import { as, problem } from '../../test/http';
import { FIXTURE_STORES as S, seedFixtures, type Fixtures } from '../../test/fixtures';
import { fillCart, storeItems } from '../orders/test-support';

/**
 * Scoped grants (ARCHITECTURE §11, issue 22): a right granted at one outlet or store applies there and nowhere
 * else, nobody grants to themselves, and the database holds the model. The two escalations found in the
 * product before grants were scoped are reproduced here as named regressions.
 *
 * Customers: A is the Des Moines outlet (DSM: stores 2190 and the inactive 2113), B the Davenport outlet (DAV:
 * store 2614). The Ames outlet (AMS) orders from 4129 and 2190: the store walk goes 4129 → AMS → 2190.
 */
let t: TestContext;
let f: Fixtures;
type U = { id: string; email: string };
let roles: Record<string, number>;

async function person(email: string, grants: [string, number[]][] = []): Promise<U> {
  const [row] = await t
    .db('users')
    .insert({ email, password_hash: await bcrypt.hash(FIXTURE_PASSWORD, 4) })
    .returning('id');
  await t.db('user_profiles').insert({ user_id: row.id, first_name: email.split('@')[0], last_name: 'Test', full_name: `${email} Test` });
  for (const [role, ids] of grants) await grantRole(t.db, row.id, role, ids);
  return { id: row.id, email };
}
const api = (u: U) => as(t.app, tokenFor(t, u));
/** Accepts the newest invitation mailed to `email` (an existing account: no password). */
async function acceptLatest(email: string) {
  const mail = [...t.mail].reverse().find((m) => m.to === email && m.template === 'invitation');
  const token = /inv=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no invitation mail to ${email}`);
  return as(t.app, null).post(`/invitations/${token}/accept`).send({ firstName: 'Acc', lastName: 'Epted' });
}

beforeAll(async () => {
  t = await createTestContext();
  f = await seedFixtures(t.db);
  roles = Object.fromEntries((await t.db('roles').select('id', 'code')).map((r) => [r.code, r.id]));
}, 60_000);
afterAll(async () => {
  await t.close();
});

describe('regression: a grant at one customer outlet made the person that role everywhere', () => {
  it("when the manager of A invites B's buyer as outlet manager of A, then at B they stay a buyer: B's users, profiles and orders stay out of reach", async () => {
    const managerA = await person('mgr-a@example.com', [['outlet_manager', [f.outlets.dsm]]]);
    const buyerB = await person('buyer-b@example.com', [['outlet_buyer', [f.outlets.dav]]]);
    const colleagueB = await person('colleague-b@example.com', [['outlet_viewer', [f.outlets.dav]]]);
    // An order of B's, placed by B's colleague (outlet managers see their outlet's orders).
    const [order] = await t
      .db('orders')
      .insert({
        order_number: 'ORD-SCOPE-B-1',
        user_id: colleagueB.id,
        store_id: S.davenport,
        outlet_id: f.outlets.dav,
        status: 'reserved',
        payment_method: 'in_store',
        payment_status: 'not_required',
        fulfillment_flag: 'Pickup',
        subtotal: '10.00',
        total_amount: '10.00',
        delivery_charge: 0,
        customer_name: 'Colleague B',
        customer_email: colleagueB.email,
      })
      .returning('id');

    const inv = await api(managerA)
      .post('/invitations')
      .send({ email: buyerB.email, firstName: 'Bea', lastName: 'B', roleIds: [roles.outlet_manager], outletIds: [f.outlets.dsm] });
    expect(inv.status).toBe(201);
    expect((await acceptLatest(buyerB.email)).status).toBe(200);

    // The new grant is at A only; at B the person holds what they held.
    const grants = await t
      .db('role_grants')
      .where({ user_id: buyerB.id })
      .orderBy('outlet_id')
      .select('role_id', 'scope_type', 'outlet_id');
    expect(grants).toEqual(
      expect.arrayContaining([
        { role_id: roles.outlet_manager, scope_type: 'outlet', outlet_id: f.outlets.dsm },
        { role_id: roles.outlet_buyer, scope_type: 'outlet', outlet_id: f.outlets.dav },
      ]),
    );
    expect(grants).toHaveLength(2);
    const now = api(buyerB);
    expect((await now.get(`/admin/users/${colleagueB.id}`)).status).toBe(404);
    const edit = await now
      .patch(`/admin/users/${colleagueB.id}/profile`)
      .send({ firstName: 'Hijacked', lastName: null, phone: null, isActive: false });
    expect([edit.status, problem(edit).code]).toEqual([404, 'not_found']);
    expect(await t.db('users').where({ id: colleagueB.id }).first('is_active')).toEqual({ is_active: true });
    const list = await now.get('/admin/users?limit=100');
    expect(list.status).toBe(200);
    expect(list.body.items.map((u: { email: string }) => u.email)).not.toContain(colleagueB.email);
    expect((await now.get(`/orders/${order.id}`)).status).toBe(404);
    expect((await now.get('/orders?status=reserved')).body.items.map((o: { id: number }) => o.id)).not.toContain(order.id);
    // At A the grant works: the manager of A now reads A's users.
    expect((await now.get(`/admin/users/${managerA.id}`)).status).toBe(200);
    // And /me/permissions says where: outlet_manager codes at A, buyer codes at B.
    const perms = (await now.get('/me/permissions')).body;
    const at = (id: number) => perms.outlets.find((o: { outletId: number }) => o.outletId === id)?.codes ?? [];
    expect(at(f.outlets.dsm)).toContain('bcc.users.manage_outlet');
    expect(at(f.outlets.dav)).not.toContain('bcc.users.manage_outlet');
    expect((await now.get(`/me/permissions/bcc.users.manage_outlet?outletId=${f.outlets.dav}`)).body).toEqual({ granted: false });
    expect((await now.get(`/me/permissions/bcc.users.manage_outlet?outletId=${f.outlets.dsm}`)).body).toEqual({ granted: true });
  });
});

describe('regression: a store manager walked the store–outlet graph by inviting themselves', () => {
  it('when the manager of 4129 invites their own address to AMS (which also orders from 2190), then 403 self_grant_forbidden, and 2190 stays out of reach', async () => {
    const sm = await person('sm-4129@example.com', [['store_manager', [S.cyclone]]]);
    const self = await api(sm)
      .post('/invitations')
      .send({ email: sm.email, firstName: 'Me', lastName: 'Myself', roleIds: [roles.outlet_viewer], outletIds: [f.outlets.ams] });
    expect([self.status, problem(self).code]).toEqual([403, PROBLEM_CODES.selfGrantForbidden]);
    expect(await t.db('invitations').where({ email: sm.email }).first()).toBeUndefined();

    // Even as a member of AMS (granted by an administrator), a store grant at 4129 reaches 4129 only.
    await grantRole(t.db, sm.id, 'outlet_viewer', [f.outlets.ams]);
    const [item] = await storeItems(t.db, S.central, 1);
    const buyer = await person('buyer-ams@example.com', [['outlet_buyer', [f.outlets.ams]]]);
    await fillCart(t.db, { userId: buyer.id, outletId: f.outlets.ams, storeId: S.central, lines: [{ item, quantity: 1 }] });
    const [order] = await t
      .db('orders')
      .insert({
        order_number: 'ORD-SCOPE-2190-1',
        user_id: buyer.id,
        store_id: S.central,
        outlet_id: f.outlets.ams,
        status: 'reserved',
        payment_method: 'in_store',
        payment_status: 'not_required',
        fulfillment_flag: 'Pickup',
        subtotal: '10.00',
        total_amount: '10.00',
        delivery_charge: 0,
        customer_name: 'Buyer AMS',
        customer_email: buyer.email,
      })
      .returning('id');
    const me = api(sm);
    expect((await me.get(`/orders?storeId=${S.cyclone}`)).status).toBe(200);
    expect((await me.get(`/orders?storeId=${S.central}`)).body.items).toEqual([]);
    expect((await me.get(`/orders/${order.id}`)).status).toBe(404);
    const ready = await me.post(`/orders/${order.id}/ready`);
    expect(ready.status).toBe(404);
    expect(await t.db('orders').where({ id: order.id }).first('status')).toEqual({ status: 'reserved' });
    const key = await me.post('/admin/api-keys').send({ name: 'walk', storeId: S.central, scopes: ['orders:read'] });
    expect(key.status).toBe(404);
    expect(await t.db('api_keys').where({ name: 'walk' }).first()).toBeUndefined();
    expect((await me.get(`/orders/attention?storeId=${S.central}`)).status).toBe(404);
    expect((await me.get(`/admin/stores/${S.central}`)).status).toBe(404);
    expect((await me.get(`/admin/stores/${S.cyclone}`)).status).toBe(200);
  });
});

describe('granting rules', () => {
  it('when a super administrator grants themselves a role, then 403 self_grant_forbidden and nothing changes', async () => {
    const res = await api(f.users.admin)
      .post(`/admin/users/${f.users.admin.id}/roles`)
      .send({ roleId: roles.outlet_buyer, outletIds: [f.outlets.dav] });
    expect([res.status, problem(res).code]).toEqual([403, PROBLEM_CODES.selfGrantForbidden]);
    const put = await api(f.users.admin)
      .put(`/admin/users/${f.users.admin.id}/grants`)
      .send({ add: [{ roleId: roles.outlet_buyer, scopeType: 'outlet', scopeId: f.outlets.dav }] });
    expect([put.status, problem(put).code]).toEqual([403, PROBLEM_CODES.selfGrantForbidden]);
    expect(
      await t.db('role_grants').where({ user_id: f.users.admin.id, outlet_id: f.outlets.dav, role_id: roles.outlet_buyer }).first(),
    ).toBeUndefined();
  });

  it("when an outlet manager grants at an outlet they don't manage, or a role of another scope type, then 403 and 400", async () => {
    const mgr = await person('mgr-grants@example.com', [['outlet_manager', [f.outlets.dsm]]]);
    const target = await person('target-grants@example.com', [['outlet_viewer', [f.outlets.dsm]]]);
    const away = await api(mgr)
      .put(`/admin/users/${target.id}/grants`)
      .send({ add: [{ roleId: roles.outlet_buyer, scopeType: 'outlet', scopeId: f.outlets.dav }] });
    expect([away.status, problem(away).code]).toEqual([403, PROBLEM_CODES.outletNotManageable]);
    const wrongType = await api(mgr)
      .put(`/admin/users/${target.id}/grants`)
      .send({ add: [{ roleId: roles.store_staff, scopeType: 'outlet', scopeId: f.outlets.dsm }] });
    expect([wrongType.status, problem(wrongType).code]).toEqual([400, PROBLEM_CODES.validationFailed]);
    const ok = await api(mgr)
      .put(`/admin/users/${target.id}/grants`)
      .send({ add: [{ roleId: roles.outlet_buyer, scopeType: 'outlet', scopeId: f.outlets.dsm }] });
    expect(ok.status).toBe(200);
    expect(ok.body.roles.map((g: { code: string; scopeId: number }) => [g.code, g.scopeId])).toEqual(
      expect.arrayContaining([
        ['outlet_buyer', f.outlets.dsm],
        ['outlet_viewer', f.outlets.dsm],
      ]),
    );
    expect(await t.db('audit_log').where({ action: 'user.grants.updated', entity_id: target.id }).first()).toBeTruthy();
  });

  it("when a user also works at a place the editor does not manage, then their profile and active flag stay (403) while grants at the editor's outlet change", async () => {
    const mgr = await person('mgr-profile@example.com', [['outlet_manager', [f.outlets.dsm]]]);
    const shared = await person('shared@example.com', [
      ['outlet_viewer', [f.outlets.dsm]],
      ['outlet_buyer', [f.outlets.dav]],
    ]);
    const detail = await api(mgr).get(`/admin/users/${shared.id}`);
    expect(detail.body).toMatchObject({ canEdit: true, canEditProfile: false });
    expect(detail.body.roles.map((g: { scopeId: number; editable: boolean }) => [g.scopeId, g.editable])).toEqual(
      expect.arrayContaining([
        [f.outlets.dsm, true],
        [f.outlets.dav, false],
      ]),
    );
    const off = await api(mgr)
      .patch(`/admin/users/${shared.id}/profile`)
      .send({ firstName: 'X', lastName: null, phone: null, isActive: false });
    expect([off.status, problem(off).code]).toEqual([403, PROBLEM_CODES.userNotEditable]);
    expect(await t.db('users').where({ id: shared.id }).first('is_active')).toEqual({ is_active: true });
    const gone = await api(mgr).delete(`/admin/users/${shared.id}/roles/${roles.outlet_viewer}`);
    expect([gone.status, gone.text.slice(0, 200)]).toEqual([200, expect.any(String)]);
    expect(await t.db('user_outlets').where({ user_id: shared.id }).pluck('outlet_id')).toEqual([f.outlets.dav]);
  });

  it('when an outlet request is approved, then the requester holds the least privileged outlet role there, granted by the approver', async () => {
    const requester = await person('requester@example.com', [['outlet_buyer', [f.outlets.dav]]]);
    const r = await api(requester).post('/me/outlet-requests').send({ outletId: f.outlets.unassigned });
    expect(r.status).toBe(201);
    const ok = await api(f.users.manager).post(`/admin/outlet-requests/${r.body.id}/approve`).send({});
    expect(ok.status).toBe(200);
    expect(
      await t.db('role_grants').where({ user_id: requester.id, outlet_id: f.outlets.unassigned }).first('role_id', 'granted_by'),
    ).toEqual({
      role_id: roles.outlet_viewer,
      granted_by: f.users.manager.id,
    });
  });
});

describe('the database holds the model', () => {
  const insert = (row: Record<string, unknown>) => t.db('role_grants').insert(row);
  it('when a grant breaks a rule, then PostgreSQL refuses it', async () => {
    const u = await person('db-rules@example.com');
    // a global grant only for super administrators (the role's scope type is part of the foreign key)
    await expect(insert({ user_id: u.id, role_id: roles.outlet_buyer, scope_type: 'global' })).rejects.toMatchObject({ code: '23503' });
    // a grant names the place its scope type needs, and that place exists
    await expect(insert({ user_id: u.id, role_id: roles.outlet_buyer, scope_type: 'outlet' })).rejects.toMatchObject({ code: '23514' });
    await expect(insert({ user_id: u.id, role_id: roles.outlet_buyer, scope_type: 'outlet', outlet_id: 987654 })).rejects.toMatchObject({
      code: '23503',
    });
    await expect(
      insert({ user_id: u.id, role_id: roles.outlet_buyer, scope_type: 'outlet', outlet_id: f.outlets.dsm, store_id: S.central }),
    ).rejects.toMatchObject({ code: '23514' });
    // no grant twice
    await insert({ user_id: u.id, role_id: roles.outlet_buyer, scope_type: 'outlet', outlet_id: f.outlets.dsm });
    await expect(
      insert({ user_id: u.id, role_id: roles.outlet_buyer, scope_type: 'outlet', outlet_id: f.outlets.dsm }),
    ).rejects.toMatchObject({
      code: '23505',
    });
    // only super_admin may be a global role
    await expect(t.db('roles').where({ code: 'board_admin' }).update({ scope_type: 'global' })).rejects.toMatchObject({ code: '23514' });
    // a membership follows the grants: written with the first, gone with the last, never on its own
    expect(await t.db('user_outlets').where({ user_id: u.id }).pluck('outlet_id')).toEqual([f.outlets.dsm]);
    await expect(t.db('user_outlets').insert({ user_id: u.id, outlet_id: f.outlets.ams })).rejects.toMatchObject({ code: '23514' });
    await expect(t.db('user_outlets').where({ user_id: u.id }).del()).rejects.toMatchObject({ code: '23514' });
    await t.db('role_grants').where({ user_id: u.id }).del();
    expect(await t.db('user_outlets').where({ user_id: u.id }).first()).toBeUndefined();
  });
});
