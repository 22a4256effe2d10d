import { createTestContext, type TestContext } from '../test/harness';
import { seedFixtures, type Fixtures } from '../test/fixtures';
import { FAKE_MONETRA_USER, startMonetraFake, type MonetraFake } from '../test/monetra-fake';
import { saveMonetraCredentials } from '../modules/payments/payments.service';
import { fillCart, GOOD_CARD, postOrder, startCheckout, storeItems } from '../modules/orders/test-support';
import { tokenFor } from '../test/harness';
import { createPaymentReconciler, RECONCILE_QUEUE } from './payment-reconciler';

/** The reconciler's wiring: a pg-boss schedule every minute, and a pass at startup. */
let t: TestContext;
let fx: Fixtures;
let fake: MonetraFake;

beforeAll(async () => {
  fake = await startMonetraFake();
  t = await createTestContext({
    env: { PAYMENT_TEST_MODE: 'false', MONETRA_URL: fake.url, PAYMENT_CREDENTIALS_KEY: 'ab'.repeat(32), MONETRA_TIMEOUT_MS: '1000' },
  });
  fx = await seedFixtures(t.db);
  await saveMonetraCredentials(t.db, t.config, { storeId: 2190, environment: 'test', ...FAKE_MONETRA_USER });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

it('when the reconciler starts, then it schedules itself every minute and its startup pass settles a card order left pending over 60 s', async () => {
  const [item] = await storeItems(t.db, 2190, 1);
  const cartId = await fillCart(t.db, {
    userId: fx.users.buyer.id,
    outletId: fx.outlets.dsm,
    storeId: 2190,
    lines: [{ item, quantity: 1 }],
  });
  const buyer = tokenFor(t, fx.users.buyer);
  const session = await startCheckout(t.app, buyer, cartId);
  fake.delayMs = 1500;
  fake.lookupDown = true;
  expect((await postOrder(t.app, buyer, { checkoutToken: session.body.token, paymentMethod: 'card', card: GOOD_CARD })).status).toBe(409);
  fake.delayMs = 0;
  fake.lookupDown = false;
  const order = await t.db('orders').where({ user_id: fx.users.buyer.id, payment_status: 'pending' }).first('id');
  await t
    .db('orders')
    .where({ id: order!.id })
    .update({ order_date: t.db.raw(`now() - interval '2 minutes'`) });

  const reconciler = createPaymentReconciler({
    connectionString: t.config.databaseUrl!,
    db: t.db,
    config: t.config,
    logger: t.ctx.logger,
    mailer: t.ctx.mailer,
  });
  await reconciler.start();
  try {
    const schedule = await t.db.raw('SELECT name, cron FROM pgboss.schedule WHERE name = ?', [RECONCILE_QUEUE]);
    expect(schedule.rows).toEqual([{ name: RECONCILE_QUEUE, cron: '* * * * *' }]);
    const deadline = Date.now() + 10_000;
    while ((await t.db('orders').where({ id: order!.id }).first('payment_status'))!.payment_status === 'pending' && Date.now() < deadline) {
      await new Promise((ok) => setTimeout(ok, 100));
    }
    expect(await t.db('orders').where({ id: order!.id }).first('payment_status')).toEqual({ payment_status: 'paid' });
    expect((await t.db('carts').where({ id: cartId }).first('status'))!.status).toBe('checked_out');
    expect(await reconciler.runOnce()).toMatchObject({ paid: 0, failed: 0, pending: 0 });
  } finally {
    await reconciler.stop();
  }
}, 60_000);
