import { join } from 'node:path';
import { seedOrderingWeek } from '@portal/seeds';
import { createTestContext, tokenFor, type TestContext } from '../test/harness';
import { as } from '../test/http';
import { seedFixtures, type Fixtures } from '../test/fixtures';

/** The ordering week's demo data (seeds/ordering-week.ts, issue 27) on the real-data fixture. */
let t: TestContext;
let fx: Fixtures;
const count = async (table: 'order_guides' | 'order_guide_lines' | 'orders' | 'order_items' | 'store_item_history') =>
  Number((await t.db(table).count<{ n: string }[]>('* as n'))[0].n);

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  await seedOrderingWeek(t.db, { storeItemsFile: join(__dirname, '../test/fixtures/store_items.csv') });
});
afterAll(async () => {
  await t.close();
});

describe('the ordering week demo data', () => {
  it('is idempotent: a second run changes nothing', async () => {
    const tables = ['order_guides', 'order_guide_lines', 'orders', 'order_items', 'store_item_history'] as const;
    const before = await Promise.all(tables.map(count));
    await seedOrderingWeek(t.db, { storeItemsFile: join(__dirname, '../test/fixtures/store_items.csv') });
    expect(await Promise.all(tables.map(count))).toEqual(before);
    expect(before[0]).toBe(4);
    expect(before[2]).toBe(20);
  });

  it('gives the buyer two guides and a suggestion from ten weeks of own orders, and never rules a product the earlier checks use', async () => {
    const buyer = as(t.app, tokenFor(t, fx.users.buyer));
    const guides = (await buyer.get(`/outlets/${fx.outlets.ams}/order-guides`).expect(200)).body.items;
    expect(guides.map((g: { name: string }) => g.name)).toEqual(['Weekend top-up', 'Weekly bar order']);
    const sug = (await buyer.get(`/outlets/${fx.outlets.ams}/stores/2190/suggested-order?weeks=8`).expect(200)).body;
    expect(sug.source).toBe('own_history');
    expect(sug.lines.length).toBeGreaterThan(4);
    expect(sug.lines[0].basis).toMatch(/^≈ [\d.]+ a week over 8 weeks$/);
    const vodka = (await buyer.get('/stores/2190/products?search=vodka&pageSize=6').expect(200)).body.items;
    const first = (await buyer.get('/stores/2190/products?pageSize=2').expect(200)).body.items;
    for (const p of [...vodka.slice(0, 3), ...first])
      expect([p.code, p.quantityRule]).toEqual([p.code, { min: 1, max: null, increment: 1 }]);
    expect(vodka.some((p: { quantityRule: { increment: number } }) => p.quantityRule.increment > 1)).toBe(true);
  });

  it('passes the requests of ordering-week.mjs part 1, in its order, on the demo data', async () => {
    const buyer = as(t.app, tokenFor(t, fx.users.buyer));
    const outlets = (await buyer.get('/me/outlets').expect(200)).body.items;
    const oid = outlets[0].outletId;
    const sid = (await buyer.get(`/outlets/${oid}/stores`).expect(200)).body.items[0].id;
    expect([oid, sid]).toEqual([fx.outlets.ams, 2190]);
    const products = (await buyer.get(`/stores/${sid}/products?search=vodka&pageSize=6`).expect(200)).body.items;
    const current = async () => (await buyer.get(`/carts/current?outletId=${oid}&storeId=${sid}`).expect(200)).body;
    const freshCart = async () => {
      await buyer.delete(`/carts/${(await current()).id}`).expect(204);
      return (await current()).id as number;
    };
    const g = await buyer.post(`/outlets/${oid}/order-guides`).send({
      name: `Weekly ${Date.now()}`,
      storeId: sid,
      lines: products.slice(0, 3).map((x: { code: string }) => ({ itemCode: x.code, parQuantity: 12 })),
    });
    expect(g.status).toBe(201);
    expect((await as(t.app, tokenFor(t, fx.users.viewer)).get(`/outlets/${oid}/order-guides`)).status).toBe(200);
    expect((await as(t.app, null).get(`/outlets/${oid}/order-guides`)).status).toBe(401);
    await freshCart();
    expect(
      (await buyer.post(`/order-guides/${g.body.guideId}/to-cart`).send({ onHand: [{ itemCode: products[0].code, onHand: 5 }] })).status,
    ).toBe(200);
    const line = (await current()).items.find((l: { itemCode: string }) => l.itemCode === products[0].code);
    expect(line.quantity >= 7 && line.quantity % products[0].quantityRule.increment === 0).toBe(true);
    await buyer.delete(`/order-guides/${g.body.guideId}`).expect(204);
    const cartId = await freshCart();
    const lines = [
      ...products
        .slice(0, 4)
        .map((x: { code: string; quantityRule: { increment: number } }) => ({ itemCode: x.code, quantity: x.quantityRule.increment })),
      { itemCode: 'NO-SUCH-CODE', quantity: 1 },
    ];
    const q = await buyer.post(`/carts/${cartId}/lines/bulk`).send({ lines });
    expect(q.status).toBe(200);
    expect(q.body.results.map((r: { row: number; ok: boolean }) => [r.row, r.ok])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, true],
      [5, false],
    ]);
    const ruled = products.find(
      (x: { quantityRule: { increment: number; min: number } }) => x.quantityRule.increment > 1 || x.quantityRule.min > 1,
    );
    await buyer.post(`/carts/${cartId}/items`).send({ itemCode: ruled.code }).expect(200);
    const rl = (await current()).items.find((l: { itemCode: string }) => l.itemCode === ruled.code);
    const bad = await buyer.patch(`/carts/${cartId}/items/${rl.id}`).send({ quantity: ruled.quantityRule.increment + 1 });
    expect(bad.status).toBe(422);
    expect(bad.text).toMatch(/quantity/i);
    const sug = (await buyer.get(`/outlets/${oid}/stores/${sid}/suggested-order?weeks=8`).expect(200)).body;
    expect(
      sug.lines.length > 0 &&
        sug.lines.every(
          (l: { itemCode: string; suggested: number; basis: string }) => l.itemCode && Number.isFinite(l.suggested) && l.basis,
        ),
    ).toBe(true);
  });
});
