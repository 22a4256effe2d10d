import request from 'supertest';
import bcrypt from 'bcrypt';
import { AUTH_MESSAGES } from '@portal/contracts';
import { createTestContext, FIXTURE_PASSWORD, type TestContext } from '../../test/harness';
import { problem } from '../../test/http';
import { seedFixtures, type Fixtures } from '../../test/fixtures';
import { hashPassword } from './auth.service';

/**
 * The lockout policy (account + IP pair, a per-account ceiling that slows and
 * never blocks the owner), wrong current passwords counted like failed sign-ins, every sign-in limited per
 * IP, and passwords over 72 bytes refused wherever a password is set.
 */
let t: TestContext;
let f: Fixtures;
beforeAll(async () => {
  t = await createTestContext({ env: { AUTH_ACCOUNT_FAILED_LOGIN_CEILING: '15', AUTH_ACCOUNT_SLOW_INTERVAL_SECONDS: '2' } });
  f = await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

const login = (email: string, password: string, ip: string) =>
  request(t.app).post('/api/v1/auth/login').set('X-Forwarded-For', ip).send({ email, password });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('lockout per account + IP pair', () => {
  it('when a stranger fails 10 times from one IP, then that IP gets 429 with Retry-After even with the right password, and the owner elsewhere signs in', async () => {
    for (let i = 0; i < 10; i++) expect((await login(f.users.viewer.email, 'Wrong#Pass1', '198.51.100.10')).status).toBe(401);
    const locked = await login(f.users.viewer.email, FIXTURE_PASSWORD, '198.51.100.10');
    expect(locked.status).toBe(429);
    expect(problem(locked)).toMatchObject({ code: 'rate_limited', detail: AUTH_MESSAGES.tooManyRequests });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    expect((await login(f.users.viewer.email, FIXTURE_PASSWORD, '203.0.113.20')).status).toBe(200);
    const rows = await t.db('audit_log').where({ action: 'auth.login_failed', actor_email: f.users.viewer.email });
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => r.ip === '198.51.100.10')).toBe(true);
  });

  it('when failures from many IPs pass the per-account ceiling, then unknown IPs get one attempt per interval (slowed, not blocked) and a known IP is not slowed', async () => {
    const email = f.users.otherManager.email;
    expect((await login(email, FIXTURE_PASSWORD, '192.0.2.77')).status).toBe(200); // the owner's usual address
    for (let i = 0; i < 15; i++) expect((await login(email, 'Wrong#Pass1', `198.51.100.${100 + (i % 5)}`)).status).toBe(401);
    // Ceiling reached: a further attempt from a new address within the interval is told to wait…
    const slowed = await login(email, FIXTURE_PASSWORD, '203.0.113.50');
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBeLessThanOrEqual(2);
    // …the owner's known address is not slowed…
    expect((await login(email, FIXTURE_PASSWORD, '192.0.2.77')).status).toBe(200);
    // …and after the interval the owner gets in from a new address too.
    await sleep(2100);
    expect((await login(email, FIXTURE_PASSWORD, '203.0.113.50')).status).toBe(200);
    // An attacker still guesses at most once per interval: the next wrong guess right away is refused before bcrypt.
    expect((await login(email, 'Wrong#Pass2', '198.51.100.200')).status).toBe(401);
    expect((await login(email, 'Wrong#Pass3', '198.51.100.201')).status).toBe(429);
  });
});

