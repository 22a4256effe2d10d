import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { as, problem } from '../../test/http';

let t: TestContext;
let f: Fixtures;
beforeAll(async () => {
  t = await createTestContext();
  f = await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

const storesOf = (outletId: number | string, user?: keyof Fixtures['users']) =>
  as(t.app, user ? tokenFor(t, f.users[user]) : null).get(`/outlets/${outletId}/stores`);

describe('GET /outlets/{outletId}/stores', () => {
  it("when the buyer asks for one of their outlets, then it lists only the active linked stores with the spec's store fields", async () => {
    const res = await storesOf(f.outlets.dsm, 'buyer');
    expect(res.status).toBe(200);
    const board = await t
      .db('boards as b')
      .join('stores as s', 's.board_id', 'b.id')
      .where('s.id', FIXTURE_STORES.central)
      .first('b.board_number', 'b.name');
    const store = await t.db('stores').where({ id: FIXTURE_STORES.central }).first();
    expect(res.body).toEqual({
      items: [
        {
          id: FIXTURE_STORES.central,
          warehouseId: FIXTURE_STORES.central,
          name: 'CENTRAL CITY LIQUOR, INC.',
          warehouseCode: store!.warehouse_code,
          address: store!.address,
          city: store!.city,
          state: store!.state,
          zipCode: store!.zip_code,
          phone: store!.phone,
          boardNumber: board.board_number,
          boardName: board.name,
          active: true,
        },
      ],
    });
    // The inactive store 2113 is linked to this outlet but never listed.
    expect(await t.db('store_outlets').where({ outlet_id: f.outlets.dsm, store_id: FIXTURE_STORES.inactive }).first()).toBeDefined();
  });

  it('when an outlet has several stores, then they come ordered by name', async () => {
    const res = await storesOf(f.outlets.ams, 'buyer');
    expect(res.body.items.map((s: { id: number }) => s.id)).toEqual([FIXTURE_STORES.central, FIXTURE_STORES.cyclone]);
  });

  it("when the outlet is another user's, unassigned, inactive or unknown, then it answers 404", async () => {
    for (const id of [f.outlets.dav, f.outlets.unassigned, f.outlets.inactive, 999999999]) {
      const res = await storesOf(id, 'buyer');
      expect([id, res.status, problem(res).code]).toEqual([id, 404, 'not_found']);
    }
  });

  it('when there is no token, the permission is missing, or the id is not a number, then it answers 401, 403 and 400', async () => {
    expect((await storesOf(f.outlets.dsm)).status).toBe(401);
    const forbidden = await storesOf(f.outlets.dsm, 'noRoles');
    expect([forbidden.status, problem(forbidden).code]).toEqual([403, 'forbidden']);
    expect((await storesOf('abc', 'buyer')).status).toBe(400);
  });
});
