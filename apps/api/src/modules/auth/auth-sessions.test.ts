import request from 'supertest';
import jwt from 'jsonwebtoken';
import { createTestContext, FIXTURE_PASSWORD, type TestContext } from '../../test/harness';
import { seedFixtures, type Fixtures } from '../../test/fixtures';

/** Access tokens die with their session; tokens without exp or with a non-UUID sub are refused. */
let t: TestContext;
let f: Fixtures;
beforeAll(async () => {
  t = await createTestContext();
  f = await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

let ipCounter = 0;
async function signIn(email: string, password = FIXTURE_PASSWORD) {
  const res = await request(t.app).post('/api/v1/auth/login').set('X-Forwarded-For', `10.8.0.${++ipCounter}`).send({ email, password });
  expect(res.status).toBe(200);
  const cookie = ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('portal_refresh='))!
    .split(';')[0];
  return { access: res.body.access_token as string, cookie };
}
const me = (token: string) => request(t.app).get('/api/v1/me').set('Authorization', `Bearer ${token}`);

describe('access tokens die with their session', () => {
  it('when the session is signed out, then its access token answers 401 at once; another session of the same user still works', async () => {
    const a = await signIn(f.users.viewer.email);
    const b = await signIn(f.users.viewer.email);
    expect((await me(a.access)).status).toBe(200);
    expect((await request(t.app).post('/api/v1/auth/logout').set('Cookie', a.cookie)).status).toBe(204);
    const after = await me(a.access);
    expect(after.status).toBe(401);
    expect(after.headers['content-type']).toMatch(/problem\+json/);
    expect((await me(b.access)).status).toBe(200);
    const { sid } = jwt.decode(a.access) as { sid: string };
    expect(await t.db('auth_sessions').where({ family_id: sid }).whereNull('revoked_at').first()).toBeUndefined();
  });

  it('when the password is reset, then every access token of the user answers 401', async () => {
    const a = await signIn(f.users.otherBuyer.email);
    await request(t.app).post('/api/v1/auth/password-recovery').send({ email: f.users.otherBuyer.email }).expect(202);
    const link = t.mail
      .filter((m) => m.to === f.users.otherBuyer.email && m.template === 'password_reset')
      .pop()!
      .text.match(/#token=(\S+)/)![1];
    await request(t.app)
      .post('/api/v1/auth/password-reset')
      .send({ token: link, password: 'Brand#New2026x', confirmPassword: 'Brand#New2026x' })
      .expect(204);
    expect((await me(a.access)).status).toBe(401);
    expect((await signIn(f.users.otherBuyer.email, 'Brand#New2026x')).access).toEqual(expect.any(String));
  });

  it("when the password is changed, then the other sessions' tokens answer 401 and this one keeps working", async () => {
    const mine = await signIn(f.users.manager.email);
    const other = await signIn(f.users.manager.email);
    const res = await request(t.app)
      .post('/api/v1/me/password')
      .set('Authorization', `Bearer ${mine.access}`)
      .send({ currentPassword: FIXTURE_PASSWORD, newPassword: 'Changed#Pass2026', confirmPassword: 'Changed#Pass2026' });
    expect(res.status).toBe(204);
    expect((await me(other.access)).status).toBe(401);
    expect((await me(mine.access)).status).toBe(200);
  });

  it('when the user is deactivated or loses a role, then the next request is refused (401, 403)', async () => {
    const a = await signIn(f.users.buyer.email);
    expect((await request(t.app).get('/api/v1/me/outlets').set('Authorization', `Bearer ${a.access}`)).status).toBe(200);
    const grants = await t.db('role_grants').where({ user_id: f.users.buyer.id }).select('user_id', 'role_id', 'scope_type', 'outlet_id');
    await t.db('role_grants').where({ user_id: f.users.buyer.id }).delete();
    expect((await request(t.app).get('/api/v1/me/outlets').set('Authorization', `Bearer ${a.access}`)).status).toBe(403);
    await t.db('role_grants').insert(grants);
    await t.db('users').where({ id: f.users.buyer.id }).update({ is_active: false });
    expect((await me(a.access)).status).toBe(401);
    await t.db('users').where({ id: f.users.buyer.id }).update({ is_active: true });
    expect((await me(a.access)).status).toBe(200);
  });

  it('when a token has no exp, a non-UUID sub, no sid, or an unknown sid, then it answers 401 even though the signature is good', async () => {
    const a = await signIn(f.users.admin.email);
    const { sid } = jwt.decode(a.access) as { sid: string };
    const secret = t.config.jwtSecret;
    const forged = [
      jwt.sign({ email: f.users.admin.email, sid }, secret, { algorithm: 'HS256', subject: f.users.admin.id }), // no exp
      jwt.sign({ email: f.users.admin.email, sid }, secret, { algorithm: 'HS256', subject: 'admin', expiresIn: 60 }),
      jwt.sign({ email: f.users.admin.email, sid }, secret, { algorithm: 'HS256', subject: `${f.users.admin.id}' OR 1=1`, expiresIn: 60 }),
      jwt.sign({ email: f.users.admin.email }, secret, { algorithm: 'HS256', subject: f.users.admin.id, expiresIn: 60 }), // no sid
      jwt.sign({ email: f.users.admin.email, sid: 'not-a-uuid' }, secret, { algorithm: 'HS256', subject: f.users.admin.id, expiresIn: 60 }),
      jwt.sign({ email: f.users.admin.email, sid: '00000000-0000-4000-8000-000000000000' }, secret, {
        algorithm: 'HS256',
        subject: f.users.admin.id,
        expiresIn: 60,
      }),
    ];
    for (const token of forged) {
      const res = await me(token);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.text).code).toBe('unauthenticated');
    }
    // The same claims with exp, a UUID sub and the live sid pass: the refusals above are the rules, not the signature.
    expect(
      (await me(jwt.sign({ email: f.users.admin.email, sid }, secret, { algorithm: 'HS256', subject: f.users.admin.id, expiresIn: 60 })))
        .status,
    ).toBe(200);
  });

  it("when a session of one user is presented with another user's id, then it answers 401", async () => {
    const a = await signIn(f.users.otherManager.email);
    const { sid } = jwt.decode(a.access) as { sid: string };
    const swapped = jwt.sign({ email: f.users.admin.email, sid }, t.config.jwtSecret, {
      algorithm: 'HS256',
      subject: f.users.admin.id,
      expiresIn: 60,
    });
    expect((await me(swapped)).status).toBe(401);
  });
});
