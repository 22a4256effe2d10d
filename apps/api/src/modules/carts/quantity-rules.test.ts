import request from 'supertest';
import { cartSchema, productPageSchema } from '@portal/contracts';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { as, problem, type Caller } from '../../test/http';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { effectiveRule, nearestValid, roundUpToRule, splitFeeCents } from '../../lib/quantity-rules';
import { addItemQuantity } from './carts.service';

/** Case packs and quantity rules (issue 27): products, the cart, checkout, orders, admin and integrations. */
const S = FIXTURE_STORES;
let t: TestContext;
let fx: Fixtures;
let buyer: Caller;
let admin: Caller;
/** Vodka products of store 2190, as the ordering-week check picks them (search=vodka&pageSize=6). */
let vodka: { code: string; bottlesPerCase: number }[];

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  buyer = as(t.app, tokenFor(t, fx.users.buyer));
  admin = as(t.app, tokenFor(t, fx.users.admin));
  const res = await buyer.get(`/stores/${S.central}/products?search=vodka&pageSize=6`);
  vodka = productPageSchema.parse(res.body).items;
  expect(vodka.length).toBeGreaterThanOrEqual(5);
});
afterAll(async () => {
  await t.close();
});

const itemId = async (code: string) => (await t.db('items').where({ code }).first('id'))!.id;
async function setRule(code: string, rule: { min?: number; max?: number | null; increment?: number } | null) {
  const res = await admin.patch(`/admin/items/${await itemId(code)}`).send({ quantityRule: rule });
  expect(res.status).toBe(200);
}
async function freshCart(): Promise<number> {
  const cur = await buyer.get(`/carts/current?outletId=${fx.outlets.dsm}&storeId=${S.central}`);
  await buyer.delete(`/carts/${cur.body.id}`).expect(204);
  return (await buyer.get(`/carts/current?outletId=${fx.outlets.dsm}&storeId=${S.central}`)).body.id;
}
const lineOf = async (cartId: number, code: string) => {
  const cart = await buyer.get(`/carts/current?outletId=${fx.outlets.dsm}&storeId=${S.central}`);
  expect(cart.body.id).toBe(cartId);
  return cartSchema.parse(cart.body).items.find((l) => l.itemCode === code);
};

describe('the rule arithmetic', () => {
  it('rounds to the increment, the case under full_cases, and finds the nearest valid quantity', () => {
    const six = effectiveRule({ minQty: 1, maxQty: null, increment: 6, bottlesPerCase: 12, policy: 'any' });
    expect(six).toEqual({ min: 6, max: null, increment: 6 });
    expect(nearestValid(six, 7)).toBe(6);
    expect(nearestValid(six, 9)).toBe(12);
    expect(roundUpToRule(six, 7)).toBe(12);
    expect(effectiveRule({ minQty: 1, maxQty: 30, increment: 4, bottlesPerCase: 6, policy: 'full_cases' })).toEqual({
      min: 12,
      max: 24,
      increment: 12,
    });
    expect(splitFeeCents('split_fee', 25, 12, 15)).toBe(75);
    expect(splitFeeCents('any', 25, 12, 15)).toBe(0);
  });
});

describe('products', () => {
  it('carry bottlesPerCase (1 when unknown) and a quantityRule, always', async () => {
    expect(vodka.every((p) => Number.isInteger(p.bottlesPerCase) && p.bottlesPerCase >= 1)).toBe(true);
    await setRule(vodka[4].code, { increment: 6 });
    const one = await buyer.get(`/stores/${S.central}/products/${vodka[4].code}`).expect(200);
    expect(one.body.quantityRule).toEqual({ min: 6, max: null, increment: 6 });
    const page = await buyer.get(`/stores/${S.central}/products?search=vodka&pageSize=6`).expect(200);
    expect(page.body.items[0].quantityRule).toEqual({ min: 1, max: null, increment: 1 });
    await setRule(vodka[4].code, null);
  });
});

