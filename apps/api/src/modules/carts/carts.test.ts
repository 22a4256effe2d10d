import request from 'supertest';
import { findPrincipal } from '../access/access.service';
import { cartSchema } from '@portal/contracts';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { problem } from '../../test/http';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { NotFoundError } from '../../http/errors';
import { addItemQuantity, earliestToday, findOrCreateActiveCart, getCart } from './carts.service';
import { fromCents, toCents } from '../../lib/money';

let t: TestContext;
let fx: Fixtures;
let buyer: string;
const S = FIXTURE_STORES;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  buyer = tokenFor(t, fx.users.buyer);
});
afterAll(async () => {
  await t.close();
});

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
const call = (method: Method, path: string, body?: unknown, token: string | null = buyer) => {
  let req = request(t.app)[method](`/api/v1${path}`);
  if (token !== null) req = req.set('Authorization', `Bearer ${token}`);
  return body === undefined ? req : req.send(body as object);
};
const current = (outletId: number, storeId: number, token: string | null = buyer) =>
  call('get', `/carts/current?outletId=${outletId}&storeId=${storeId}`, undefined, token);
const lines = (cartId: number) =>
  t.db('cart_items').where({ cart_id: cartId }).orderBy('id').select('id', 'item_code', 'quantity', 'unit_price');
const retail = async (code: string) => (await t.db('items').where({ code }).first('retail'))!.retail as string;

/** A fresh, empty active cart of the buyer at Des Moines × 2190 (deletes the previous one). */
async function freshCart(outletId = fx.outlets.dsm, storeId: number = S.central, token = buyer): Promise<number> {
  const res = await current(outletId, storeId, token);
  expect(res.status).toBe(200);
  await call('delete', `/carts/${res.body.id}`, undefined, token).expect(204);
  const again = await current(outletId, storeId, token);
  return again.body.id;
}

describe('money', () => {
  it('when amounts are parsed and summed, then cents are exact', () => {
    expect(toCents('14.99')).toBe(1499);
    expect(toCents('5')).toBe(500);
    expect(toCents('0.5')).toBe(50);
    expect(fromCents(toCents('0.10') + toCents('0.20'))).toBe('0.30');
    expect(fromCents(1499 * 999)).toBe('14975.01');
    expect(() => toCents('1e3')).toThrow();
  });
});

