import request from 'supertest';
import { orderGuideSchema, quickOrderResultSchema, suggestedOrderSchema } from '@portal/contracts';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { as, problem, type Caller } from '../../test/http';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';

/** Order guides, fill-from-guide, quick order and the suggested order (issue 27), mirroring ordering-week.mjs part 1. */
const S = FIXTURE_STORES;
let t: TestContext;
let fx: Fixtures;
let buyer: Caller;
let viewer: Caller;
let other: Caller;
let token: string;
let vodka: { code: string }[];
let notCarried: string;
let inactive: string;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  token = tokenFor(t, fx.users.buyer);
  buyer = as(t.app, token);
  viewer = as(t.app, tokenFor(t, fx.users.viewer));
  other = as(t.app, tokenFor(t, fx.users.otherBuyer));
  vodka = (await buyer.get(`/stores/${S.central}/products?search=vodka&pageSize=8`)).body.items;
  expect(vodka.length).toBeGreaterThanOrEqual(6);
  const carried = t.db('inventory').where({ store_id: S.central }).select('item_id');
  notCarried = (await t.db('items').whereNotIn('id', carried).first('code'))!.code;
  inactive = vodka[5].code;
  await t.db('items').where({ code: inactive }).update({ active: false });
  const id = (await t.db('items').where({ code: vodka[1].code }).first('id'))!.id;
  await t.db('items').where({ id }).update({ order_increment: 6 });
});
afterAll(async () => {
  await t.close();
});

const cartNow = async (who = buyer) => (await who.get(`/carts/current?outletId=${fx.outlets.dsm}&storeId=${S.central}`)).body;
async function freshCart(who = buyer): Promise<number> {
  await who.delete(`/carts/${(await cartNow(who)).id}`).expect(204);
  return (await cartNow(who)).id;
}
const newGuide = (name: string, lines: { itemCode: string; parQuantity: number }[], who = buyer) =>
  who.post(`/outlets/${fx.outlets.dsm}/order-guides`).send({ name, storeId: S.central, lines });

