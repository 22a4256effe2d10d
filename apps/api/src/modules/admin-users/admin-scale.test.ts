import request from 'supertest';
import { createTestContext, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { adminAuditCount, apiClient, makeUser, problemCode, type TestUser } from './test-support';

/**
 * Administration at scale (ARCHITECTURE §5, issue 26): the users list's page form (page, pageSize, total),
 * sorts, filters (role, outlet, store, status incl. invited, search), the earlier cursor form beside it, the
 * ids and the CSV export, and the bulk user actions checked item by item with one audit entry per item.
 */
let t: TestContext;
let f: Fixtures;
let api: ReturnType<typeof apiClient>;
let roleIds: Record<string, number>;
let invitationId: string;

beforeAll(async () => {
  t = await createTestContext();
  f = await seedFixtures(t.db);
  api = apiClient(t);
  roleIds = Object.fromEntries((await t.db('roles').select('id', 'code')).map((r) => [r.code, r.id]));
  const inv = await api('post', '/invitations', f.users.admin).send({
    email: 'pending-person@example.com',
    firstName: 'Penny',
    lastName: 'Pending',
    roleIds: [roleIds.outlet_buyer],
    outletIds: [f.outlets.dsm],
  });
  expect(inv.status).toBe(201);
  invitationId = inv.body.id;
});
afterAll(async () => {
  await t.close();
});

const emails = (res: request.Response) => (res.body.items as { email: string }[]).map((u) => u.email);
/** Every user holding a grant (what the super administrator's list shows). */
const granted = async () =>
  (await t.db('users as u').whereExists(t.db('role_grants as g').whereRaw('g.user_id = u.id')).select('u.email', 'u.is_active')) as {
    email: string;
    is_active: boolean;
  }[];

describe('GET /admin/users (page form)', () => {
  it('pages by page and pageSize with the total, sorted by email both ways', async () => {
    const all = (await granted()).map((u) => u.email).sort();
    const p1 = await api('get', '/admin/users?page=1&pageSize=2&sort=email', f.users.admin);
    expect(p1.status).toBe(200);
    expect(p1.body).toMatchObject({ total: all.length, page: 1, pageSize: 2 });
    expect(emails(p1)).toEqual(all.slice(0, 2));
    const p2 = await api('get', '/admin/users?page=2&pageSize=2&sort=email', f.users.admin);
    expect(emails(p2)).toEqual(all.slice(2, 4));
    const desc = await api('get', '/admin/users?page=1&pageSize=2&sort=-email', f.users.admin);
    expect(emails(desc)).toEqual([...all].reverse().slice(0, 2));
    const beyond = await api('get', `/admin/users?page=99&pageSize=25`, f.users.admin);
    expect(beyond.body).toMatchObject({ items: [], total: all.length });
  });

  it('sorts by name by default and by last sign-in, most recent first with -lastLogin; rows carry status and lastLogin', async () => {
    // Dates after any sign-in these tests make (signing in stamps last_login_at with now).
    await t
      .db('users')
      .where({ id: f.users.buyer.id })
      .update({ last_login_at: new Date('2099-11-20T10:00:00Z') });
    await t
      .db('users')
      .where({ id: f.users.viewer.id })
      .update({ last_login_at: new Date('2099-11-25T10:00:00Z') });
    const byName = await api('get', '/admin/users?pageSize=100', f.users.admin);
    const names = (byName.body.items as { fullName: string | null; email: string }[]).map((u) => (u.fullName ?? u.email).toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const recent = await api('get', '/admin/users?pageSize=2&sort=-lastLogin', f.users.admin);
    expect(emails(recent)).toEqual([f.users.viewer.email, f.users.buyer.email]);
    expect(recent.body.items[0]).toMatchObject({ status: 'active', lastLogin: '2099-11-25T10:00:00.000Z', isActive: true });
    const oldest = await api('get', '/admin/users?pageSize=100&sort=lastLogin', f.users.admin);
    const logins = (oldest.body.items as { lastLogin: string | null }[]).map((u) => u.lastLogin);
    const byStatus = await api('get', '/admin/users?pageSize=100&sort=status', f.users.admin);
    const flags = (byStatus.body.items as { isActive: boolean }[]).map((u) => u.isActive);
    expect(flags).toEqual([...flags].sort((a, b) => Number(a) - Number(b)));
    expect(flags[0]).toBe(false);
    expect(logins.slice(-2)).toEqual(['2099-11-20T10:00:00.000Z', '2099-11-25T10:00:00.000Z']);
  });

  it('filters by role, outlet, store, status and search, with the total of the filtered rows', async () => {
    const role = await api('get', '/admin/users?role=store_manager&pageSize=100', f.users.admin);
    expect(emails(role)).toContain(f.users.manager.email);
    expect(emails(role)).not.toContain(f.users.buyer.email);
    expect(role.body.total).toBe(role.body.items.length);
    const outlet = await api('get', `/admin/users?outletId=${f.outlets.dav}&pageSize=100`, f.users.admin);
    const davMembers = (
      await t.db('user_outlets as uo').join('users as u', 'u.id', 'uo.user_id').where('uo.outlet_id', f.outlets.dav).select('u.email')
    )
      .map((r) => r.email)
      .sort();
    expect([...emails(outlet)].sort()).toEqual(davMembers);
    const store = await api('get', `/admin/users?storeId=${FIXTURE_STORES.central}&pageSize=100`, f.users.admin);
    expect(emails(store)).toEqual(expect.arrayContaining([f.users.manager.email, f.users.buyer.email]));
    expect(emails(store)).not.toContain(f.users.otherManager.email);
    const inactive = await api('get', '/admin/users?status=inactive&pageSize=100', f.users.admin);
    const expected = (await granted()).filter((u) => !u.is_active).map((u) => u.email);
    expect(emails(inactive).sort()).toEqual(expected.sort());
    expect(inactive.body.items.every((u: { status: string }) => u.status === 'inactive')).toBe(true);
    const active = await api('get', '/admin/users?status=active&pageSize=100', f.users.admin);
    expect(active.body.items.every((u: { isActive: boolean }) => u.isActive)).toBe(true);
    const search = await api('get', '/admin/users?search=VIEWER', f.users.admin);
    expect(emails(search)).toEqual([f.users.viewer.email]);
    const literal = await api('get', '/admin/users?search=%25', f.users.admin);
    expect(literal.body.total).toBe(0);
  });

  it('lists pending invitations as rows of their own with status=invited', async () => {
    const res = await api('get', '/admin/users?status=invited&search=pending', f.users.admin);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
    expect(res.body.items[0]).toMatchObject({
      id: invitationId,
      email: 'pending-person@example.com',
      fullName: 'Penny Pending',
      status: 'invited',
      canEdit: false,
      invitation: { roleLabels: [expect.any(String)], outletLabels: [expect.any(String)] },
    });
    expect(emails(await api('get', '/admin/users?pageSize=100', f.users.admin))).not.toContain('pending-person@example.com');
  });

  it("keeps to the caller's scope: a store manager's filtered total counts only their users", async () => {
    const mine = await api('get', '/admin/users?pageSize=100', f.users.manager);
    const inactive = await api('get', '/admin/users?status=inactive&pageSize=100', f.users.manager);
    expect(inactive.body.total).toBeLessThanOrEqual(mine.body.total);
    expect(emails(inactive).every((e) => emails(mine).includes(e))).toBe(true);
    const far = await api('get', `/admin/users?role=store_manager&pageSize=100`, f.users.manager);
    expect(emails(far)).not.toContain(f.users.otherManager.email);
  });

  it('keeps the cursor form: limit and cursor page by name with nextCursor', async () => {
    const first = await api('get', '/admin/users?limit=2', f.users.admin);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const next = await api('get', `/admin/users?limit=2&cursor=${first.body.nextCursor}`, f.users.admin);
    expect(next.body.items).toHaveLength(2);
    expect(emails(next).some((e) => emails(first).includes(e))).toBe(false);
  });

  it('refuses an unknown sort, a page size over 100, an unknown status, and a buyer', async () => {
    expect((await api('get', '/admin/users?sort=password', f.users.admin)).status).toBe(400);
    expect((await api('get', '/admin/users?pageSize=101', f.users.admin)).status).toBe(400);
    expect((await api('get', '/admin/users?status=deleted', f.users.admin)).status).toBe(400);
    expect((await api('get', '/admin/users?page=1', f.users.buyer)).status).toBe(403);
  });
});

describe('GET /admin/users/ids and /admin/users/export.csv', () => {
  it('answers every matching id with the total', async () => {
    const res = await api('get', '/admin/users/ids?status=active&sort=email', f.users.admin);
    expect(res.status).toBe(200);
    const listed = await api('get', '/admin/users?status=active&sort=email&pageSize=100', f.users.admin);
    expect(res.body).toEqual({ ids: listed.body.items.map((u: { id: string }) => u.id), total: listed.body.total, truncated: false });
    expect((await api('get', '/admin/users/ids', f.users.buyer)).status).toBe(403);
  });

  it('exports the filtered users as CSV; a buyer gets 403; a manager only their scope', async () => {
    const csv = await api('get', '/admin/users/export.csv?role=store_manager', f.users.admin);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('Name,Email,Status,Last sign-in,Roles,Outlets');
    expect(csv.text).toContain(f.users.manager.email);
    expect(csv.text).not.toContain(f.users.buyer.email);
    const buyer = await api('get', '/admin/users/export.csv', f.users.buyer);
    expect(buyer.status).toBe(403);
    const mine = await api('get', '/admin/users/export.csv', f.users.manager);
    expect(mine.text).not.toContain(f.users.otherManager.email);
    expect(mine.text.trim().split('\r\n')).toHaveLength(1 + (await api('get', '/admin/users?pageSize=100', f.users.manager)).body.total);
  });
});

describe('POST /admin/users/bulk', () => {
  let extra: TestUser[];
  beforeAll(async () => {
    extra = [
      await makeUser(t, 'bulk-a@example.com', 'outlet_buyer', [f.outlets.dsm], ['Bulk', 'A']),
      await makeUser(t, 'bulk-b@example.com', 'outlet_buyer', [f.outlets.dsm], ['Bulk', 'B']),
    ];
  });
  const isActive = async (id: string) => (await t.db('users').where({ id }).first('is_active'))!.is_active;

  it('deactivates each user as if alone: oneself and unknown ids are refused per item, one audit entry per change', async () => {
    const before = await adminAuditCount(t);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const ids = [f.users.admin.id, extra[0].id, extra[1].id, unknown, 'not-a-uuid', invitationId];
    const res = await api('post', '/admin/users/bulk', f.users.admin).send({ action: 'deactivate', userIds: ids });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { userId: string }) => r.userId)).toEqual(ids);
    expect(res.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([false, true, true, false, false, false]);
    expect(res.body.results[0]).toMatchObject({ code: 'self_deactivate', message: expect.any(String) });
    expect(res.body.results[3]).toMatchObject({ code: 'not_found' });
    expect(await isActive(f.users.admin.id)).toBe(true);
    expect(await isActive(extra[0].id)).toBe(false);
    expect(await adminAuditCount(t)).toBe(before + 2);
    const audits = await t.db('audit_log').where({ action: 'user.deactivated' }).whereIn('entity_id', [extra[0].id, extra[1].id]);
    expect(audits).toHaveLength(2);
    const back = await api('post', '/admin/users/bulk', f.users.admin).send({ action: 'activate', userIds: extra.map((u) => u.id) });
    expect(back.body.results.every((r: { ok: boolean }) => r.ok)).toBe(true);
    expect(await isActive(extra[1].id)).toBe(true);
  });

  it("refuses per item a user out of the caller's scope or as privileged as them; a buyer gets 403", async () => {
    const res = await api('post', '/admin/users/bulk', f.users.manager).send({
      action: 'deactivate',
      userIds: [f.users.otherBuyer.id, f.users.admin.id, extra[0].id],
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { ok: boolean; code?: string }) => [r.ok, r.code ?? null])).toEqual([
      [false, 'not_found'],
      [false, 'user_not_editable'],
      [true, null],
    ]);
    expect(await isActive(f.users.otherBuyer.id)).toBe(true);
    await api('post', '/admin/users/bulk', f.users.admin).send({ action: 'activate', userIds: [extra[0].id] });
    expect((await api('post', '/admin/users/bulk', f.users.buyer).send({ action: 'deactivate', userIds: [extra[0].id] })).status).toBe(403);
  });

  it('grants and revokes a role at a scope by the granting rules, oneself refused', async () => {
    const before = await adminAuditCount(t);
    const body = { roleId: roleIds.outlet_viewer, scopeType: 'outlet', scopeId: f.outlets.ams };
    const res = await api('post', '/admin/users/bulk', f.users.manager).send({
      action: 'grant',
      userIds: [extra[0].id, extra[1].id, f.users.manager.id],
      ...body,
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, true, false]);
    expect(res.body.results[2].code).toMatch(/self_/);
    const held = await t
      .db('role_grants')
      .where({ role_id: roleIds.outlet_viewer, outlet_id: f.outlets.ams })
      .whereIn(
        'user_id',
        extra.map((u) => u.id),
      );
    expect(held).toHaveLength(2);
    const revoke = await api('post', '/admin/users/bulk', f.users.manager).send({
      action: 'revoke',
      userIds: extra.map((u) => u.id),
      ...body,
    });
    expect(revoke.body.results.every((r: { ok: boolean }) => r.ok)).toBe(true);
    expect(
      await t
        .db('role_grants')
        .where({ role_id: roleIds.outlet_viewer, outlet_id: f.outlets.ams })
        .whereIn(
          'user_id',
          extra.map((u) => u.id),
        ),
    ).toHaveLength(0);
    expect(await adminAuditCount(t)).toBe(before + 4);
    const escalate = await api('post', '/admin/users/bulk', f.users.manager).send({
      action: 'grant',
      userIds: [extra[0].id],
      roleId: roleIds.super_admin,
      scopeType: 'global',
    });
    expect(escalate.body.results[0].ok).toBe(false);
  });

  it('resends pending invitations by their rows’ ids, audited per invitation', async () => {
    const res = await api('post', '/admin/users/bulk', f.users.admin).send({
      action: 'resend-invitation',
      userIds: [invitationId, extra[0].id],
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false]);
    expect(await t.db('audit_log').where({ action: 'invitation.resent', entity_id: invitationId })).toHaveLength(1);
  });

  it('refuses an empty list, a missing role for grant, an unknown action and more than 1,000 ids', async () => {
    const bad = [
      { action: 'deactivate', userIds: [] },
      { action: 'grant', userIds: [extra[0].id] },
      { action: 'delete', userIds: [extra[0].id] },
      { action: 'activate', userIds: Array.from({ length: 1001 }, () => extra[0].id) },
    ];
    for (const body of bad) {
      const res = await api('post', '/admin/users/bulk', f.users.admin).send(body);
      expect(res.status).toBe(400);
      expect(problemCode(res)).toBe('validation_failed');
    }
  });
});