describe('GET /carts/current', () => {
  it('when the buyer opens a cart for their outlet and linked store, then an empty active cart is created and answered', async () => {
    // No active cart there yet (the other tests fill, and leave, the buyer's cart at Des Moines × 2190).
    const existing = await t
      .db('carts')
      .where({ user_id: fx.users.buyer.id, outlet_id: fx.outlets.dsm, store_id: S.central, status: 'active' })
      .first('id');
    if (existing) await call('delete', `/carts/${existing.id}`).expect(204);
    const res = await current(fx.outlets.dsm, S.central);
    expect(res.status).toBe(200);
    expect(cartSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({
      outletId: fx.outlets.dsm,
      storeId: S.central,
      items: [],
      itemCount: 0,
      totalQuantity: 0,
      subtotal: '0.00',
      total: '0.00',
      fulfillment: { type: 'Pickup', date: null, deliveryCharge: '0.00' },
      outlet: { name: 'Demo – Court Avenue Taproom', code: 'DEMO-DSM-01' },
      store: { name: 'CENTRAL CITY LIQUOR, INC.', city: 'DES MOINES', state: 'IA', deliveryEnabled: true, deliveryCharge: '15.00' },
    });
    const row = await t.db('carts').where({ id: res.body.id }).first();
    expect(row).toMatchObject({
      user_id: fx.users.buyer.id,
      outlet_id: fx.outlets.dsm,
      store_id: S.central,
      status: 'active',
      fulfillment_flag: 'Pickup',
    });
  });

  it('when opened again, then the same cart is answered', async () => {
    const a = await current(fx.outlets.dsm, S.central);
    const b = await current(fx.outlets.dsm, S.central);
    expect(b.body.id).toBe(a.body.id);
  });

  it('when the same store is opened through another outlet, then that is a separate cart', async () => {
    const a = await current(fx.outlets.dsm, S.central);
    const b = await current(fx.outlets.ams, S.central);
    expect(b.status).toBe(200);
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('when 10 tabs open the cart at once, then exactly one active cart exists', async () => {
    const res = await Promise.all(Array.from({ length: 10 }, () => current(fx.outlets.ams, S.cyclone)));
    expect(res.every((r) => r.status === 200)).toBe(true);
    expect(new Set(res.map((r) => r.body.id)).size).toBe(1);
    const rows = await t
      .db('carts')
      .where({ user_id: fx.users.buyer.id, outlet_id: fx.outlets.ams, store_id: S.cyclone, status: 'active' });
    expect(rows).toHaveLength(1);
  });

  it.each([
    ["an outlet that is not the buyer's", () => fx.outlets.dav, S.davenport],
    ['a store not linked to that outlet', () => fx.outlets.dsm, S.cyclone],
    ['an inactive store linked to the outlet', () => fx.outlets.dsm, S.inactive],
    ['an inactive outlet', () => fx.outlets.inactive, S.central],
    ['a store that does not exist', () => fx.outlets.dsm, 999999],
  ])('when the cart is asked for %s, then 404 and no cart is created', async (_what, outlet, store) => {
    const before = await t.db('carts').count<{ n: number }[]>('* as n');
    const res = await current(outlet(), store);
    expect(res.status).toBe(404);
    expect(problem(res).code).toBe('not_found');
    expect(await t.db('carts').count<{ n: number }[]>('* as n')).toEqual(before);
  });

  it('when outletId or storeId is missing or not a number, then 400', async () => {
    for (const qs of ['storeId=2190', `outletId=${fx.outlets.dsm}`, 'outletId=x&storeId=2190']) {
      const res = await call('get', `/carts/current?${qs}`);
      expect(res.status).toBe(400);
      expect(problem(res).code).toBe('validation_failed');
    }
  });

  it('when not signed in, then 401; without bcc.carts.use, then 403', async () => {
    expect((await current(fx.outlets.dsm, S.central, null)).status).toBe(401);
    const res = await current(fx.outlets.dsm, S.central, tokenFor(t, fx.users.noRoles));
    expect(res.status).toBe(403);
    expect(problem(res).code).toBe('forbidden');
  });

  it('when the viewer (bcc.carts.use without checkout) opens a cart, then it is allowed', async () => {
    expect((await current(fx.outlets.dsm, S.central, tokenFor(t, fx.users.viewer))).status).toBe(200);
  });
});

describe('POST /carts/{cartId}/items', () => {
  it('when a new code is added, then it enters with quantity 1 at the current price', async () => {
    const cartId = await freshCart();
    const res = await call('post', `/carts/${cartId}/items`, { itemCode: '34006' });
    expect(res.status).toBe(200);
    expect(cartSchema.parse(res.body)).toEqual(res.body);
    expect(res.body.items).toEqual([
      {
        id: expect.any(Number),
        itemCode: '34006',
        name: 'ABSOLUT SWEDISH VODKA 80PRF',
        category: 'IMPORTED VODKAS',
        quantity: 1,
        unitPrice: '14.99',
        lineTotal: '14.99',
        bottleSizeId: expect.any(Number),
        bottleSize: '750 ml',
        volumeMl: 750,
        available: true,
        stock: null,
        bottlesPerCase: 12,
        quantityRule: { min: 1, max: null, increment: 1 },
        splitCaseFee: '0.00',
      },
    ]);
    expect(res.body).toMatchObject({ itemCount: 1, totalQuantity: 1, subtotal: '14.99', total: '14.99' });
    expect(await lines(cartId)).toEqual([{ id: res.body.items[0].id, item_code: '34006', quantity: 1, unit_price: '14.99' }]);
  });

  it('when the same code is added again, then its quantity grows by 1 and no second line appears', async () => {
    const cartId = await freshCart();
    await call('post', `/carts/${cartId}/items`, { itemCode: '34006' }).expect(200);
    const res = await call('post', `/carts/${cartId}/items`, { itemCode: ' 34006 ' });
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(1);
    expect(res.body.items[0]).toMatchObject({ quantity: 2, lineTotal: '29.98' });
    expect(await lines(cartId)).toEqual([expect.objectContaining({ item_code: '34006', quantity: 2 })]);
  });

  it('when two products are added, then lines keep their order and the subtotal is the exact sum', async () => {
    const cartId = await freshCart();
    await call('post', `/carts/${cartId}/items`, { itemCode: '34006' }).expect(200);
    await call('post', `/carts/${cartId}/items`, { itemCode: '10550' }).expect(200);
    const res = await call('post', `/carts/${cartId}/items`, { itemCode: '10550' });
    expect(res.body.items.map((l: { itemCode: string; quantity: number }) => [l.itemCode, l.quantity])).toEqual([
      ['34006', 1],
      ['10550', 2],
    ]);
    expect(res.body).toMatchObject({ itemCount: 2, totalQuantity: 3, subtotal: '30.69', total: '30.69' });
  });

  it('when the price changes after a line was added, then the cart shows the price now (as checkout charges) and the DB keeps the add-time price', async () => {
    const cartId = await freshCart();
    await call('post', `/carts/${cartId}/items`, { itemCode: '34014' }).expect(200);
    await t.db('items').where({ code: '34014' }).update({ retail: '15.49' });
    try {
      const res = await call('post', `/carts/${cartId}/items`, { itemCode: '34014' });
      expect(res.body.items[0]).toMatchObject({ quantity: 2, unitPrice: '15.49', lineTotal: '30.98' });
      expect(res.body.subtotal).toBe('30.98');
      expect(await lines(cartId)).toEqual([expect.objectContaining({ quantity: 2, unit_price: '14.99' })]);
    } finally {
      await t.db('items').where({ code: '34014' }).update({ retail: '14.99' });
    }
  });

  it('when an item in the cart becomes inactive, then its line is marked unavailable', async () => {
    const cartId = await freshCart();
    await call('post', `/carts/${cartId}/items`, { itemCode: '34188' }).expect(200);
    await t.db('items').where({ code: '34188' }).update({ active: false });
    try {
      const res = await current(fx.outlets.dsm, S.central);
      expect(res.body.items).toEqual([expect.objectContaining({ itemCode: '34188', available: false })]);
    } finally {
      await t.db('items').where({ code: '34188' }).update({ active: true });
    }
  });

  it('when the code is unknown, then 404 and nothing is written', async () => {
    const cartId = await freshCart();
    const res = await call('post', `/carts/${cartId}/items`, { itemCode: 'NO-SUCH-ITEM-999' });
    expect(res.status).toBe(404);
    expect(problem(res)).toMatchObject({ code: 'not_found', detail: 'This item is not available from this store.' });
    expect(await lines(cartId)).toEqual([]);
  });

  it("when the code exists but the cart's store does not carry it, then 404", async () => {
    const cartId = await freshCart();
    const other = await t
      .db('inventory as inv')
      .join('items as i', 'i.id', 'inv.item_id')
      .where('inv.store_id', S.cyclone)
      .whereNotIn('inv.item_id', t.db('inventory').where('store_id', S.central).select('item_id'))
      .first('i.code');
    const res = await call('post', `/carts/${cartId}/items`, { itemCode: other.code });
    expect(res.status).toBe(404);
    expect(await lines(cartId)).toEqual([]);
  });

  it('when the item is inactive, then it cannot be added (404)', async () => {
    const cartId = await freshCart();
    await t.db('items').where({ code: '34188' }).update({ active: false });
    try {
      expect((await call('post', `/carts/${cartId}/items`, { itemCode: '34188' })).status).toBe(404);
    } finally {
      await t.db('items').where({ code: '34188' }).update({ active: true });
    }
  });

  it('when the line already holds 999, then adding one more answers 400 cart_quantity_limit and keeps 999', async () => {
    const cartId = await freshCart();
    const add = await call('post', `/carts/${cartId}/items`, { itemCode: '34006' });
    await call('patch', `/carts/${cartId}/items/${add.body.items[0].id}`, { quantity: 999 }).expect(200);
    const res = await call('post', `/carts/${cartId}/items`, { itemCode: '34006' });
    expect(res.status).toBe(400);
    expect(problem(res)).toMatchObject({ status: 400, code: 'cart_quantity_limit', detail: 'You can order at most 999 of one item.' });
    expect(await lines(cartId)).toEqual([expect.objectContaining({ quantity: 999 })]);
  });

  it.each([[{}], [{ itemCode: '' }], [{ itemCode: 34006 }], [{ itemCode: '34006', quantity: 2 }]])(
    'when the body is %j, then 400 validation_failed',
    async (body) => {
      const cartId = await freshCart();
      const res = await call('post', `/carts/${cartId}/items`, body);
      expect(res.status).toBe(400);
      expect(problem(res).code).toBe('validation_failed');
    },
  );

  it('when 20 adds of one code arrive at once, then the line ends at quantity 20', async () => {
    const cartId = await freshCart();
    const res = await Promise.all(Array.from({ length: 20 }, () => call('post', `/carts/${cartId}/items`, { itemCode: '34006' })));
    expect(res.map((r) => r.status)).toEqual(Array(20).fill(200));
    const rows = await lines(cartId);
    expect(rows).toEqual([expect.objectContaining({ item_code: '34006', quantity: 20 })]);
  });

  it('when 20 adds of new codes and repeats interleave, then every increment is kept', async () => {
    const cartId = await freshCart();
    const codes = ['34006', '34007', '34008', '34014', '34026'];
    await Promise.all(Array.from({ length: 20 }, (_, i) => call('post', `/carts/${cartId}/items`, { itemCode: codes[i % 5] }).expect(200)));
    const rows = await lines(cartId);
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r.quantity === 4)).toBe(true);
  });
});

describe('PATCH /carts/{cartId}/items/{itemId}', () => {
  let cartId: number;
  let lineId: number;
  beforeEach(async () => {
    cartId = await freshCart();
    lineId = (await call('post', `/carts/${cartId}/items`, { itemCode: '34006' })).body.items[0].id;
  });

  it('when the quantity is set to 7, then the line holds 7 and totals follow', async () => {
    const res = await call('patch', `/carts/${cartId}/items/${lineId}`, { quantity: 7 });
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toMatchObject({ id: lineId, quantity: 7, lineTotal: '104.93' });
    expect(res.body).toMatchObject({ subtotal: '104.93', total: '104.93' });
    expect((await lines(cartId))[0].quantity).toBe(7);
  });

  it('when the quantity is set to 999, then it is accepted', async () => {
    const res = await call('patch', `/carts/${cartId}/items/${lineId}`, { quantity: 999 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ subtotal: '14975.01' });
  });

  it.each([[0], [-1]])('when the quantity is %d, then the line is removed', async (quantity) => {
    const res = await call('patch', `/carts/${cartId}/items/${lineId}`, { quantity });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ items: [], subtotal: '0.00' });
    expect(await lines(cartId)).toEqual([]);
  });

  it.each([[1000], ['abc'], [1.5], ['7'], [null]])(
    'when the quantity is %j, then 400 with the clear message and the line is unchanged',
    async (quantity) => {
      const res = await call('patch', `/carts/${cartId}/items/${lineId}`, { quantity });
      expect(res.status).toBe(400);
      expect(problem(res)).toMatchObject({ code: 'validation_failed', detail: 'Quantity must be a whole number from 0 to 999' });
      expect(problem(res).errors).toEqual([{ path: 'quantity', message: 'Quantity must be a whole number from 0 to 999' }]);
      expect((await lines(cartId))[0].quantity).toBe(1);
    },
  );

  it('when the line is not in this cart, then 404', async () => {
    const other = await freshCart(fx.outlets.ams, S.central);
    const res = await call('patch', `/carts/${other}/items/${lineId}`, { quantity: 3 });
    expect(res.status).toBe(404);
    expect(problem(res)).toMatchObject({ code: 'not_found', detail: 'This item is not in the cart' });
    expect((await lines(cartId))[0].quantity).toBe(1);
  });
});

