import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../test/fixtures';
import { fillCart, postOrder, problem, startCheckout, storeItems } from '../modules/orders/test-support';

/**
 * The API never sends SQL or driver messages in `detail` (the payment screen showed
 * "permission denied for table orders"). The database is made to fail for real and the answers read.
 */
let t: TestContext;
let fx: Fixtures;
beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

const LEAKS =
  /permission denied|relation|does not exist|select |insert into|update "|violates|constraint|pg_|knex|sqlstate|at .*\.(js|ts):\d+/i;

describe('no SQL or driver text in problem details', () => {
  it('when placing an order hits "permission denied for table orders" (42501), then a 500 with only a request id, nothing written', async () => {
    await t.db.raw(
      `CREATE FUNCTION deny_orders() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'permission denied for table orders' USING ERRCODE = '42501'; END $$ LANGUAGE plpgsql`,
    );
    await t.db.raw('CREATE TRIGGER deny_orders BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION deny_orders()');
    try {
      const buyer = tokenFor(t, fx.users.buyer);
      const [item] = await storeItems(t.db, FIXTURE_STORES.central, 1);
      const cartId = await fillCart(t.db, {
        userId: fx.users.buyer.id,
        outletId: fx.outlets.dsm,
        storeId: FIXTURE_STORES.central,
        lines: [{ item, quantity: 1 }],
      });
      const session = await startCheckout(t.app, buyer, cartId);
      const res = await postOrder(t.app, buyer, { checkoutToken: session.body.token, paymentMethod: 'in_store' });
      expect(res.status).toBe(500);
      const p = problem(res);
      expect(p).toMatchObject({ code: 'internal_error', detail: `Something went wrong. Quote request id ${p.requestId} to support.` });
      expect(res.text).not.toMatch(LEAKS);
      expect(
        await t.db('orders').where({ user_id: fx.users.buyer.id }).where('checkout_session_id', 'is not', null).first(),
      ).toBeUndefined();
    } finally {
      await t.db.raw('DROP TRIGGER deny_orders ON orders; DROP FUNCTION deny_orders()');
    }
  });

  it('when a table the route reads is missing, then the answer names no table and no SQL', async () => {
    const manager = tokenFor(t, fx.users.manager);
    await t.db.raw('ALTER TABLE orders RENAME TO orders_gone');
    try {
      const res = await request(t.app).get('/api/v1/orders').set('Authorization', `Bearer ${manager}`);
      expect(res.status).toBe(500);
      expect(problem(res).code).toBe('internal_error');
      expect(res.text).not.toMatch(LEAKS);
      expect(res.text).not.toContain('orders_gone');
    } finally {
      await t.db.raw('ALTER TABLE orders_gone RENAME TO orders');
    }
  });
});
