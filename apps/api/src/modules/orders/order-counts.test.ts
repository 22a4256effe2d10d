import request from 'supertest';
import { migrationSource } from '@portal/migrations';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { GOOD_CARD, fillCart, placeInStoreOrder, postOrder, startCheckout, storeItems } from './test-support';

/**
 * Store Orders' tab counts from store_order_counts (migration 2026120100100001, issue 29 §4): the triggers on
 * orders keep them equal to COUNT(*) of placed orders per store and status through placing, marking ready,
 * completing, cancelling (with a card refund), direct writes and the migration's down and up.
 */
const S = FIXTURE_STORES;
const MIGRATION = '2026120100100001_store_order_counts';
const PLACED = ['not_required', 'paid', 'refund_pending', 'refunded'];

let t: TestContext;
let fx: Fixtures;
beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

/** "store/status" → n, from orders (COUNT(*)) and from the counter table (Σ of its slots). */
async function truth(): Promise<Record<string, number>> {
  const rows = (
    await t.db.raw(`SELECT store_id, status, count(*)::int AS n FROM orders WHERE payment_status = ANY(?) GROUP BY 1, 2`, [PLACED])
  ).rows as { store_id: number; status: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [`${r.store_id}/${r.status}`, r.n]));
}
async function counted(): Promise<Record<string, number>> {
  const rows = (await t.db.raw(`SELECT store_id, status, sum(n)::int AS n FROM store_order_counts GROUP BY 1, 2 HAVING sum(n) > 0`))
    .rows as { store_id: number; status: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [`${r.store_id}/${r.status}`, r.n]));
}
const post = (token: string, path: string, body?: object) =>
  request(t.app)
    .post(`/api/v1${path}`)
    .set('Authorization', `Bearer ${token}`)
    .send(body ?? {});
const list = (token: string, query: string) => request(t.app).get(`/api/v1/orders?${query}`).set('Authorization', `Bearer ${token}`);

async function placeCard(storeId: number): Promise<number> {
  const [item] = await storeItems(t.db, storeId, 1);
  const cartId = await fillCart(t.db, { userId: fx.users.buyer.id, outletId: fx.outlets.dsm, storeId, lines: [{ item, quantity: 1 }] });
  const token = tokenFor(t, fx.users.buyer);
  const s = await startCheckout(t.app, token, cartId);
  const o = await postOrder(t.app, token, { checkoutToken: s.body.token, paymentMethod: 'card', card: GOOD_CARD });
  expect(o.status).toBe(201);
  return o.body.id;
}