describe('POST /me/password counts wrong current passwords like sign-in', () => {
  it('when the current password is wrong 10 times from one IP, then the next change and sign-in from that IP answer 429 and the password is unchanged', async () => {
    const signedIn = await login(f.users.otherBuyer.email, FIXTURE_PASSWORD, '198.51.100.30');
    const token = signedIn.body.access_token as string;
    const change = (current: string) =>
      request(t.app)
        .post('/api/v1/me/password')
        .set('Authorization', `Bearer ${token}`)
        .set('X-Forwarded-For', '198.51.100.30')
        .send({ currentPassword: current, newPassword: 'Fresh#Pass2026', confirmPassword: 'Fresh#Pass2026' });
    for (let i = 0; i < 10; i++) {
      const res = await change('Wrong#Pass1');
      expect(res.status).toBe(400);
      expect(problem(res).code).toBe('current_password_incorrect');
    }
    const locked = await change(FIXTURE_PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    expect((await login(f.users.otherBuyer.email, FIXTURE_PASSWORD, '198.51.100.30')).status).toBe(429);
    const hash = (await t.db('users').where({ id: f.users.otherBuyer.id }).first('password_hash'))!.password_hash;
    expect(await bcrypt.compare(FIXTURE_PASSWORD, hash)).toBe(true);
    expect(await t.db('audit_log').where({ action: 'auth.password_change_refused', actor_email: f.users.otherBuyer.email })).toHaveLength(
      10,
    );
  });
});

describe('passwords over 72 bytes', () => {
  const long = 'Aa1#' + 'é'.repeat(40); // 44 characters, 84 bytes
  it('when a new password is over 72 bytes in UTF-8, then change and reset answer 400 with the clear message and nothing changes', async () => {
    const token = (await login(f.users.manager.email, FIXTURE_PASSWORD, '198.51.100.40')).body.access_token as string;
    const res = await request(t.app)
      .post('/api/v1/me/password')
      .set('Authorization', `Bearer ${token}`)
      .send({ currentPassword: FIXTURE_PASSWORD, newPassword: long, confirmPassword: long });
    expect(res.status).toBe(400);
    expect(problem(res).errors).toContainEqual({ path: 'newPassword', message: AUTH_MESSAGES.passwordTooLong });
    const hash = (await t.db('users').where({ id: f.users.manager.id }).first('password_hash'))!.password_hash;
    expect(await bcrypt.compare(FIXTURE_PASSWORD, hash)).toBe(true);

    const reset = await request(t.app)
      .post('/api/v1/auth/password-reset')
      .send({ token: 'x'.repeat(43), password: long, confirmPassword: long });
    expect(reset.status).toBe(400);
    expect(problem(reset).errors).toContainEqual({ path: 'password', message: AUTH_MESSAGES.passwordTooLong });
  });

  it('when a password is exactly 72 bytes, then it is accepted and only the whole password signs in', async () => {
    const token = (await login(f.users.manager.email, FIXTURE_PASSWORD, '198.51.100.41')).body.access_token as string;
    const exact = 'Aa1#' + 'x'.repeat(68);
    try {
      expect(
        (
          await request(t.app)
            .post('/api/v1/me/password')
            .set('Authorization', `Bearer ${token}`)
            .send({ currentPassword: FIXTURE_PASSWORD, newPassword: exact, confirmPassword: exact })
        ).status,
      ).toBe(204);
      expect((await login(f.users.manager.email, exact, '198.51.100.41')).status).toBe(200);
    } finally {
      // Restore the fixture password for the other tests (they sign the manager in with it).
      await t
        .db('users')
        .where({ id: f.users.manager.id })
        .update({ password_hash: await bcrypt.hash(FIXTURE_PASSWORD, 4) });
    }
  });

  it('when a service hashes a password over 72 bytes, then it is refused rather than truncated', async () => {
    await expect(hashPassword(t.ctx, long)).rejects.toMatchObject({ status: 400, message: AUTH_MESSAGES.passwordTooLong });
  });
});

describe('every sign-in is limited per IP', () => {
  it('when one IP signs in successfully past AUTH_IP_LOGIN_LIMIT, then it answers 429; another IP is not affected', async () => {
    const small = await createTestContext({ env: { AUTH_IP_LOGIN_LIMIT: '5' } });
    try {
      await seedFixtures(small.db);
      const go = (ip: string) =>
        request(small.app)
          .post('/api/v1/auth/login')
          .set('X-Forwarded-For', ip)
          .send({ email: 'buyer@example.com', password: FIXTURE_PASSWORD });
      for (let i = 0; i < 5; i++) expect((await go('198.51.100.60')).status).toBe(200);
      const limited = await go('198.51.100.60');
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      expect(JSON.parse(limited.text).code).toBe('rate_limited');
      expect((await go('198.51.100.61')).status).toBe(200);
      expect(await small.db('audit_log').where({ action: 'auth.login', ip: '198.51.100.60' })).toHaveLength(5);
    } finally {
      await small.close();
    }
  });
});
