import request from 'supertest';
import { orderDetailSchema, orderListSchema, reorderResultSchema } from '@portal/contracts';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { fillCart, postOrder, problem, startCheckout, storeItems, type StoreItem } from './test-support';

/**
 * A reorder fills the cart the person is looking at; outlet managers see every order
 * of their outlets (spec 001 Store Orders subtitle); order numbers are ORD-timestamp-random, unguessable
 * and unique by constraint.
 */
let t: TestContext;
let fx: Fixtures;
let items: StoreItem[];
let tok: Record<'buyer' | 'viewer' | 'outletManager' | 'otherBuyer', string>;
let outletManagerId: string;
const S = FIXTURE_STORES;
/** Orders: dsm (buyer, Court Avenue × 2190), ams (buyer, Campustown × 2190), dav (other buyer, Davenport × 2614). */
const o = { dsm: 0, ams: 0, dav: 0 };

async function place(token: string, userId: string, outletId: number, storeId: number, lines: { item: StoreItem; quantity: number }[]) {
  const cartId = await fillCart(t.db, { userId, outletId, storeId, lines });
  const s = await startCheckout(t.app, token, cartId);
  const res = await postOrder(t.app, token, { checkoutToken: s.body.token, paymentMethod: 'in_store' });
  expect(res.status).toBe(201);
  return res.body as { id: number; orderNumber: string };
}

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  // An outlet manager of the Des Moines outlet only (role outlet_manager: bcc.orders.outlet.manage, no store manage).
  const [u] = await t.db('users').insert({ email: 'outlet-manager@example.com', password_hash: 'x', is_active: true }).returning('id');
  outletManagerId = u.id;
  await t.db('user_profiles').insert({ user_id: u.id, first_name: 'Olive', last_name: 'Manager', full_name: 'Olive Manager' });
  const role = await t.db('roles').where({ code: 'outlet_manager' }).first('id');
  await t.db('role_grants').insert({ user_id: u.id, role_id: role!.id, scope_type: 'outlet', outlet_id: fx.outlets.dsm });
  tok = {
    buyer: tokenFor(t, fx.users.buyer),
    viewer: tokenFor(t, fx.users.viewer),
    otherBuyer: tokenFor(t, fx.users.otherBuyer),
    outletManager: tokenFor(t, { id: u.id, email: 'outlet-manager@example.com' }),
  };
  items = await storeItems(t.db, S.central, 3);
  const [dav] = await storeItems(t.db, S.davenport, 1);
  o.dsm = (
    await place(tok.buyer, fx.users.buyer.id, fx.outlets.dsm, S.central, [
      { item: items[0], quantity: 2 },
      { item: items[1], quantity: 1 },
    ])
  ).id;
  o.ams = (await place(tok.buyer, fx.users.buyer.id, fx.outlets.ams, S.central, [{ item: items[2], quantity: 1 }])).id;
  o.dav = (await place(tok.otherBuyer, fx.users.otherBuyer.id, fx.outlets.dav, S.davenport, [{ item: dav, quantity: 3 }])).id;
});
afterAll(async () => {
  await t.close();
});

const get = (path: string, who: keyof typeof tok) => request(t.app).get(`/api/v1${path}`).set('Authorization', `Bearer ${tok[who]}`);
const post = (path: string, who: keyof typeof tok) => request(t.app).post(`/api/v1${path}`).set('Authorization', `Bearer ${tok[who]}`);
const ids = (res: request.Response) => res.body.items.map((x: { id: number }) => x.id).sort();
const cartLines = async (outletId: number, storeId: number) => {
  const cart = await t
    .db('carts')
    .where({ user_id: fx.users.buyer.id, outlet_id: outletId, store_id: storeId, status: 'active' })
    .first('id');
  if (!cart) return [];
  return t.db('cart_items').where({ cart_id: cart.id }).orderBy('item_code').select('item_code as code', 'quantity');
};

