import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { seedFixtures, type Fixtures } from '../../test/fixtures';
import { createUserWithRole, seedOtherBoard } from '../boards/admin-org.test-support';

/** Admin items, outlets and boards: rules, refusals, scope and audit. */
describe('admin items, outlets and boards', () => {
  let t: TestContext;
  let fx: Fixtures;
  let other: Awaited<ReturnType<typeof seedOtherBoard>>;
  let admin: string;
  let boardAdmin: string;
  let buyer: string;
  let manager: string;
  const api = () => request(t.app);
  beforeAll(async () => {
    t = await createTestContext();
    fx = await seedFixtures(t.db);
    other = await seedOtherBoard(t.db);
    admin = tokenFor(t, fx.users.admin);
    buyer = tokenFor(t, fx.users.buyer);
    manager = tokenFor(t, fx.users.manager);
    boardAdmin = tokenFor(t, await createUserWithRole(t.db, 'board-admin@example.com', 'board_admin', [fx.outlets.dsm]));
  });
  afterAll(() => t.close());
  const audit = (action: string, entityId: string | number) => t.db('audit_log').where({ action, entity_id: String(entityId) });

  describe('items', () => {
    it('when a super administrator lists items, then pages hold 20 by name with the total, searchable by name or code', async () => {
      const res = await api().get('/api/v1/admin/items').auth(admin, { type: 'bearer' });
      expect(res.status).toBe(200);
      expect(res.body.items).toHaveLength(20);
      expect(res.body).toMatchObject({ page: 1, pageSize: 20, total: 91 });
      const byCode = await api().get('/api/v1/admin/items?search=900001').auth(admin, { type: 'bearer' });
      expect(byCode.body.items.map((i: { code: string }) => i.code)).toEqual(['900001']);
      const byName = await api().get('/api/v1/admin/items?search=scoresby').auth(admin, { type: 'bearer' });
      expect(byName.body.total).toBeGreaterThan(0);
      expect(byName.body.items.every((i: { name: string }) => /SCORESBY/.test(i.name))).toBe(true);
    });

    it("when a board administrator lists items, then only their board's items come back", async () => {
      const res = await api().get('/api/v1/admin/items?pageSize=100').auth(boardAdmin, { type: 'bearer' });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(90);
      expect(res.body.items.some((i: { code: string }) => i.code === '900001')).toBe(false);
    });

    it('when a buyer (no item permission) lists admin items, then 403', async () => {
      const res = await api().get('/api/v1/admin/items').auth(buyer, { type: 'bearer' });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    });

    it("when a board administrator edits another board's item, then 404 and the item is unchanged", async () => {
      const res = await api().patch(`/api/v1/admin/items/${other.itemId}`).auth(boardAdmin, { type: 'bearer' }).send({ retail: '1.00' });
      expect(res.status).toBe(404);
      expect((await t.db('items').where({ id: other.itemId }).first('retail'))!.retail).toBe('10.00');
    });

    it('when a store manager (view only) edits an item, then 403', async () => {
      const res = await api().patch(`/api/v1/admin/items/${other.itemId}`).auth(manager, { type: 'bearer' }).send({ retail: '1.00' });
      expect(res.status).toBe(403);
    });

    it.each([
      [{ retail: '-1.00' }, 'Amount cannot be negative'],
      [{ retail: '1.234' }, 'Please enter a valid amount (e.g., 5 or 5.00)'],
      [{ retail: 'abc' }, 'Please enter a valid amount (e.g., 5 or 5.00)'],
      [{ name: '  ' }, 'Item name is required'],
      [{ code: 'X' }, undefined],
    ])('when an item is patched with %j, then 400 and nothing changes', async (body, message) => {
      const item = await t.db('items').where({ code: '10006' }).first('id', 'retail', 'name');
      const res = await api().patch(`/api/v1/admin/items/${item!.id}`).auth(admin, { type: 'bearer' }).send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      if (message) expect(res.body.errors.map((e: { message: string }) => e.message)).toContain(message);
      expect(await t.db('items').where({ id: item!.id }).first('retail', 'name')).toEqual({ retail: item!.retail, name: item!.name });
    });

    it("when a board administrator changes an item's price and active flag, then the row, the shop and the audit log show it", async () => {
      const item = await t.db('items').where({ code: '10006' }).first('id');
      const res = await api()
        .patch(`/api/v1/admin/items/${item!.id}`)
        .auth(boardAdmin, { type: 'bearer' })
        .send({ retail: '12.5', category: 'SCOTCH' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ retail: '12.50', category: 'SCOTCH', active: true });
      expect(await t.db('items').where({ id: item!.id }).first('retail', 'category')).toEqual({ retail: '12.50', category: 'SCOTCH' });
      const shop = await api().get('/api/v1/stores/2190/products?search=10006').auth(buyer, { type: 'bearer' });
      const seen = shop.body.items?.find((p: { code: string }) => p.code === '10006');
      if (seen) expect(seen.price).toBe('12.50');
      const [row] = await audit('item.updated', item!.id);
      expect((row.details as { changes: Record<string, unknown> }).changes.retail).toEqual({ from: '9.38', to: '12.50' });
      const off = await api().patch(`/api/v1/admin/items/${item!.id}`).auth(admin, { type: 'bearer' }).send({ active: false });
      expect(off.body.active).toBe(false);
      const inactive = await api().get('/api/v1/admin/items?active=false').auth(admin, { type: 'bearer' });
      expect(inactive.body.items.map((i: { id: number }) => i.id)).toEqual([item!.id]);
    });
  });

  describe('outlets', () => {
    const base = (o: Record<string, unknown> = {}) => ({
      name: 'Test Tavern',
      outletCode: 'TT-1',
      city: 'Ames',
      state: 'ia',
      boardId: 0,
      ...o,
    });
    let board1: number;
    beforeAll(async () => {
      board1 = (await t.db('boards').where({ board_number: 1 }).first('id'))!.id;
    });

    it('when an outlet is created, then 201 with the state upper-cased, the row and an audit entry', async () => {
      // No outlet holds the code yet (the code-taken test makes its own TT-1).
      await t.db('outlets').whereRaw('lower(outlet_code) = ?', ['tt-1']).del();
      const res = await api()
        .post('/api/v1/admin/outlets')
        .auth(boardAdmin, { type: 'bearer' })
        .send(base({ boardId: board1 }));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'Test Tavern',
        outletCode: 'TT-1',
        state: 'IA',
        boardName: 'Iowa Alcoholic Beverages Division',
        storeNames: [],
      });
      expect(await t.db('outlets').where({ outlet_code: 'TT-1' }).first('state', 'board_id')).toEqual({ state: 'IA', board_id: board1 });
      expect(await audit('outlet.created', res.body.id)).toHaveLength(1);
    });

    it('when the code is taken (any case), then 409 outlet_code_taken and no second row', async () => {
      // The outlet holding TT-1, made here (the create test may not have run yet).
      await t.db('outlets').whereRaw('lower(outlet_code) = ?', ['tt-1']).del();
      await t.db('outlets').insert({ name: 'Test Tavern', outlet_code: 'TT-1', city: 'Ames', state: 'IA', board_id: board1 });
      const res = await api()
        .post('/api/v1/admin/outlets')
        .auth(admin, { type: 'bearer' })
        .send(base({ boardId: board1, outletCode: 'tt-1' }));
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('outlet_code_taken');
      expect(await t.db('outlets').whereRaw('lower(outlet_code) = ?', ['tt-1'])).toHaveLength(1);
    });

    it.each([
      [{ name: '' }, 'Outlet name is required'],
      [{ outletCode: ' ' }, 'Outlet code is required'],
      [{ state: 'Iowa' }, 'State must be exactly 2 letters (e.g., NY, CA)'],
      [{ state: 'I1' }, 'State must contain only letters (e.g., NY, CA)'],
    ])("when an outlet has %j, then 400 with the spec's message", async (o, message) => {
      const res = await api()
        .post('/api/v1/admin/outlets')
        .auth(admin, { type: 'bearer' })
        .send(base({ boardId: board1, outletCode: 'TT-BAD', ...o }));
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { message: string }) => e.message)).toContain(message);
      expect(await t.db('outlets').where({ outlet_code: 'TT-BAD' }).first()).toBeUndefined();
    });

    it('when a board administrator lists, edits or creates outlets of another board, then they see none of it and get 404', async () => {
      const list = await api().get('/api/v1/admin/outlets?pageSize=100').auth(boardAdmin, { type: 'bearer' });
      expect(list.status).toBe(200);
      expect(list.body.items.some((o: { id: number }) => o.id === other.outletId)).toBe(false);
      expect(list.body.items.some((o: { isAdminOutlet: boolean }) => o.isAdminOutlet)).toBe(false);
      const edit = await api()
        .patch(`/api/v1/admin/outlets/${other.outletId}`)
        .auth(boardAdmin, { type: 'bearer' })
        .send({ name: 'Mine now' });
      expect(edit.status).toBe(404);
      expect((await t.db('outlets').where({ id: other.outletId }).first('name'))!.name).toBe('Other – Lounge');
      const create = await api()
        .post('/api/v1/admin/outlets')
        .auth(boardAdmin, { type: 'bearer' })
        .send(base({ boardId: other.boardId, outletCode: 'TT-OTHER' }));
      // The new outlet's board is the row the route acts on: out of reach answers 404 (ARCHITECTURE §4, §11).
      expect([create.status, JSON.parse(create.text).detail]).toEqual([404, 'Board not found']);
      expect(await t.db('outlets').where({ outlet_code: 'TT-OTHER' }).first()).toBeUndefined();
    });

    it('when a super administrator lists outlets, then each has its board and store names', async () => {
      const res = await api().get('/api/v1/admin/outlets?search=DEMO-DSM').auth(admin, { type: 'bearer' });
      expect(res.body.items[0]).toMatchObject({ outletCode: 'DEMO-DSM-01', boardName: 'Iowa Alcoholic Beverages Division' });
      expect(res.body.items[0].storeNames).toContain('CENTRAL CITY LIQUOR, INC.');
      expect((await api().get('/api/v1/admin/outlets').auth(buyer, { type: 'bearer' })).status).toBe(403);
    });
  });

  describe('boards', () => {
    it('when boards are listed, then each has its count of active stores, scoped for board administrators', async () => {
      const all = await api().get('/api/v1/admin/boards').auth(admin, { type: 'bearer' });
      expect(all.status).toBe(200);
      expect(all.body.items).toEqual([
        expect.objectContaining({ boardNumber: 1, activeStoreCount: 4 }),
        expect.objectContaining({ boardNumber: 2, activeStoreCount: 1 }),
      ]);
      const mine = await api().get('/api/v1/admin/boards').auth(boardAdmin, { type: 'bearer' });
      expect(mine.body.items.map((b: { boardNumber: number }) => b.boardNumber)).toEqual([1]);
    });

    it('when a board has no number or a taken one, then 400 / 409 and no row', async () => {
      const none = await api().post('/api/v1/admin/boards').auth(admin, { type: 'bearer' }).send({ name: 'No number' });
      expect(none.status).toBe(400);
      expect(none.body.errors[0].message).toBe('Board number is required');
      const dup = await api().post('/api/v1/admin/boards').auth(admin, { type: 'bearer' }).send({ boardNumber: 2, name: 'Dup' });
      expect(dup.status).toBe(409);
      expect(dup.body.code).toBe('board_number_taken');
      expect(await t.db('boards').where({ name: 'Dup' }).first()).toBeUndefined();
    });

    it("when a board is created and edited, then the rows and audit entries follow; another board's edit is 404 for a board administrator", async () => {
      const res = await api().post('/api/v1/admin/boards').auth(admin, { type: 'bearer' }).send({ boardNumber: '7', name: 'Seventh' });
      try {
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ boardNumber: 7, name: 'Seventh', isActive: true, activeStoreCount: 0 });
        const up = await api()
          .patch(`/api/v1/admin/boards/${res.body.id}`)
          .auth(admin, { type: 'bearer' })
          .send({ name: 'Seventh Board', isActive: false });
        expect(up.body).toMatchObject({ name: 'Seventh Board', isActive: false });
        expect(await t.db('boards').where({ id: res.body.id }).first('name', 'is_active')).toEqual({
          name: 'Seventh Board',
          is_active: false,
        });
        expect(await audit('board.created', res.body.id)).toHaveLength(1);
        expect(await audit('board.updated', res.body.id)).toHaveLength(1);
        const foreign = await api().patch(`/api/v1/admin/boards/${other.boardId}`).auth(boardAdmin, { type: 'bearer' }).send({ name: 'x' });
        expect(foreign.status).toBe(404);
        expect((await api().get('/api/v1/admin/boards').auth(manager, { type: 'bearer' })).status).toBe(403);
      } finally {
        // The board goes again: the list test expects the two seeded boards only.
        await t.db('boards').where({ board_number: 7 }).del();
      }
    });
  });
});
