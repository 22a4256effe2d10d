import { createTestContext, type TestContext } from '../../test/harness';
import { seedFixtures, type Fixtures } from '../../test/fixtures';
import { recordAudit } from './audit.service';
import { apiClient, makeUser, problemCode as code, type TestUser } from '../admin-users/test-support';

/** GET /admin/audit-log: newest first, filters, cursor, board administrators see their board. */
let t: TestContext;
let f: Fixtures;
let api: ReturnType<typeof apiClient>;
let boardAdmin: TestUser;
let farUser: TestUser;
beforeAll(async () => {
  t = await createTestContext();
  f = await seedFixtures(t.db);
  api = apiClient(t);
  const [board] = await t.db('boards').insert({ board_number: 990, name: 'Far Board' }).returning('id');
  const [far] = await t.db('outlets').insert({ outlet_code: 'FAR-01', name: 'Far – Lakeside Inn', board_id: board.id }).returning('id');
  boardAdmin = await makeUser(t, 'board-admin@example.com', 'board_admin', [f.outlets.dsm]);
  farUser = await makeUser(t, 'far-buyer@example.com', 'outlet_buyer', [far.id]);
  // Two writes through the API: one on the demo board, one far away.
  expect(
    (
      await api('patch', `/admin/users/${f.users.buyer.id}/profile`, f.users.admin).send({
        firstName: 'Blake',
        lastName: 'Buyer',
        phone: '515-555-0101',
        isActive: true,
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await api('patch', `/admin/users/${farUser.id}/profile`, f.users.admin).send({
        firstName: 'Fay',
        lastName: 'Far',
        phone: '515-555-0102',
        isActive: true,
      })
    ).status,
  ).toBe(200);
  for (let i = 0; i < 5; i++)
    await recordAudit(
      t.db,
      { userId: f.users.admin.id, email: f.users.admin.email },
      { action: 'test.filler', entityType: 'thing', entityId: i },
    );
});
afterAll(async () => {
  await t.close();
});

describe('GET /admin/audit-log', () => {
  it('when the super administrator reads it, then rows come newest first with actor, action, entity, IP and time', async () => {
    const res = await api('get', '/admin/audit-log?action=user.', f.users.admin);
    expect(res.status).toBe(200);
    expect(res.body.items.map((r: { entityId: string }) => r.entityId)).toEqual([farUser.id, f.users.buyer.id]);
    expect(res.body.items[1]).toMatchObject({
      actorUserId: f.users.admin.id,
      actorEmail: 'admin@example.com',
      action: 'user.profile.updated',
      entityType: 'user',
      ip: expect.any(String),
      occurredAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      details: expect.objectContaining({ email: 'buyer@example.com' }),
    });
  });

  it('when filtering by actor, entity and paging with the cursor, then only matches come, each once', async () => {
    const byEntity = await api('get', `/admin/audit-log?entity=user:${f.users.buyer.id}`, f.users.admin);
    expect(byEntity.body.items.map((r: { entityId: string }) => r.entityId)).toEqual([f.users.buyer.id]);
    expect((await api('get', '/admin/audit-log?actor=nobody@', f.users.admin)).body.items).toEqual([]);
    expect((await api('get', `/admin/audit-log?actor=${f.users.admin.id}&action=test.`, f.users.admin)).body.items).toHaveLength(5);
    const first = await api('get', '/admin/audit-log?action=test.&limit=3', f.users.admin);
    const second = await api('get', `/admin/audit-log?action=test.&limit=3&cursor=${first.body.nextCursor}`, f.users.admin);
    expect([...first.body.items, ...second.body.items].map((r: { entityId: string }) => r.entityId)).toEqual(['4', '3', '2', '1', '0']);
    expect(second.body.nextCursor).toBeNull();
  });

  it("when a board administrator reads it, then only their board's rows come", async () => {
    const res = await api('get', '/admin/audit-log?action=user.', boardAdmin);
    expect(res.status).toBe(200);
    expect(res.body.items.map((r: { entityId: string }) => r.entityId)).toEqual([f.users.buyer.id]);
  });

  it('when a store manager or a buyer reads it, then 403; signed out 401', async () => {
    for (const u of [f.users.manager, f.users.buyer]) {
      const res = await api('get', '/admin/audit-log', u);
      expect([res.status, code(res)]).toEqual([403, 'forbidden']);
    }
    expect((await api('get', '/admin/audit-log')).status).toBe(401);
  });
});
