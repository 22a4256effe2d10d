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
});
