import request from 'supertest';
import { createApp } from '../app';
import { createDb, type Db } from '../db/knex';
import { createTestContext, tokenFor, type TestContext } from '../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../test/fixtures';
import { problem } from '../test/http';

/**
 * The per-key rate limit (issue 24 §7, ARCHITECTURE §10): one budget per API key across routes and API
 * processes, counted in PostgreSQL (`rate_limits`), with the draft-8 RateLimit headers on every answer and
 * 429 rate_limited with Retry-After past it. Two apps on two pools of one database stand for two processes.
 */
const S = FIXTURE_STORES;
let t: TestContext;
let fx: Fixtures;
let otherDb: Db;
let other: ReturnType<typeof createApp>;

beforeAll(async () => {
  t = await createTestContext({ env: { API_KEY_RATE_LIMIT_PER_MINUTE: '4' } });
  fx = await seedFixtures(t.db);
  otherDb = createDb(t.config.databaseUrl!, { max: 2 });
  other = createApp({ ...t.ctx, db: otherDb });
});
afterAll(async () => {
  await otherDb.destroy();
  await t.close();
});

async function newKey(name: string): Promise<{ id: string; key: string }> {
  const k = await request(t.app)
    .post('/api/v1/admin/api-keys')
    .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
    .send({ name, storeId: S.central, scopes: ['inventory:write', 'orders:read'] });
  expect(k.status).toBe(201);
  return k.body;
}

describe('per-key rate limit', () => {
  it('when a key spends its 4 requests on two routes through two processes, then the 5th answers 429 with Retry-After in either, while another key still passes', async () => {
    const { id, key } = await newKey('limited');
    const feed = (app: typeof other) => request(app).get('/api/v1/integrations/order-events').set('Authorization', `Bearer ${key}`);
    const push = (app: typeof other) =>
      request(app).put(`/api/v1/integrations/stores/${S.central}/inventory`).set('Authorization', `Bearer ${key}`).send([]);

    const first = await feed(t.app);
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-policy']).toMatch(/^"api-key"; q=4; w=60; pk=:[\w=+/]+:$/);
    expect(first.headers['ratelimit']).toMatch(/^"api-key"; r=3; t=\d+(; pk=:[\w=+/]+:)?$/);
    expect((await feed(other)).status).toBe(200);
    expect((await push(t.app)).status).not.toBe(429);
    const fourth = await push(other);
    expect(fourth.status).not.toBe(429);
    expect(fourth.headers['ratelimit']).toMatch(/^"api-key"; r=0; t=\d+(; pk=:[\w=+/]+:)?$/);

    for (const app of [t.app, other]) {
      const refused = await feed(app);
      expect(refused.status).toBe(429);
      expect(problem(refused)).toMatchObject({ code: 'rate_limited', status: 429 });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    // One row for the key in the shared table, whatever the route and the process.
    const rows = await t.db('rate_limits').where('key', 'like', `%${id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0].key).toBe(`api-key:${id}`);
    expect(rows[0].points).toBeGreaterThanOrEqual(5);

    const another = await newKey('another');
    const ok = await request(other).get('/api/v1/integrations/order-events').set('Authorization', `Bearer ${another.key}`);
    expect(ok.status).toBe(200);
  });

  it('when a request has no valid key, then it is refused 401 before it is counted', async () => {
    const before = await t.db('rate_limits').count({ n: '*' }).first();
    const res = await request(t.app)
      .get('/api/v1/integrations/order-events')
      .set('Authorization', 'Bearer bcc_nothere_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx');
    expect(res.status).toBe(401);
    expect(await t.db('rate_limits').count({ n: '*' }).first()).toEqual(before);
  });
});
