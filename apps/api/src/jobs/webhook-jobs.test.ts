import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../test/fixtures';
import { GOOD_CARD, fillCart, postOrder, startCheckout, storeItems } from '../modules/orders/test-support';
import { signWebhook } from '../modules/webhooks/webhooks.service';
import { PgBoss, failWithCeiling, ensureQueue } from './pg-boss';
import { createWebhookJobs } from './webhook-jobs';
import { waitFor } from '../test/wait';

/**
 * Webhook delivery through the real queue (issue 14 §5): an order placed through the API queues its
 * delivery in the order's transaction; the pg-boss worker posts it to a local receiver that fails twice,
 * retries with backoff, and the third attempt is delivered and signed. Also: a retry never waits longer
 * than the ceiling.
 */
const S = FIXTURE_STORES;
let t: TestContext;
let fx: Fixtures;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

describe('webhook delivery jobs', () => {
  it('when the receiver fails twice, then the worker retries with backoff and the third attempt is delivered, signed', async () => {
    let calls = 0;
    const got: { sig: string; body: string; at: number }[] = [];
    const srv: Server = createServer((req, res) => {
      let b = '';
      req.on('data', (d) => (b += d));
      req.on('end', () => {
        calls++;
        got.push({ sig: String(req.headers['portal-signature']), body: b, at: Date.now() });
        res.writeHead(calls <= 2 ? 500 : 200).end();
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const jobs = createWebhookJobs({
      connectionString: t.config.databaseUrl!,
      db: t.db,
      logger: t.ctx.logger,
      production: false,
      pollingIntervalSeconds: 0.5,
      retryDelaySeconds: 1,
    });
    await jobs.start();
    try {
      const hook = await request(t.app)
        .post('/api/v1/admin/webhooks')
        .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
        .send({ url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/h`, storeId: S.central, events: ['order.created'] });
      expect(hook.status).toBe(201);

      const [item] = await storeItems(t.db, S.central, 1);
      const cartId = await fillCart(t.db, {
        userId: fx.users.buyer.id,
        outletId: fx.outlets.dsm,
        storeId: S.central,
        lines: [{ item, quantity: 1 }],
      });
      const s = await startCheckout(t.app, tokenFor(t, fx.users.buyer), cartId);
      expect(s.status).toBe(201);
      const order = await postOrder(t.app, tokenFor(t, fx.users.buyer), {
        checkoutToken: s.body.token,
        paymentMethod: 'card',
        card: GOOD_CARD,
      });
      expect(order.status).toBe(201);

      const delivery = await waitFor('the third attempt', async () => {
        const d = await t.db('webhook_deliveries').where({ endpoint_id: hook.body.id }).first('id', 'status', 'attempts');
        return d?.status === 'delivered' ? d : undefined;
      });
      expect(delivery.attempts).toBe(3);
      expect(await t.db('webhook_attempts').where({ delivery_id: delivery.id }).orderBy('id').pluck('status_code')).toEqual([
        500, 500, 200,
      ]);
      // Backoff: the second retry waited longer than the first (1 s doubling, with pg-boss's jitter ≥ half).
      expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(900);
      expect(got[2].at - got[1].at).toBeGreaterThanOrEqual(1_900);
      const event = JSON.parse(got[2].body);
      expect(event).toMatchObject({ type: 'order.created' });
      expect(JSON.stringify(event)).toContain(order.body.orderNumber);
      const ts = Number(/t=(\d+)/.exec(got[2].sig)![1]);
      expect(got[2].sig).toBe(signWebhook(hook.body.secret, got[2].body, ts));
    } finally {
      await jobs.stop();
      srv.close();
    }
  }, 60_000);

  it('when a job with a long retry delay fails, then its next attempt is no later than the ceiling', async () => {
    const boss = new PgBoss({ connectionString: t.config.databaseUrl!, max: 1, schedule: false, supervise: false });
    await boss.start();
    try {
      const queue = 'ceiling-probe';
      await ensureQueue(boss, queue, { retryLimit: 5, retryDelay: 86_400, retryBackoff: true });
      const id = (await boss.send(queue, { probe: true }))!;
      const [job] = await boss.fetch(queue);
      expect(job.id).toBe(id);
      await failWithCeiling(boss, queue, id, { message: 'probe' }, 60);
      const row = await t.db.raw(`SELECT state, extract(epoch FROM start_after - now()) AS wait FROM pgboss.job WHERE id = ?`, [id]);
      expect(row.rows[0].state).toBe('retry');
      expect(Number(row.rows[0].wait)).toBeLessThanOrEqual(60);
      expect(Number(row.rows[0].wait)).toBeGreaterThan(50);
    } finally {
      await boss.stop({ graceful: false });
    }
  });
});