describe('the cart enforces the rule', () => {
  it('adds a new code at its first valid quantity, then one increment; a quantity off the rule is a 422 naming the nearest valid one', async () => {
    const code = vodka[3].code;
    await setRule(code, { min: 12, increment: 6, max: 24 });
    const cartId = await freshCart();
    await buyer.post(`/carts/${cartId}/items`).send({ itemCode: code }).expect(200);
    expect((await lineOf(cartId, code))?.quantity).toBe(12);
    await buyer.post(`/carts/${cartId}/items`).send({ itemCode: code }).expect(200);
    const line = await lineOf(cartId, code);
    expect(line).toMatchObject({ quantity: 18, quantityRule: { min: 12, max: 24, increment: 6 } });
    const bad = await buyer.patch(`/carts/${cartId}/items/${line!.id}`).send({ quantity: 20 });
    expect(bad.status).toBe(422);
    expect(problem(bad)).toMatchObject({
      code: 'quantity_rule',
      nearestValid: 18,
      rule: { min: 12, max: 24, increment: 6 },
      itemCode: code,
    });
    expect(problem(bad).detail).toMatch(/multiples of 6.*nearest valid quantity is 18/);
    expect((await buyer.patch(`/carts/${cartId}/items/${line!.id}`).send({ quantity: 6 })).status).toBe(422);
    expect(problem(await buyer.patch(`/carts/${cartId}/items/${line!.id}`).send({ quantity: 30 }))).toMatchObject({ nearestValid: 24 });
    await buyer.patch(`/carts/${cartId}/items/${line!.id}`).send({ quantity: 24 }).expect(200);
    const over = await buyer.post(`/carts/${cartId}/items`).send({ itemCode: code });
    expect([over.status, problem(over).code]).toEqual([422, 'quantity_rule']);
    await buyer.patch(`/carts/${cartId}/items/${line!.id}`).send({ quantity: 0 }).expect(200);
    await setRule(code, null);
  });

  it('checkout refuses a cart made before the rule changed, with the same 422', async () => {
    const code = vodka[2].code;
    const cartId = await freshCart();
    await buyer.post(`/carts/${cartId}/items`).send({ itemCode: code }).expect(200);
    const line = await lineOf(cartId, code);
    await buyer.patch(`/carts/${cartId}/items/${line!.id}`).send({ quantity: 5 }).expect(200);
    await setRule(code, { increment: 6 });
    const cs = await buyer.post('/checkout-sessions').send({ cartId });
    expect(cs.status).toBe(422);
    expect(problem(cs)).toMatchObject({ code: 'quantity_rule', nearestValid: 6, itemCode: code });
    await buyer.patch(`/carts/${cartId}/items/${line!.id}`).send({ quantity: 6 }).expect(200);
    const session = await buyer.post('/checkout-sessions').send({ cartId });
    expect(session.status).toBe(201);
    // The rule changes again between the session and the order: POST /orders refuses the same way.
    await setRule(code, { increment: 4 });
    const order = await buyer
      .post('/orders')
      .set('Idempotency-Key', `rule-${Date.now()}`)
      .send({ checkoutToken: session.body.token, paymentMethod: 'in_store' });
    expect([order.status, problem(order).code, problem(order)]).toEqual([
      422,
      'quantity_rule',
      expect.objectContaining({ nearestValid: 8 }),
    ]);
    expect(await t.db('orders').count<{ n: number }[]>('* as n')).toEqual([{ n: 0 }]);
    await setRule(code, null);
  });

  it('a reorder (addItemQuantity) rounds the quantity up to the rule', async () => {
    const code = vodka[2].code;
    await setRule(code, { increment: 6 });
    const cartId = await freshCart();
    expect(await addItemQuantity(t.db, cartId, code, 5)).toEqual({ added: true });
    expect((await lineOf(cartId, code))?.quantity).toBe(6);
    await setRule(code, null);
  });
});