describe('DELETE /carts/{cartId}/items/{itemId}', () => {
  it('when a line is removed, then the cart answers without it; removing it again is 404', async () => {
    const cartId = await freshCart();
    await call('post', `/carts/${cartId}/items`, { itemCode: '34006' }).expect(200);
    const add = await call('post', `/carts/${cartId}/items`, { itemCode: '10550' });
    const lineId = add.body.items[1].id;
    const res = await call('delete', `/carts/${cartId}/items/${lineId}`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((l: { itemCode: string }) => l.itemCode)).toEqual(['34006']);
    expect((await lines(cartId)).map((l) => l.item_code)).toEqual(['34006']);
    expect((await call('delete', `/carts/${cartId}/items/${lineId}`)).status).toBe(404);
  });
});

describe('DELETE /carts/{cartId}', () => {
  it('when the cart is cleared, then its lines and the cart are deleted and a new cart starts empty', async () => {
    const cartId = await freshCart();
    await call('post', `/carts/${cartId}/items`, { itemCode: '34006' }).expect(200);
    const res = await call('delete', `/carts/${cartId}`);
    expect(res.status).toBe(204);
    expect(await t.db('carts').where({ id: cartId })).toEqual([]);
    expect(await lines(cartId)).toEqual([]);
    expect((await call('post', `/carts/${cartId}/items`, { itemCode: '34006' })).status).toBe(404);
    const next = await current(fx.outlets.dsm, S.central);
    expect(next.body.id).not.toBe(cartId);
    expect(next.body.items).toEqual([]);
  });

  it('when the cart is already gone, then 404', async () => {
    const cartId = await freshCart();
    await call('delete', `/carts/${cartId}`).expect(204);
    expect((await call('delete', `/carts/${cartId}`)).status).toBe(404);
  });
});