describe('store_order_counts', () => {
  it('when orders are placed, made ready, completed and cancelled (one paid by card and refunded), then the counts equal COUNT(*) at every step and Store Orders shows them', async () => {
    const manager = tokenFor(t, fx.users.manager);
    expect(await counted()).toEqual(await truth());
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push((await placeInStoreOrder(t, fx, S.central)).body.id);
    const card = await placeCard(S.central);
    expect(await counted()).toEqual(await truth());
    expect((await counted())[`${S.central}/reserved`]).toBe(5);

    expect((await post(manager, `/orders/${ids[0]}/ready`)).status).toBe(200);
    expect(await counted()).toEqual(await truth());
    expect((await post(manager, `/orders/${ids[0]}/complete`)).status).toBe(200);
    expect((await post(manager, `/orders/${ids[1]}/ready`)).status).toBe(200);
    expect((await post(manager, `/orders/${ids[2]}/cancel`, { reason: 'out of stock' })).status).toBe(200);
    expect((await post(manager, `/orders/${card}/cancel`, { reason: 'customer asked' })).status).toBe(200);
    expect((await t.db('orders').where({ id: card }).first('payment_status'))!.payment_status).toBe('refunded');
    expect(await counted()).toEqual(await truth());
    expect(await counted()).toMatchObject({ [`${S.central}/completed`]: 1, [`${S.central}/ready`]: 1, [`${S.central}/cancelled`]: 2 });

    // What Store Orders shows: the counter table plus the caller's own orders, equal to counting the rows.
    const res = await list(manager, `storeId=${S.central}`);
    expect(res.status).toBe(200);
    const all = await t
      .db('orders')
      .where({ store_id: S.central })
      .whereIn('payment_status', PLACED)
      .count<{ count: string }[]>('* as count');
    expect(res.body.counts).toEqual({ reserved: 1, ready: 1, completed: 1, cancelled: 2, all: Number(all[0].count) });
    const admin = await list(tokenFor(t, fx.users.admin), '');
    expect(admin.status).toBe(200);
    expect(admin.body.counts.all).toBe(Object.values(await truth()).reduce((a, b) => a + b, 0));
  });

  it("when a buyer's card payment is pending, then Store Orders counts it for that buyer only, from their own rows", async () => {
    const [item] = await storeItems(t.db, S.central, 1);
    const before = (await list(tokenFor(t, fx.users.buyer), `storeId=${S.central}`)).body.counts;
    const managerBefore = (await list(tokenFor(t, fx.users.manager), `storeId=${S.central}`)).body.counts;
    const [o] = await t
      .db('orders')
      .insert({
        order_number: 'PENDING-1',
        user_id: fx.users.buyer.id,
        store_id: S.central,
        outlet_id: fx.outlets.dsm,
        payment_method: 'card',
        payment_status: 'pending',
        subtotal: item.retail,
        total_amount: item.retail,
        customer_name: 'Blake Buyer',
        customer_email: fx.users.buyer.email,
      })
      .returning('id');
    expect(await counted()).toEqual(await truth());
    expect((await list(tokenFor(t, fx.users.buyer), `storeId=${S.central}`)).body.counts.reserved).toBe(before.reserved + 1);
    expect((await list(tokenFor(t, fx.users.manager), `storeId=${S.central}`)).body.counts).toEqual(managerBefore);
    // Paid: now placed, so the store's count holds it.
    await t.db('orders').where({ id: o.id }).update({ payment_status: 'paid' });
    expect(await counted()).toEqual(await truth());
    expect((await list(tokenFor(t, fx.users.manager), `storeId=${S.central}`)).body.counts.reserved).toBe(managerBefore.reserved + 1);
  });

  it('when orders are written directly (several in one statement, moved between stores, deleted), then the counts follow', async () => {
    const [item] = await storeItems(t.db, S.central, 1);
    const row = (n: number, status: 'reserved' | 'ready') => ({
      order_number: `DIRECT-${n}`,
      store_id: S.central,
      outlet_id: fx.outlets.dsm,
      status,
      payment_method: 'in_store' as const,
      payment_status: 'not_required' as const,
      subtotal: item.retail,
      total_amount: item.retail,
      customer_name: 'Direct',
      customer_email: 'direct@example.com',
    });
    const made = await t
      .db('orders')
      .insert([1, 2, 3, 4, 5, 6].map((n) => row(n, n % 2 ? 'reserved' : 'ready')))
      .returning('id');
    expect(await counted()).toEqual(await truth());
    await t.db('orders').whereIn('order_number', ['DIRECT-1', 'DIRECT-2']).update({ store_id: S.small });
    await t.db('orders').whereIn('order_number', ['DIRECT-3', 'DIRECT-4']).update({ status: 'completed' });
    expect(await counted()).toEqual(await truth());
    await t.db('orders').whereIn('order_number', ['DIRECT-5', 'DIRECT-6']).update({ customer_name: 'Renamed' });
    await t
      .db('order_events')
      .whereIn(
        'order_id',
        made.map((m: { id: number }) => m.id),
      )
      .del();
    await t.db('orders').whereIn('order_number', ['DIRECT-1', 'DIRECT-3', 'DIRECT-6']).del();
    expect(await counted()).toEqual(await truth());
    // The database refuses a count below zero.
    await expect(
      t
        .db('store_order_counts')
        .where({ store_id: S.central })
        .update({ n: t.db.raw('-1') }),
    ).rejects.toThrow(/store_order_counts_n_nonnegative/);
  });

  it('when the migration is rolled back and applied again, then the table and triggers go and come back with the counts backfilled', async () => {
    const expected = await truth();
    await t.db.migrate.down({ migrationSource, name: MIGRATION });
    expect((await t.db.raw(`SELECT to_regclass('store_order_counts') AS t`)).rows[0].t).toBeNull();
    await placeInStoreOrder(t, fx, S.central); // written with no trigger
    await t.db.migrate.up({ migrationSource, name: MIGRATION });
    expect(await counted()).toEqual(await truth());
    expect((await truth())[`${S.central}/reserved`]).toBe(expected[`${S.central}/reserved`] + 1);
  });

  it('when the search migration is rolled back and applied again, then search_text and its indexes go and come back, and search still finds a customer by any case', async () => {
    const SEARCH = '2026120100100002_order_search';
    const indexes = async () =>
      (await t.db.raw(`SELECT indexname FROM pg_indexes WHERE tablename = 'orders' ORDER BY 1`)).rows.map(
        (r: { indexname: string }) => r.indexname,
      );
    expect(await indexes()).toEqual(expect.arrayContaining(['orders_store_list', 'orders_search_trgm']));
    await t.db.migrate.down({ migrationSource, name: SEARCH });
    expect(await t.db.schema.hasColumn('orders', 'search_text')).toBe(false);
    expect(await indexes()).toEqual(expect.arrayContaining(['orders_store_id_order_date_index']));
    expect(await indexes()).not.toEqual(expect.arrayContaining(['orders_store_list']));
    await t.db.migrate.up({ migrationSource, name: SEARCH });
    expect(await indexes()).toEqual(expect.arrayContaining(['orders_store_list', 'orders_search_trgm']));
    expect(await indexes()).not.toEqual(expect.arrayContaining(['orders_store_id_order_date_index']));
    const o = (await placeInStoreOrder(t, fx, S.central)).body as { id: number; orderNumber: string };
    await t.db('orders').where({ id: o.id }).update({ customer_name: 'Zoë Quartermain' });
    const found = await list(tokenFor(t, fx.users.manager), `storeId=${S.central}&search=QUARTERMAIN`);
    expect(found.body.items.map((i: { id: number }) => i.id)).toEqual([o.id]);
    const byNumber = await list(tokenFor(t, fx.users.manager), `storeId=${S.central}&search=${o.orderNumber.toLowerCase()}`);
    expect(byNumber.body.items.map((i: { id: number }) => i.id)).toEqual([o.id]);
  });
});
