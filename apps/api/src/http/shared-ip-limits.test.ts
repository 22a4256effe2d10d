import request from 'supertest';
import { createApp } from '../app';
import { createTestContext, FIXTURE_PASSWORD, type TestContext } from '../test/harness';
import { seedFixtures, type Fixtures } from '../test/fixtures';

/**
 * The per-IP limits of sign-in (and of the other public routes) are counted in PostgreSQL (issue 29 §4): two
 * API processes on one database (here two apps on one context, each with its own limiters) share one budget
 * per IP, so running a second replica does not double what one IP may try.
 */
let t: TestContext;
let fx: Fixtures;
let second: ReturnType<typeof createApp>;

beforeAll(async () => {
  t = await createTestContext({ env: { AUTH_IP_LOGIN_LIMIT: '4' } });
  fx = await seedFixtures(t.db);
  second = createApp(t.ctx);
});
afterAll(async () => {
  await t.close();
});

const login = (app: typeof second | TestContext['app'], ip: string) =>
  request(app).post('/api/v1/auth/login').set('X-Forwarded-For', ip).send({ email: fx.users.buyer.email, password: FIXTURE_PASSWORD });

describe('sign-in limit per IP across replicas', () => {
  it('when one IP signs in alternately on two API processes past AUTH_IP_LOGIN_LIMIT, then both refuse it with 429; another IP is not affected', async () => {
    const ip = '198.51.100.77';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await login(i % 2 ? second : t.app, ip)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect((await login(second, '198.51.100.78')).status).toBe(200);
    expect((await login(t.app, '198.51.100.78')).status).toBe(200);
  });
});