describe('PUT /carts/{cartId}/fulfillment', () => {
  const today = () => earliestToday(new Date());
  const tomorrow = () => new Date(Date.now() + 36 * 3600_000).toISOString().slice(0, 10);

  it("when Delivery is chosen at a store with delivery, then the store's charge is saved and added to the total", async () => {
    const cartId = await freshCart();
    await call('post', `/carts/${cartId}/items`, { itemCode: '34006' }).expect(200);
    const date = tomorrow();
    const res = await call('put', `/carts/${cartId}/fulfillment`, { type: 'Delivery', date });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fulfillment: { type: 'Delivery', date, deliveryCharge: '15.00' }, subtotal: '14.99', total: '29.99' });
    expect(await t.db('carts').where({ id: cartId }).first('fulfillment_flag', 'delivery_charge', 'delivery_date')).toEqual({
      fulfillment_flag: 'Delivery',
      delivery_charge: '15.00',
      delivery_date: date,
    });
    // Loaded again when the page opens.
    expect((await current(fx.outlets.dsm, S.central)).body.fulfillment).toEqual({ type: 'Delivery', date, deliveryCharge: '15.00' });
  });

  it('when the store changes its delivery charge after Delivery was chosen, then the cart shows the charge now (as checkout charges)', async () => {
    const cartId = await freshCart();
    await call('put', `/carts/${cartId}/fulfillment`, { type: 'Delivery', date: null }).expect(200);
    await t.db('stores').where({ id: S.central }).update({ delivery_charge: '17.50' });
    try {
      const res = await current(fx.outlets.dsm, S.central);
      expect(res.body.fulfillment).toEqual({ type: 'Delivery', date: null, deliveryCharge: '17.50' });
      expect(res.body.total).toBe('17.50');
    } finally {
      await t.db('stores').where({ id: S.central }).update({ delivery_charge: '15.00' });
    }
  });

  it('when Pickup is chosen after Delivery, then the charge returns to 0 and the date may be cleared', async () => {
    const cartId = await freshCart();
    await call('put', `/carts/${cartId}/fulfillment`, { type: 'Delivery', date: tomorrow() }).expect(200);
    const res = await call('put', `/carts/${cartId}/fulfillment`, { type: 'Pickup', date: null });
    expect(res.status).toBe(200);
    expect(res.body.fulfillment).toEqual({ type: 'Pickup', date: null, deliveryCharge: '0.00' });
    expect(await t.db('carts').where({ id: cartId }).first('fulfillment_flag', 'delivery_charge', 'delivery_date')).toEqual({
      fulfillment_flag: 'Pickup',
      delivery_charge: '0.00',
      delivery_date: null,
    });
  });

  it('when the date is left out, then it is saved as none; today is accepted', async () => {
    const cartId = await freshCart();
    expect((await call('put', `/carts/${cartId}/fulfillment`, { type: 'Pickup' })).body.fulfillment.date).toBeNull();
    expect((await call('put', `/carts/${cartId}/fulfillment`, { type: 'Pickup', date: today() })).status).toBe(200);
  });

  it('when the date is in the past, then 400 and nothing changes', async () => {
    const cartId = await freshCart();
    for (const date of ['2001-01-01', new Date(Date.now() - 3 * 86400_000).toISOString().slice(0, 10)]) {
      const res = await call('put', `/carts/${cartId}/fulfillment`, { type: 'Pickup', date });
      expect(res.status).toBe(400);
      expect(problem(res)).toMatchObject({ code: 'validation_failed', detail: 'The date cannot be in the past' });
    }
    expect((await t.db('carts').where({ id: cartId }).first('delivery_date'))!.delivery_date).toBeNull();
  });

  it.each([
    [{ type: 'Pickup', date: '2030-02-30' }],
    [{ type: 'Pickup', date: '01/02/2030' }],
    [{ type: 'Ship', date: null }],
    [{ date: null }],
    [{ type: 'Pickup', date: null, charge: 0 }],
  ])('when the body is %j, then 400', async (body) => {
    const cartId = await freshCart();
    const res = await call('put', `/carts/${cartId}/fulfillment`, body);
    expect(res.status).toBe(400);
    expect(problem(res).code).toBe('validation_failed');
  });

  it('when Delivery is chosen at a store with delivery disabled, then 422 delivery_unavailable and the cart stays Pickup', async () => {
    const cartId = await freshCart(fx.outlets.ams, S.cyclone);
    const res = await call('put', `/carts/${cartId}/fulfillment`, { type: 'Delivery', date: null });
    expect(res.status).toBe(422);
    expect(problem(res)).toMatchObject({ status: 422, code: 'delivery_unavailable', detail: 'Delivery is not available from this store.' });
    expect(await t.db('carts').where({ id: cartId }).first('fulfillment_flag', 'delivery_charge')).toEqual({
      fulfillment_flag: 'Pickup',
      delivery_charge: '0.00',
    });
  });
});