describe('order guides', () => {
  it('are created (201), listed, read by the outlet viewer, and refused without a session (401) or to another outlet (404)', async () => {
    const g = await newGuide('Weekly', [
      { itemCode: vodka[0].code, parQuantity: 12 },
      { itemCode: vodka[1].code, parQuantity: 12 },
    ]);
    expect(g.status).toBe(201);
    const guide = orderGuideSchema.parse(g.body);
    expect(guide).toMatchObject({
      guideId: guide.id,
      name: 'Weekly',
      storeId: S.central,
      outletId: fx.outlets.dsm,
      createdBy: fx.users.buyer.id,
    });
    expect(guide.lines.map((l) => [l.itemCode, l.position, l.carried])).toEqual([
      [vodka[0].code, 0, true],
      [vodka[1].code, 1, true],
    ]);
    expect(guide.lines[1].quantityRule.increment).toBe(6);
    const list = await buyer.get(`/outlets/${fx.outlets.dsm}/order-guides`).expect(200);
    expect(list.body.items).toEqual([expect.objectContaining({ guideId: guide.id, lineCount: 2, storeName: 'CENTRAL CITY LIQUOR, INC.' })]);
    expect((await viewer.get(`/outlets/${fx.outlets.dsm}/order-guides`)).status).toBe(200);
    expect((await as(t.app, null).get(`/outlets/${fx.outlets.dsm}/order-guides`)).status).toBe(401);
    expect((await other.get(`/outlets/${fx.outlets.dsm}/order-guides`)).status).toBe(404);
    expect((await other.get(`/order-guides/${guide.id}`)).status).toBe(404);
    expect((await other.patch(`/order-guides/${guide.id}`).send({ name: 'Mine' })).status).toBe(404);
    expect((await other.delete(`/order-guides/${guide.id}`)).status).toBe(404);
    expect((await other.post(`/order-guides/${guide.id}/to-cart`).send({})).status).toBe(404);
    expect((await as(t.app, tokenFor(t, fx.users.noRoles)).get(`/order-guides/${guide.id}`)).status).toBe(403);
  });

  it('refuse a duplicate name (409), a store that does not serve the outlet (404), bad lines (400)', async () => {
    await newGuide('Dupe', []).expect(201);
    const dupe = await newGuide('Dupe', []);
    expect([dupe.status, problem(dupe).code]).toEqual([409, 'guide_name_taken']);
    const far = await buyer.post(`/outlets/${fx.outlets.dsm}/order-guides`).send({ name: 'Far', storeId: S.davenport, lines: [] });
    expect(far.status).toBe(404);
    expect((await newGuide('Zero', [{ itemCode: vodka[0].code, parQuantity: 0 }])).status).toBe(400);
    const twice = await newGuide('Twice', [
      { itemCode: vodka[0].code, parQuantity: 1 },
      { itemCode: vodka[0].code, parQuantity: 2 },
    ]);
    expect(twice.status).toBe(400);
    await expect(
      t.db('order_guide_lines').insert({ guide_id: (await newGuide('Db', [])).body.id, item_code: 'X', par_quantity: 0, position: 0 }),
    ).rejects.toThrow(/order_guide_lines_par_range/);
  });

  it('PATCH renames and replaces the lines in the order sent; DELETE removes the guide', async () => {
    const g = (
      await newGuide('Reorder me', [
        { itemCode: vodka[0].code, parQuantity: 3 },
        { itemCode: vodka[2].code, parQuantity: 4 },
      ])
    ).body;
    const p = await buyer.patch(`/order-guides/${g.id}`).send({
      name: 'Reordered',
      lines: [
        { itemCode: vodka[2].code, parQuantity: 4 },
        { itemCode: vodka[0].code, parQuantity: 9 },
        { itemCode: notCarried, parQuantity: 2 },
      ],
    });
    expect(p.status).toBe(200);
    expect(p.body.name).toBe('Reordered');
    expect(
      p.body.lines.map((l: { itemCode: string; position: number; parQuantity: number; carried: boolean }) => [
        l.itemCode,
        l.position,
        l.parQuantity,
        l.carried,
      ]),
    ).toEqual([
      [vodka[2].code, 0, 4, true],
      [vodka[0].code, 1, 9, true],
      [notCarried, 2, 2, false],
    ]);
    expect((await buyer.patch(`/order-guides/${g.id}`).send({})).status).toBe(400);
    await buyer.delete(`/order-guides/${g.id}`).expect(204);
    expect((await buyer.get(`/order-guides/${g.id}`)).status).toBe(404);
  });
});

