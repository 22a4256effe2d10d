import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { placeInStoreOrder } from '../orders/test-support';
import { deliverOnce } from './webhooks.service';

/**
 * The DNS answers the SSRF check sees, by call: the first says a public address, every later one says
 * loopback (a rebinding attacker's name server). Only the check's module is mocked, so a sender that
 * looks the name up again through the system resolver would still reach the loopback receiver.
 */
const answers: string[] = [];
jest.mock('node:dns/promises', () => ({
  lookup: async () => {
    answers.push('asked');
    return [{ address: answers.length === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
  },
}));

/** Webhook endpoints (issue 23 §7): an empty PATCH is a 400, and the sender connects to the address it checked. */
const S = FIXTURE_STORES;
let t: TestContext;
let fx: Fixtures;
let admin: string;
let receiver: Server;
let received = 0;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  admin = tokenFor(t, fx.users.admin);
  receiver = createServer((req, res) => {
    received++;
    req.resume();
    res.writeHead(200).end();
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
});
afterAll(async () => {
  receiver.close();
  await t.close();
});

const port = () => (receiver.address() as AddressInfo).port;
const createHook = (url: string) =>
  request(t.app)
    .post('/api/v1/admin/webhooks')
    .set('Authorization', `Bearer ${admin}`)
    .send({ url, storeId: S.central, events: ['order.created'] });

describe('PATCH /admin/webhooks/{id}', () => {
  it('when the body is empty, then 400 validation_failed and the endpoint is unchanged', async () => {
    const hook = await createHook(`http://127.0.0.1:${port()}/empty`);
    expect(hook.status).toBe(201);
    const res = await request(t.app).patch(`/api/v1/admin/webhooks/${hook.body.id}`).set('Authorization', `Bearer ${admin}`).send({});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', detail: 'Send at least one of url, events or active' });
    expect(await t.db('webhook_endpoints').where({ id: hook.body.id }).first()).toMatchObject({
      url: `http://127.0.0.1:${port()}/empty`,
      active: true,
    });
    const ok = await request(t.app)
      .patch(`/api/v1/admin/webhooks/${hook.body.id}`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ active: false });
    expect(ok.status).toBe(200);
    expect(ok.body.active).toBe(false);
  });
});

describe('DNS rebinding', () => {
  it('when the name resolves to a public address for the check and to loopback afterwards, then the sender connects to the checked address and loopback never gets the event', async () => {
    await t.db('webhook_endpoints').update({ active: false });
    const hook = await createHook(`http://localhost:${port()}/rebound`);
    expect(hook.status).toBe(201);
    await placeInStoreOrder(t, fx, S.central);
    const delivery = (await t.db('webhook_deliveries').where({ endpoint_id: hook.body.id }).first('id'))!;
    answers.length = 0;
    const delivered = await deliverOnce(t.db, delivery.id, true, 2000);
    expect(delivered).toBe(false);
    expect(received).toBe(0);
    expect(answers).toHaveLength(1);
    const attempt = await t.db('webhook_attempts').where({ delivery_id: delivery.id }).first();
    expect(attempt).toMatchObject({ status_code: null });
    expect(attempt?.error).toBeTruthy();
  });
});
