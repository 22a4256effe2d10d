import request from 'supertest';
import { AUTH_MESSAGES } from '@portal/contracts';
import { createTestContext, FIXTURE_PASSWORD, type TestContext } from '../../test/harness';
import { problem } from '../../test/http';
import { seedFixtures } from '../../test/fixtures';

/**
 * A readable "signed in" presence flag travels with the refresh cookie (so a
 * signed-out page load need not call /auth/refresh), and sign-in answers missing fields with the
 * spec 000 §5 messages.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

const cookies = (res: request.Response) => ([] as string[]).concat(res.headers['set-cookie'] ?? []);
const flagOf = (res: request.Response) => cookies(res).find((c) => c.startsWith('portal_signed_in='));
const login = (body: object) => request(t.app).post('/api/v1/auth/login').set('X-Forwarded-For', '10.9.0.1').send(body);

describe('POST /auth/login with missing fields', () => {
  it("when the body is empty, then 400 with the spec's identifier and password messages, not zod's", async () => {
    const res = await login({});
    expect(res.status).toBe(400);
    const p = problem(res);
    expect(p.code).toBe('validation_failed');
    expect(p.errors).toEqual([
      { path: 'password', message: AUTH_MESSAGES.passwordRequired },
      { path: 'email', message: AUTH_MESSAGES.identifierRequired },
    ]);
    expect(JSON.stringify(p)).not.toMatch(/expected string/);
  });

  it('when only the email is sent, then 400 Password is required', async () => {
    const res = await login({ email: 'buyer@example.com' });
    expect(res.status).toBe(400);
    expect(problem(res)).toMatchObject({ detail: 'Password is required', errors: [{ path: 'password', message: 'Password is required' }] });
  });

  it('when the email is not a string, then 400 Please enter a valid email address', async () => {
    const res = await login({ email: 42, password: 'x' });
    expect(res.status).toBe(400);
    expect(problem(res)).toMatchObject({
      detail: 'Please enter a valid email address',
      errors: [{ path: 'email', message: 'Please enter a valid email address' }],
    });
  });

  it('when the password recovery body lacks the email, then 400 Please enter a valid email address', async () => {
    const res = await request(t.app).post('/api/v1/auth/password-recovery').send({});
    expect(res.status).toBe(400);
    expect(problem(res).errors).toEqual([{ path: 'email', message: AUTH_MESSAGES.invalidEmail }]);
  });
});

describe('the signed-in presence flag', () => {
  it('when the user signs in, then a script-readable portal_signed_in=1 cookie (no secret, SameSite=Strict, path /) comes with the httpOnly refresh cookie', async () => {
    const res = await login({ email: 'buyer@example.com', password: FIXTURE_PASSWORD });
    expect(res.status).toBe(200);
    const flag = flagOf(res)!;
    expect(flag).toMatch(/^portal_signed_in=1;/);
    expect(flag).not.toMatch(/HttpOnly/i);
    expect(flag).toMatch(/SameSite=Strict/i);
    expect(flag).toMatch(/Path=\/;/);
  });

  it('when the session is refreshed, then the flag is renewed; when signing out, then it is cleared', async () => {
    const res = await login({ email: 'buyer@example.com', password: FIXTURE_PASSWORD });
    const refresh = cookies(res)
      .find((c) => c.startsWith('portal_refresh='))!
      .split(';')[0];
    const r = await request(t.app).post('/api/v1/auth/refresh').set('Cookie', refresh);
    expect(r.status).toBe(200);
    expect(flagOf(r)).toMatch(/^portal_signed_in=1;/);
    const next = cookies(r)
      .find((c) => c.startsWith('portal_refresh='))!
      .split(';')[0];
    const out = await request(t.app).post('/api/v1/auth/logout').set('Cookie', next);
    expect(out.status).toBe(204);
    expect(flagOf(out)).toMatch(/^portal_signed_in=;.*Expires=Thu, 01 Jan 1970/);
  });

  it('when a refresh is refused (no or dead cookie), then 401 and the flag is cleared too', async () => {
    const r = await request(t.app).post('/api/v1/auth/refresh').set('Cookie', 'portal_refresh=dead; portal_signed_in=1');
    expect(r.status).toBe(401);
    expect(flagOf(r)).toMatch(/^portal_signed_in=;/);
  });
});