describe('fill the cart from a guide', () => {
  it('puts par − on hand rounded up to the rule in the cart, and lists lines not carried, inactive or needing nothing', async () => {
    const g = (
      await newGuide('Fill', [
        { itemCode: vodka[0].code, parQuantity: 12 },
        { itemCode: vodka[1].code, parQuantity: 12 },
        { itemCode: vodka[2].code, parQuantity: 4 },
        { itemCode: notCarried, parQuantity: 6 },
        { itemCode: inactive, parQuantity: 6 },
      ])
    ).body;
    const cartId = await freshCart();
    const res = await buyer.post(`/order-guides/${g.id}/to-cart`).send({
      onHand: [
        { itemCode: vodka[0].code, onHand: 5 },
        { itemCode: vodka[1].code, onHand: 5 },
        { itemCode: vodka[2].code, onHand: 9 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.cartId).toBe(cartId);
    expect(res.body.added).toEqual([
      expect.objectContaining({ itemCode: vodka[0].code, needed: 7, quantity: 7 }),
      expect.objectContaining({ itemCode: vodka[1].code, needed: 7, quantity: 12 }),
    ]);
    expect(res.body.skipped).toEqual([
      expect.objectContaining({ itemCode: vodka[2].code, reason: 'nothing_needed' }),
      expect.objectContaining({ itemCode: notCarried, reason: 'not_carried' }),
      expect.objectContaining({ itemCode: inactive, reason: 'inactive' }),
    ]);
    const lines = (await cartNow()).items.map((l: { itemCode: string; quantity: number }) => [l.itemCode, l.quantity]);
    expect(lines).toEqual([
      [vodka[0].code, 7],
      [vodka[1].code, 12],
    ]);
    // Blank on-hand counts 0; a line already in the cart keeps the larger quantity.
    const again = await buyer.post(`/order-guides/${g.id}/to-cart`).send({}).expect(200);
    expect(again.body.added.map((a: { quantity: number }) => a.quantity)).toEqual([12, 12, 4]);
  });

  it('the viewer (who may build carts) fills their own cart; a body with a negative count is a 400', async () => {
    const g = (await newGuide('Viewer', [{ itemCode: vodka[0].code, parQuantity: 2 }])).body;
    await freshCart(viewer);
    expect((await viewer.post(`/order-guides/${g.id}/to-cart`).send({})).status).toBe(200);
    expect((await cartNow(viewer)).items).toHaveLength(1);
    expect((await buyer.post(`/order-guides/${g.id}/to-cart`).send({ onHand: [{ itemCode: vodka[0].code, onHand: -1 }] })).status).toBe(
      400,
    );
  });
});

describe('quick order', () => {
  it('JSON: one row per line numbered from 1, valid rows added in one go, refusals per row', async () => {
    const cartId = await freshCart();
    const lines = [
      { itemCode: vodka[0].code, quantity: 1 },
      { itemCode: vodka[1].code, quantity: 6 },
      { itemCode: vodka[2].code, quantity: 2 },
      { itemCode: vodka[3].code, quantity: 1 },
      { itemCode: 'NO-SUCH-CODE', quantity: 1 },
      { itemCode: vodka[1].code, quantity: 7 },
      { itemCode: notCarried, quantity: 1 },
      { itemCode: inactive, quantity: 1 },
      { itemCode: vodka[0].code, quantity: 0 },
    ];
    const res = await buyer.post(`/carts/${cartId}/lines/bulk`).send({ lines });
    expect(res.status).toBe(200);
    const body = quickOrderResultSchema.parse(res.body);
    expect(body.results.map((r) => [r.row, r.ok, r.code ?? null])).toEqual([
      [1, true, null],
      [2, true, null],
      [3, true, null],
      [4, true, null],
      [5, false, 'unknown_code'],
      [6, false, 'quantity_rule'],
      [7, false, 'not_carried'],
      [8, false, 'inactive'],
      [9, false, 'invalid_quantity'],
    ]);
    expect(body.results[5]).toMatchObject({ nearestValid: 6, rule: { increment: 6 } });
    expect(body.addedCount).toBe(4);
    expect(body.cart.items.map((l) => [l.itemCode, l.quantity])).toEqual([
      [vodka[0].code, 1],
      [vodka[1].code, 6],
      [vodka[2].code, 2],
      [vodka[3].code, 1],
    ]);
  });

  it('CSV: rows are the line numbers (header = line 1), and the code adds to what the cart holds', async () => {
    const cartId = await freshCart();
    const csv = `Item Number,Quantity\n${vodka[0].code},2\n\nNOPE,1\n${vodka[0].code},3\n`;
    const res = await request(t.app)
      .post(`/api/v1/carts/${cartId}/lines/bulk`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'text/csv')
      .send(csv);
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { row: number; ok: boolean }) => [r.row, r.ok])).toEqual([
      [2, true],
      [4, false],
      [5, true],
    ]);
    expect((await cartNow()).items.map((l: { quantity: number }) => l.quantity)).toEqual([5]);
    const bare = await request(t.app)
      .post(`/api/v1/carts/${cartId}/lines/bulk`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'text/csv')
      .send(`${vodka[2].code},1\n`);
    expect(bare.body.results).toEqual([expect.objectContaining({ row: 1, ok: true })]);
    const header = await request(t.app)
      .post(`/api/v1/carts/${cartId}/lines/bulk`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'text/csv')
      .send('Name,Price\nx,y\n');
    expect([header.status, problem(header).code]).toEqual([400, 'csv_header_unknown']);
  });

  it('refuses another buyer’s cart (404), no session (401), more than 1,000 lines or no lines (400)', async () => {
    const cartId = await freshCart();
    expect((await other.post(`/carts/${cartId}/lines/bulk`).send({ lines: [{ itemCode: vodka[0].code, quantity: 1 }] })).status).toBe(404);
    expect((await as(t.app, null).post(`/carts/${cartId}/lines/bulk`).send({ lines: [] })).status).toBe(401);
    const many = Array.from({ length: 1001 }, () => ({ itemCode: vodka[0].code, quantity: 1 }));
    expect((await buyer.post(`/carts/${cartId}/lines/bulk`).send({ lines: many })).status).toBe(400);
    expect((await buyer.post(`/carts/${cartId}/lines/bulk`).send({ lines: [] })).status).toBe(400);
  });
});