describe('POST /orders/{id}/reorder into the cart the person is looking at', () => {
  beforeEach(async () => {
    await t.db('cart_items').del();
  });

  it('when the buyer looks at Campustown × 2190 and re-orders a Court Avenue order, then the lines go to the Campustown cart and the answer names it', async () => {
    const res = await post(`/orders/${o.dsm}/reorder`, 'buyer').send({ outletId: fx.outlets.ams, storeId: S.central });
    expect(res.status).toBe(200);
    const body = reorderResultSchema.parse(res.body);
    expect(body).toMatchObject({ added: 2, skipped: [], outletId: fx.outlets.ams, storeId: S.central });
    const amsCart = await t
      .db('carts')
      .where({ user_id: fx.users.buyer.id, outlet_id: fx.outlets.ams, store_id: S.central, status: 'active' })
      .first('id');
    expect(body.cartId).toBe(amsCart!.id);
    expect(await cartLines(fx.outlets.ams, S.central)).toEqual(
      [
        { code: items[0].code, quantity: 2 },
        { code: items[1].code, quantity: 1 },
      ].sort((a, b) => a.code.localeCompare(b.code)),
    );
    // The order's own outlet cart is untouched.
    expect(await cartLines(fx.outlets.dsm, S.central)).toEqual([]);
  });

  it("when no cart is named, then the order's own outlet × store cart is filled (unchanged behaviour) and the answer says which", async () => {
    const res = await post(`/orders/${o.dsm}/reorder`, 'buyer').send({});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ added: 2, outletId: fx.outlets.dsm, storeId: S.central });
    expect(await cartLines(fx.outlets.dsm, S.central)).toHaveLength(2);
  });

  it("when the named outlet × store is not the caller's, then 404 and no cart is written", async () => {
    const res = await post(`/orders/${o.dsm}/reorder`, 'buyer').send({ outletId: fx.outlets.dav, storeId: S.davenport });
    expect(res.status).toBe(404);
    expect(problem(res).code).toBe('not_found');
    expect(await t.db('cart_items').count({ n: '*' }).first()).toEqual({ n: 0 });
    expect(await t.db('carts').where({ user_id: fx.users.buyer.id, outlet_id: fx.outlets.dav }).first()).toBeUndefined();
  });

  it('when only one of outletId and storeId is sent, or an unknown field, then 400 validation', async () => {
    const one = await post(`/orders/${o.dsm}/reorder`, 'buyer').send({ outletId: fx.outlets.ams });
    expect(one.status).toBe(400);
    expect(problem(one).code).toBe('validation_failed');
    const extra = await post(`/orders/${o.dsm}/reorder`, 'buyer').send({ outletId: fx.outlets.ams, storeId: S.central, cartId: 1 });
    expect(extra.status).toBe(400);
    expect(await t.db('cart_items').count({ n: '*' }).first()).toEqual({ n: 0 });
  });
});

describe('outlet managers see the orders of their outlets (spec 001 Store Orders)', () => {
  it("when the outlet manager lists orders, then every placed order of their outlet comes back (not other outlets'), scope outlet", async () => {
    const res = await get('/orders', 'outletManager');
    expect(res.status).toBe(200);
    const body = orderListSchema.parse(res.body);
    expect(body.scope).toBe('outlet');
    expect(ids(res)).toEqual([o.dsm]);
    expect(body.counts).toMatchObject({ reserved: 1, all: 1 });
  });

  it("when the outlet manager filters by store, then the outlet's orders of that store only", async () => {
    expect(ids(await get(`/orders?storeId=${S.central}`, 'outletManager'))).toEqual([o.dsm]);
    expect(ids(await get(`/orders?storeId=${S.cyclone}`, 'outletManager'))).toEqual([]);
  });

  it("when the outlet manager opens an order of their outlet, then 200; another outlet's order, then 404", async () => {
    const res = await get(`/orders/${o.dsm}`, 'outletManager');
    expect(res.status).toBe(200);
    expect(orderDetailSchema.parse(res.body).outletId).toBe(fx.outlets.dsm);
    for (const id of [o.ams, o.dav]) {
      const other = await get(`/orders/${id}`, 'outletManager');
      expect(other.status).toBe(404);
      expect(problem(other).code).toBe('not_found');
    }
  });

  it('when the outlet manager asks for only their own orders (mine), then none', async () => {
    expect(ids(await get('/orders?mine=true', 'outletManager'))).toEqual([]);
  });

  it("when the outlet manager tries to mark an order ready or reorder another person's order, then 403 and 404; the order stays reserved", async () => {
    expect((await post(`/orders/${o.dsm}/ready`, 'outletManager')).status).toBe(403);
    const re = await post(`/orders/${o.dsm}/reorder`, 'outletManager').send({});
    expect(re.status).toBe(404);
    expect((await t.db('orders').where({ id: o.dsm }).first('status'))!.status).toBe('reserved');
    expect(await t.db('carts').where({ user_id: outletManagerId }).first()).toBeUndefined();
  });

  it('when a viewer of the same outlets (no manage permission) lists orders, then only their own (none), scope own', async () => {
    const res = await get('/orders', 'viewer');
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('own');
    expect(ids(res)).toEqual([]);
    expect((await get(`/orders/${o.dsm}`, 'viewer')).status).toBe(404);
  });
});

describe('order numbers (spec 001 §7 ORD-timestamp-random)', () => {
  it('when orders are placed one after another, then their numbers are ORD-<ms>-<8 base32 chars>, not consecutive, and the DB keeps them unique', async () => {
    const rows = await t.db('orders').whereIn('id', [o.dsm, o.ams, o.dav]).orderBy('id').select('order_number as n', 'order_date');
    for (const r of rows) expect(r.n).toMatch(/^ORD-\d{13}-[0-9A-HJKMNP-TV-Z]{8}$/);
    const tails = rows.map((r) => r.n.split('-')[2]);
    expect(new Set(tails).size).toBe(3);
    // Not a counter: the random parts are not successive numbers.
    const numeric = tails.map(Number);
    expect(numeric.every((n, i) => i === 0 || n !== numeric[i - 1] + 1)).toBe(true);
    // The unique constraint is still there: a copy of a number is refused by the DB.
    const copy = await t.db('orders').where({ id: o.dsm }).first();
    const { id: _id, search_text: _searchText, ...rest } = copy!; // search_text: generated
    await expect(t.db('orders').insert({ ...rest, checkout_session_id: null, idempotency_key: null })).rejects.toMatchObject({
      code: '23505',
    });
  });
});