describe("another user's cart", () => {
  let cartId: number;
  let lineId: number;
  beforeAll(async () => {
    cartId = await freshCart();
    lineId = (await call('post', `/carts/${cartId}/items`, { itemCode: '34006' })).body.items[0].id;
  });

  it.each([
    ['adds to it', 'post', () => `/carts/${cartId}/items`, { itemCode: '34006' }],
    ['changes a quantity', 'patch', () => `/carts/${cartId}/items/${lineId}`, { quantity: 5 }],
    ['removes a line', 'delete', () => `/carts/${cartId}/items/${lineId}`, undefined],
    ['clears it', 'delete', () => `/carts/${cartId}`, undefined],
    ['sets fulfillment', 'put', () => `/carts/${cartId}/fulfillment`, { type: 'Delivery', date: null }],
  ] as const)("when the viewer (same outlets) %s, then 404 and the buyer's cart is untouched", async (_what, method, path, body) => {
    const res = await call(method, path(), body, tokenFor(t, fx.users.viewer));
    expect(res.status).toBe(404);
    expect(problem(res).code).toBe('not_found');
    expect(await lines(cartId)).toEqual([expect.objectContaining({ id: lineId, quantity: 1 })]);
    expect(await t.db('carts').where({ id: cartId }).first('fulfillment_flag')).toEqual({ fulfillment_flag: 'Pickup' });
  });

  it("when another outlet's buyer touches it, then 404", async () => {
    expect((await call('post', `/carts/${cartId}/items`, { itemCode: '34006' }, tokenFor(t, fx.users.otherBuyer))).status).toBe(404);
  });

  it('when the user lacks bcc.carts.use or is not signed in, then 403 and 401', async () => {
    expect((await call('post', `/carts/${cartId}/items`, { itemCode: '34006' }, tokenFor(t, fx.users.noRoles))).status).toBe(403);
    expect((await call('post', `/carts/${cartId}/items`, { itemCode: '34006' }, null)).status).toBe(401);
    expect(await lines(cartId)).toEqual([expect.objectContaining({ quantity: 1 })]);
  });

  it('when the buyer loses the outlet, then their own cart there answers 404', async () => {
    const [u] = await t.db('users').insert({ email: 'leaver@example.com', password_hash: 'x' }).returning('id');
    const role = await t.db('roles').where({ code: 'outlet_buyer' }).first('id');
    await t.db('role_grants').insert({ user_id: u.id, role_id: role!.id, scope_type: 'outlet', outlet_id: fx.outlets.dsm });
    await t.db('role_grants').insert({ user_id: u.id, role_id: role!.id, scope_type: 'outlet', outlet_id: fx.outlets.ams });
    const token = tokenFor(t, { id: u.id, email: 'leaver@example.com' });
    const cart = (await current(fx.outlets.dsm, S.central, token)).body.id;
    // Leaving Des Moines (the grant there goes, and the membership with it); still a buyer at Ames.
    await t.db('role_grants').where({ user_id: u.id, outlet_id: fx.outlets.dsm }).del();
    expect((await call('post', `/carts/${cart}/items`, { itemCode: '34006' }, token)).status).toBe(404);
  });
});

