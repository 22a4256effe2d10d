import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { startNotifications, type NotificationListener } from '../../db/notifications';
import { signAccessToken } from '../../http/auth';
import { createTestContext, FIXTURE_PASSWORD, tokenFor, type TestContext } from '../../test/harness';
import { seedFixtures, type Fixtures } from '../../test/fixtures';
import { waitFor } from '../../test/wait';
import { principalChanges } from './principal-cache';

/**
 * The principal cache of every signed-in route (issue 29 §1; http/route.ts, principal-cache.ts `onlyWhileHeard`):
 * used only while the notification listener is connected, and a change made through this process's API applies to
 * the very next request. Here the listener connects but its notifications are not acted on (`deaf`), so only the
 * answering request's own drop (route.ts `keepsPrincipals`) can make the next request see a change.
 */
let t: TestContext;
let fx: Fixtures;
let listener: NotificationListener | undefined;
const statements: string[] = [];

/** Listening, with the notifications themselves ignored (`deaf`) or acted on. */
const listen = async (deaf: boolean) => {
  await listener?.stop();
  listener = startNotifications(t.config.databaseUrl!, t.ctx.logger, [
    deaf ? { ...principalChanges, onNotification: () => undefined } : principalChanges,
  ]);
  await listener.ready;
};

beforeAll(async () => {
  t = await createTestContext({ env: { PRINCIPAL_CACHE_MS: '60000' } });
  fx = await seedFixtures(t.db);
  t.db.on('query', (q: { sql: string }) => statements.push(q.sql));
  await listen(true);
});
afterAll(async () => {
  await listener?.stop();
  await t.close();
});

const as = (token: string) => ({
  get: (path: string) => request(t.app).get(`/api/v1${path}`).set('Authorization', `Bearer ${token}`),
  post: (path: string) => request(t.app).post(`/api/v1${path}`).set('Authorization', `Bearer ${token}`),
  patch: (path: string) => request(t.app).patch(`/api/v1${path}`).set('Authorization', `Bearer ${token}`),
  delete: (path: string) => request(t.app).delete(`/api/v1${path}`).set('Authorization', `Bearer ${token}`),
});
/** The principal statements (access.repository findPrincipal) a call sends. */
const principalLoads = async (call: () => PromiseLike<{ status: number }>) => {
  statements.length = 0;
  const res = await call();
  return { status: res.status, loads: statements.filter((s) => s.startsWith('SELECT u.id, u.email, u.is_active')).length };
};
let ip = 0;
async function signIn(email: string) {
  const res = await request(t.app)
    .post('/api/v1/auth/login')
    .set('X-Forwarded-For', `10.9.0.${++ip}`)
    .send({ email, password: FIXTURE_PASSWORD });
  expect(res.status).toBe(200);
  const cookie = ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('portal_refresh='))!
    .split(';')[0];
  return { access: res.body.access_token as string, cookie };
}

describe('principal cache of the signed-in routes', () => {
  it('when the listener is connected, then a repeated request reuses the principal; a cart write keeps it; without the listener every request loads it', async () => {
    const buyer = as(tokenFor(t, fx.users.buyer));
    expect(await principalLoads(() => buyer.get('/me/outlets'))).toEqual({ status: 200, loads: 1 });
    expect(await principalLoads(() => buyer.get('/me/outlets'))).toEqual({ status: 200, loads: 0 });
    const cart = await buyer.get(`/carts/current?outletId=${fx.outlets.dsm}&storeId=2190`);
    expect(cart.status).toBe(200);
    await buyer.delete(`/carts/${cart.body.id}`);
    expect(await principalLoads(() => buyer.get('/me/outlets'))).toEqual({ status: 200, loads: 0 });
    await listener!.stop();
    listener = undefined;
    expect(await principalLoads(() => buyer.get('/me/outlets'))).toEqual({ status: 200, loads: 1 });
    expect(await principalLoads(() => buyer.get('/me/outlets'))).toEqual({ status: 200, loads: 1 });
    await listen(true);
  });

  it('when a session signs out, then its cached access token is refused by the very next request', async () => {
    const s = await signIn(fx.users.viewer.email);
    expect((await as(s.access).get('/me')).status).toBe(200);
    expect((await principalLoads(() => as(s.access).get('/me'))).loads).toBe(0);
    expect((await request(t.app).post('/api/v1/auth/logout').set('Cookie', s.cookie)).status).toBe(204);
    expect((await as(s.access).get('/me')).status).toBe(401);
  });

  it('when an administrator takes away a role or deactivates a user, then the very next request of that user is refused', async () => {
    const buyer = as(tokenFor(t, fx.users.otherBuyer));
    const admin = as(tokenFor(t, fx.users.admin));
    expect((await buyer.get('/me/outlets')).status).toBe(200);
    expect((await principalLoads(() => buyer.get('/me/outlets'))).loads).toBe(0);
    const role = (await t.db('roles').where({ code: 'outlet_buyer' }).first('id'))!;
    expect((await admin.delete(`/admin/users/${fx.users.otherBuyer.id}/roles/${role.id}`)).status).toBe(200);
    expect((await buyer.get('/me/outlets')).status).toBe(403);

    const manager = as(tokenFor(t, fx.users.otherManager));
    expect((await manager.get('/me')).status).toBe(200);
    expect((await principalLoads(() => manager.get('/me'))).loads).toBe(0);
    const off = await admin
      .patch(`/admin/users/${fx.users.otherManager.id}/profile`)
      .send({ firstName: 'Olive', lastName: 'Manager', phone: null, isActive: false });
    expect(off.status).toBe(200);
    expect((await manager.get('/me')).status).toBe(401);
  });

  it('when the password is changed, then the other sessions are refused by the very next request and this one goes on', async () => {
    const mine = await signIn(fx.users.manager.email);
    const other = await signIn(fx.users.manager.email);
    expect((await as(other.access).get('/me')).status).toBe(200);
    expect((await principalLoads(() => as(other.access).get('/me'))).loads).toBe(0);
    const res = await as(mine.access)
      .post('/me/password')
      .send({ currentPassword: FIXTURE_PASSWORD, newPassword: 'Changed#Pass2026', confirmPassword: 'Changed#Pass2026' });
    expect(res.status).toBe(204);
    expect((await as(other.access).get('/me')).status).toBe(401);
    expect((await as(mine.access).get('/me')).status).toBe(200);
  });

  it('when a session reaches its end, then its cached principal is not used past it', async () => {
    const sid = randomUUID();
    await t.db('auth_sessions').insert({
      user_id: fx.users.buyer.id,
      family_id: sid,
      token_hash: randomUUID(),
      expires_at: new Date(Date.now() + 1500),
    });
    const token = signAccessToken(t.config.jwtSecret, 3600, { sub: fx.users.buyer.id, email: fx.users.buyer.email, sid }).token;
    expect((await as(token).get('/me')).status).toBe(200);
    expect((await principalLoads(() => as(token).get('/me'))).loads).toBe(0);
    await waitFor('the session to end', async () => (await as(token).get('/me')).status === 401, 10_000);
  });

  it('when another process revokes a session, then the notification drops the cached principal', async () => {
    await listen(false);
    const token = tokenFor(t, fx.users.buyer);
    expect((await as(token).get('/me')).status).toBe(200);
    expect((await principalLoads(() => as(token).get('/me'))).loads).toBe(0);
    await t.db('auth_sessions').where({ user_id: fx.users.buyer.id }).update({ revoked_at: t.db.fn.now() });
    await waitFor('the replica to refuse', async () => (await as(token).get('/me')).status === 401);
  });
});