describe("the store's split-case policy", () => {
  afterEach(async () => {
    await admin.patch(`/admin/stores/${S.central}`).send({ splitCasePolicy: 'any', splitCaseFee: '0.00' }).expect(200);
  });

  it('full_cases makes the increment the bottles per case', async () => {
    const set = await admin.patch(`/admin/stores/${S.central}`).send({ splitCasePolicy: 'full_cases' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ splitCasePolicy: 'full_cases', splitCaseFee: '0.00' });
    const p = (await buyer.get(`/stores/${S.central}/products/${vodka[1].code}`).expect(200)).body;
    expect(p.quantityRule).toEqual({ min: p.bottlesPerCase, max: null, increment: p.bottlesPerCase });
    expect((await buyer.get(`/stores/${S.central}`).expect(200)).body.splitCasePolicy).toBe('full_cases');
  });

  it('split_fee charges the fee per bottle of an incomplete case, in cents, in the cart, the session and the order', async () => {
    await admin.patch(`/admin/stores/${S.central}`).send({ splitCasePolicy: 'split_fee', splitCaseFee: '0.35' }).expect(200);
    const p = vodka.find((v) => v.bottlesPerCase > 2)!;
    const cartId = await freshCart();
    await buyer.post(`/carts/${cartId}/items`).send({ itemCode: p.code }).expect(200);
    const line = await lineOf(cartId, p.code);
    const qty = p.bottlesPerCase + 3;
    const res = await buyer.patch(`/carts/${cartId}/items/${line!.id}`).send({ quantity: qty }).expect(200);
    const cart = cartSchema.parse(res.body);
    expect(cart.splitCaseFee).toBe('1.05');
    expect(cart.items[0].splitCaseFee).toBe('1.05');
    const cents = (s: string) => Math.round(Number(s) * 100);
    expect(cents(cart.total)).toBe(cents(cart.subtotal) + 105);
    const cs = await buyer.post('/checkout-sessions').send({ cartId }).expect(201);
    expect(cs.body).toMatchObject({ total: cart.total, splitCaseFee: '1.05' });
    const order = await buyer
      .post('/orders')
      .set('Idempotency-Key', `split-${Date.now()}`)
      .send({ checkoutToken: cs.body.token, paymentMethod: 'in_store' });
    expect(order.status).toBe(201);
    expect(order.body).toMatchObject({ total: cart.total, splitCaseFee: '1.05' });
    expect((await t.db('orders').where({ id: order.body.id }).first('split_case_fee'))!.split_case_fee).toBe('1.05');
  });

  it('refuses an unknown policy and a negative fee (400)', async () => {
    expect((await admin.patch(`/admin/stores/${S.central}`).send({ splitCasePolicy: 'half_cases' })).status).toBe(400);
    expect((await admin.patch(`/admin/stores/${S.central}`).send({ splitCaseFee: '-1.00' })).status).toBe(400);
  });
});

describe('who sets rules', () => {
  it('the admin item editor answers the rule; a bad rule is a 400 and the database refuses one too', async () => {
    const id = await itemId(vodka[4].code);
    const ok = await admin
      .patch(`/admin/items/${id}`)
      .send({ quantityRule: { min: 2, max: 12, increment: 2 } })
      .expect(200);
    expect(ok.body.quantityRule).toEqual({ min: 2, max: 12, increment: 2 });
    expect((await admin.patch(`/admin/items/${id}`).send({ quantityRule: { min: 6, max: 3 } })).status).toBe(400);
    expect((await admin.patch(`/admin/items/${id}`).send({ quantityRule: { increment: 0 } })).status).toBe(400);
    expect((await buyer.patch(`/admin/items/${id}`).send({ quantityRule: null })).status).toBe(403);
    await expect(t.db('items').where({ id }).update({ order_increment: 0 })).rejects.toThrow(/items_order_increment_range/);
    await admin.patch(`/admin/items/${id}`).send({ quantityRule: null }).expect(200);
    expect((await admin.get(`/admin/items/${id}`).expect(200)).body.quantityRule).toBeNull();
  });

  it('a board key pushes a rule with the catalog (old bodies stay valid; a bad rule names its row)', async () => {
    const board = (await t.db('stores').where({ id: S.central }).first('board_id'))!.board_id;
    const k = await admin
      .post('/admin/api-keys')
      .send({ name: 'catalog', boardId: board, scopes: ['catalog:write'] })
      .expect(201);
    const item = (await t.db('items').where({ code: vodka[4].code }).first('code', 'name', 'retail', 'category', 'bottles_per_case'))!;
    const push = (rows: unknown[]) =>
      request(t.app).put('/api/v1/integrations/items').set('Authorization', `Bearer ${k.body.key}`).send(rows);
    const base = {
      itemCode: item.code,
      name: item.name,
      retail: item.retail,
      category: item.category ?? undefined,
      bottlesPerCase: item.bottles_per_case ?? undefined,
    };
    expect((await push([base])).body).toMatchObject({ unchanged: 1 });
    const r = await push([{ ...base, quantityRule: { increment: 3, min: 3 } }]);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ updated: 1 });
    expect((await buyer.get(`/stores/${S.central}/products/${item.code}`)).body.quantityRule).toEqual({ min: 3, max: null, increment: 3 });
    expect((await push([{ ...base, quantityRule: { increment: 3, min: 3 } }])).body).toMatchObject({ unchanged: 1 });
    const bad = await push([base, { ...base, itemCode: vodka[3].code, quantityRule: { increment: -1 } }]);
    expect(bad.status).toBe(422);
    expect(problem(bad).errors[0]).toMatchObject({ row: 2, field: 'quantityRule.increment' });
    await push([{ ...base, quantityRule: null }]).expect(200);
    expect((await buyer.get(`/stores/${S.central}/products/${item.code}`)).body.quantityRule).toEqual({ min: 1, max: null, increment: 1 });
  });
});