describe('suggested order', () => {
  const url = (weeks = 8, outlet = fx.outlets.dsm) => `/outlets/${outlet}/stores/${S.central}/suggested-order?weeks=${weeks}`;

  it("uses the store's real history for an outlet without orders there, then the outlet's own weeks", async () => {
    await t.db('store_item_history').insert([
      { store_id: S.central, item_code: vodka[0].code, weekly_bottles: '5.6', order_lines: 40, year: 2022 },
      { store_id: S.central, item_code: vodka[1].code, weekly_bottles: '2.2', order_lines: 10, year: 2022 },
      { store_id: S.central, item_code: notCarried, weekly_bottles: '9', order_lines: 10, year: 2022 },
    ]);
    const store = suggestedOrderSchema.parse((await buyer.get(url()).expect(200)).body);
    expect(store.source).toBe('store_history');
    expect(store.lines.map((l) => [l.itemCode, l.suggested, l.basis])).toEqual([
      [vodka[0].code, 6, 'store average ≈ 5.6 a week (2022)'],
      [vodka[1].code, 6, 'store average ≈ 2.2 a week (2022)'],
    ]);
    const [order] = await t
      .db('orders')
      .insert({
        order_number: `ORD-SUG-${Date.now()}`,
        user_id: fx.users.buyer.id,
        store_id: S.central,
        outlet_id: fx.outlets.dsm,
        status: 'completed',
        payment_method: 'in_store',
        payment_status: 'not_required',
        fulfillment_flag: 'Pickup',
        subtotal: '0.00',
        total_amount: '0.00',
        delivery_charge: 0,
        customer_name: 'B',
        customer_email: 'b@example.com',
        order_date: new Date(Date.now() - 14 * 86_400_000).toISOString(),
      })
      .returning('id');
    await t.db('order_items').insert([
      { order_id: order.id, item_code: vodka[2].code, item_name: 'x', quantity: 24, unit_price: '0.00', total_price: '0.00' },
      { order_id: order.id, item_code: vodka[1].code, item_name: 'y', quantity: 8, unit_price: '0.00', total_price: '0.00' },
    ]);
    const own = suggestedOrderSchema.parse((await buyer.get(url()).expect(200)).body);
    expect(own.source).toBe('own_history');
    expect(own.lines.map((l) => [l.itemCode, l.weeklyAverage, l.suggested, l.basis])).toEqual([
      [vodka[2].code, 3, 3, '≈ 3 a week over 8 weeks'],
      [vodka[1].code, 1, 6, '≈ 1 a week over 8 weeks'],
    ]);
    // One week back sees none of it: the store's history again.
    expect((await buyer.get(url(1)).expect(200)).body.source).toBe('store_history');
  });

  it('refuses weeks outside 1–52 (400), another outlet (404), no session (401)', async () => {
    expect((await buyer.get(url(0))).status).toBe(400);
    expect((await buyer.get(url(53))).status).toBe(400);
    expect((await other.get(url())).status).toBe(404);
    expect((await buyer.get(url(8, fx.outlets.dav))).status).toBe(404);
    expect((await as(t.app, null).get(url())).status).toBe(401);
  });
});
