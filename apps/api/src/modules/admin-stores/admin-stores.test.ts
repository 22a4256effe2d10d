import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { createUserWithRole, seedOtherBoard } from '../boards/admin-org.test-support';

const DENIED = "Access Denied: You don't have permission to modify store settings";

/** Admin stores: list, detail, create, edit with the store form's rules, assigned outlets. */
describe('admin stores', () => {
  let t: TestContext;
  let fx: Fixtures;
  let other: Awaited<ReturnType<typeof seedOtherBoard>>;
  let admin: string;
  let boardAdmin: string;
  let manager: string;
  let buyer: string;
  let board1: number;
  const api = () => request(t.app);
  beforeAll(async () => {
    t = await createTestContext();
    fx = await seedFixtures(t.db);
    other = await seedOtherBoard(t.db);
    admin = tokenFor(t, fx.users.admin);
    manager = tokenFor(t, fx.users.manager);
    buyer = tokenFor(t, fx.users.buyer);
    boardAdmin = tokenFor(t, await createUserWithRole(t.db, 'board-admin@example.com', 'board_admin', [fx.outlets.dsm]));
    board1 = (await t.db('boards').where({ board_number: 1 }).first('id'))!.id;
  });
  afterAll(() => t.close());
  const central = FIXTURE_STORES.central;
  const row = (id: number) => t.db('stores').where({ id }).first('delivery_charge', 'orderconf_ccemails', 'delivery_enabled', 'name');

  it('when stores are searched, then matches come with board, settings and the payment-credentials flag', async () => {
    const res = await api().get('/api/v1/admin/stores?search=central').auth(admin, { type: 'bearer' });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      expect.objectContaining({
        id: central,
        warehouseCode: 'IA-2190',
        boardNumber: 1,
        deliveryEnabled: true,
        deliveryCharge: '15.00',
        hasPaymentCredentials: false,
      }),
    ]);
    const byNumber = await api().get('/api/v1/admin/stores?search=4129').auth(admin, { type: 'bearer' });
    expect(byNumber.body.items.map((s: { id: number }) => s.id)).toEqual([4129]);
  });

  it("when a store manager (bcc.stores.admin only) lists and reads, then only the stores of their outlets; saving is 403 with the spec's message and changes nothing", async () => {
    const list = await api().get('/api/v1/admin/stores?pageSize=100').auth(manager, { type: 'bearer' });
    expect(list.status).toBe(200);
    expect(list.body.items.map((s: { id: number }) => s.id).sort()).toEqual(expect.arrayContaining([central]));
    expect(list.body.items.some((s: { id: number }) => s.id === other.storeId)).toBe(false);
    expect((await api().get(`/api/v1/admin/stores/${central}`).auth(manager, { type: 'bearer' })).status).toBe(200);
    const save = await api().patch(`/api/v1/admin/stores/${central}`).auth(manager, { type: 'bearer' }).send({ deliveryCharge: '1.00' });
    expect(save.status).toBe(403);
    expect(save.body).toMatchObject({ code: 'forbidden', detail: DENIED });
    expect((await row(central))!.delivery_charge).toBe('15.00');
    const assign = await api().put(`/api/v1/admin/stores/${central}/outlets/${fx.outlets.unassigned}`).auth(manager, { type: 'bearer' });
    expect(assign.status).toBe(403);
    expect(assign.body.detail).toBe(DENIED);
    const create = await api().post('/api/v1/admin/stores').auth(manager, { type: 'bearer' }).send({ name: 'X' });
    expect(create.status).toBe(403);
  });

  it("when a board administrator reads another board's store, then 404 Store not found or access denied", async () => {
    const res = await api().get(`/api/v1/admin/stores/${other.storeId}`).auth(boardAdmin, { type: 'bearer' });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('Store not found or access denied');
    expect((await api().get(`/api/v1/admin/stores/${other.storeId}/outlets`).auth(boardAdmin, { type: 'bearer' })).status).toBe(404);
  });

  it('when a buyer reads or edits stores, then 403', async () => {
    expect((await api().get('/api/v1/admin/stores').auth(buyer, { type: 'bearer' })).status).toBe(403);
    expect(
      (await api().patch(`/api/v1/admin/stores/${central}`).auth(buyer, { type: 'bearer' }).send({ deliveryCharge: '0' })).status,
    ).toBe(403);
  });

  it.each([
    [{ deliveryCharge: '-5' }, 'Amount cannot be negative'],
    [{ deliveryCharge: '5.555' }, 'Please enter a valid amount (e.g., 5 or 5.00)'],
    [{ deliveryCharge: 'five' }, 'Please enter a valid amount (e.g., 5 or 5.00)'],
    [{ orderconfCcemails: 'a@b.com, c@d.com' }, 'Invalid Email Addresses'],
    [{ orderconfCcemails: 'a@b.com ;c@d.com' }, 'Invalid Email Addresses'],
    [{ orderconfCcemails: 'a@b.com;not-an-email' }, 'Invalid Email Addresses'],
    [{ state: 'Iowa' }, 'State must be exactly 2 letters (e.g., NY, CA)'],
    [{ name: '' }, 'Store name is required'],
    [{ city: '' }, 'City is required'],
  ])("when a store is saved with %j, then 400 with the spec's message and the row is unchanged", async (body, message) => {
    const before = await row(central);
    const res = await api().patch(`/api/v1/admin/stores/${central}`).auth(admin, { type: 'bearer' }).send(body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { message: string }) => e.message)).toContain(message);
    expect(await row(central)).toEqual(before);
  });

  it('when a super administrator saves the settings, then the charge is stored with 2 decimals, cc emails as given, and it is audited', async () => {
    // The store's settings are put back afterwards (the other tests expect delivery at 15.00).
    const before = await row(central);
    try {
      const res = await api()
        .patch(`/api/v1/admin/stores/${central}`)
        .auth(admin, { type: 'bearer' })
        .send({ deliveryCharge: '12.5', orderconfCcemails: 'orders@example.com; manager@example.com', deliveryEnabled: false });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        deliveryCharge: '12.50',
        orderconfCcemails: 'orders@example.com; manager@example.com',
        deliveryEnabled: false,
      });
      expect(await row(central)).toMatchObject({
        delivery_charge: '12.50',
        orderconf_ccemails: 'orders@example.com; manager@example.com',
        delivery_enabled: false,
      });
      const empty = await api()
        .patch(`/api/v1/admin/stores/${central}`)
        .auth(admin, { type: 'bearer' })
        .send({ deliveryCharge: '', orderconfCcemails: '' });
      expect(empty.body).toMatchObject({ deliveryCharge: '0.00', orderconfCcemails: null });
      expect(await t.db('audit_log').where({ action: 'store.updated', entity_id: String(central) })).toHaveLength(2);
    } finally {
      await t.db('stores').where({ id: central }).update({
        delivery_charge: before!.delivery_charge,
        orderconf_ccemails: before!.orderconf_ccemails,
        delivery_enabled: before!.delivery_enabled,
      });
    }
  });

  it("when a super administrator adds a store, then it gets the next number (or the given one); a taken code is 409; required fields have the spec's messages", async () => {
    const body = { name: 'New Store', warehouseCode: 'NS-1', boardId: board1, city: 'Ames', state: 'ia', deliveryCharge: '5' };
    const res = await api().post('/api/v1/admin/stores').auth(admin, { type: 'bearer' }).send(body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 9002, state: 'IA', deliveryCharge: '5.00', boardNumber: 1, active: true });
    expect(await t.db('stores').where({ id: 9002 }).first('warehouse_code')).toEqual({ warehouse_code: 'NS-1' });
    const dup = await api()
      .post('/api/v1/admin/stores')
      .auth(admin, { type: 'bearer' })
      .send({ ...body, name: 'Dup' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('warehouse_code_taken');
    const missing = await api().post('/api/v1/admin/stores').auth(admin, { type: 'bearer' }).send({});
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { message: string }) => e.message)).toEqual(
      expect.arrayContaining([
        'Store name is required',
        'Warehouse code is required',
        'Board selection is required',
        'City is required',
        'State is required',
      ]),
    );
    expect(await t.db('audit_log').where({ action: 'store.created', entity_id: '9002' })).toHaveLength(1);
  });

  it('when an outlet is assigned and removed, then the link follows, twice is harmless, and both are audited', async () => {
    const path = `/api/v1/admin/stores/${central}/outlets/${fx.outlets.unassigned}`;
    expect((await api().put(path).auth(admin, { type: 'bearer' })).status).toBe(204);
    expect((await api().put(path).auth(admin, { type: 'bearer' })).status).toBe(204);
    const list = await api().get(`/api/v1/admin/stores/${central}/outlets`).auth(admin, { type: 'bearer' });
    expect(list.body.items.map((o: { outletId: number }) => o.outletId)).toContain(fx.outlets.unassigned);
    expect(await t.db('store_outlets').where({ store_id: central, outlet_id: fx.outlets.unassigned })).toHaveLength(1);
    expect((await api().delete(path).auth(admin, { type: 'bearer' })).status).toBe(204);
    expect(await t.db('store_outlets').where({ store_id: central, outlet_id: fx.outlets.unassigned })).toHaveLength(0);
    expect(
      await t
        .db('audit_log')
        .whereIn('action', ['store.outlet.assigned', 'store.outlet.removed'])
        .where({ entity_id: String(central) }),
    ).toHaveLength(2);
    expect((await api().put(`/api/v1/admin/stores/${central}/outlets/999999`).auth(admin, { type: 'bearer' })).status).toBe(404);
  });
});