describe('service functions used by reorder', () => {
  it('when findOrCreateActiveCart is called twice, then it answers the same active cart', async () => {
    const a = await findOrCreateActiveCart(t.db, fx.users.manager.id, fx.outlets.dsm, S.central);
    const b = await findOrCreateActiveCart(t.db, fx.users.manager.id, fx.outlets.dsm, S.central);
    expect(b).toEqual(a);
    expect(a).toMatchObject({ userId: fx.users.manager.id, outletId: fx.outlets.dsm, storeId: S.central });
  });

  it('when addItemQuantity adds 600 twice, then the line stops at 999 at the current price', async () => {
    const { id } = await findOrCreateActiveCart(t.db, fx.users.manager.id, fx.outlets.ams, S.central);
    expect(await addItemQuantity(t.db, id, '34006', 600)).toEqual({ added: true });
    expect(await addItemQuantity(t.db, id, '34006', 600)).toEqual({ added: true });
    expect(await lines(id)).toEqual([expect.objectContaining({ item_code: '34006', quantity: 999, unit_price: await retail('34006') })]);
  });

  it('when addItemQuantity gets a code the store does not carry, then it answers added: false', async () => {
    const { id } = await findOrCreateActiveCart(t.db, fx.users.manager.id, fx.outlets.dsm, S.central);
    expect(await addItemQuantity(t.db, id, 'NO-SUCH', 2)).toEqual({ added: false });
    await expect(addItemQuantity(t.db, id, '34006', 0)).rejects.toThrow(RangeError);
  });

  it("when getCart is asked for another user's cart, then it throws NotFoundError; for one's own, the view", async () => {
    const { id } = await findOrCreateActiveCart(t.db, fx.users.manager.id, fx.outlets.dsm, S.central);
    await expect(getCart(t.db, (await findPrincipal(t.db, fx.users.buyer.id))!, id)).rejects.toBeInstanceOf(NotFoundError);
    const cart = await getCart(t.db, (await findPrincipal(t.db, fx.users.manager.id))!, id);
    expect(cartSchema.parse(cart)).toEqual(cart);
    expect(cart.id).toBe(id);
  });
});

describe('OpenAPI', () => {
  it('when the document is read, then every cart route is described', async () => {
    const res = await request(t.app).get('/api/v1/openapi.json');
    const paths = res.body.paths;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/carts/current',
        '/api/v1/carts/{cartId}/items',
        '/api/v1/carts/{cartId}/items/{itemId}',
        '/api/v1/carts/{cartId}',
        '/api/v1/carts/{cartId}/fulfillment',
      ]),
    );
    expect(Object.keys(paths['/api/v1/carts/{cartId}'])).toEqual(['delete']);
  });
});
