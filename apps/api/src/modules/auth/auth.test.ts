import { createHash } from 'node:crypto';
import request from 'supertest';
import bcrypt from 'bcrypt';
import jwt from 'jsonwebtoken';
import { AUTH_MESSAGES } from '@portal/contracts';
import { createTestContext, FIXTURE_PASSWORD, tokenFor, type TestContext } from '../../test/harness';
import { problem } from '../../test/http';
import { seedFixtures, type Fixtures } from '../../test/fixtures';

let t: TestContext;
let f: Fixtures;
beforeAll(async () => {
  t = await createTestContext();
  f = await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** The refresh cookie pair `portal_refresh=…` from a response, or undefined. */
const refreshCookieOf = (res: request.Response) =>
  ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('portal_refresh='));
const cookiePair = (setCookie: string | undefined) => setCookie?.split(';')[0] ?? '';
const tokenOfCookie = (pair: string) => decodeURIComponent(pair.slice('portal_refresh='.length));

/** Signs in and returns the response, the access token and the refresh cookie pair. */
async function signIn(email: string, password = FIXTURE_PASSWORD, ip = '10.0.0.1') {
  const res = await request(t.app).post('/api/v1/auth/login').set('X-Forwarded-For', ip).send({ email, password });
  return { res, access: res.body.access_token as string, cookie: cookiePair(refreshCookieOf(res)) };
}
const refresh = (cookie: string) => request(t.app).post('/api/v1/auth/refresh').set('Cookie', cookie);
/** The id of the newest audit row (0 when none): a test reads only the rows written after it. */
const lastAuditId = async () => Number(((await t.db('audit_log').max('id as id').first()) as { id: number } | undefined)?.id ?? 0);
const auditRows = (action: string, email?: string) => {
  const q = t.db('audit_log').where({ action });
  if (email) q.andWhere({ actor_email: email });
  return q.orderBy('id');
};

describe('POST /auth/login', () => {
  it('when the credentials are right, then it answers the RFC 6749 token response and sets only an httpOnly SameSite=Strict cookie', async () => {
    const before = Date.now();
    const lastId = await lastAuditId(); // other tests sign the buyer in too
    const { res, cookie } = await signIn('buyer@example.com');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 900,
      expires_at: expect.any(Number),
      user: { id: f.users.buyer.id, email: 'buyer@example.com' },
    });
    expect(res.body).not.toHaveProperty('refresh_token');
    expect(res.body.expires_at).toBeGreaterThanOrEqual(Math.floor(before / 1000) + 899);
    const set = refreshCookieOf(res)!;
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Strict/i);
    expect(set).toMatch(/Path=\/api\/v1\/auth/);
    expect(set).not.toMatch(/Secure/i); // Secure only in production
    const claims = jwt.verify(res.body.access_token, t.config.jwtSecret) as jwt.JwtPayload;
    expect(claims.sub).toBe(f.users.buyer.id);

    const user = await t.db('users').where({ id: f.users.buyer.id }).first('last_login_at');
    expect(new Date(user!.last_login_at!).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const session = await t
      .db('auth_sessions')
      .where({ token_hash: sha256(tokenOfCookie(cookie)) })
      .first();
    expect(session).toMatchObject({ user_id: f.users.buyer.id, revoked_at: null, rotated_at: null, family_id: claims.sid });
    expect(
      await t
        .db('auth_sessions')
        .where({ token_hash: tokenOfCookie(cookie) })
        .first(),
    ).toBeUndefined(); // only the hash is stored
    const [audit] = await auditRows('auth.login', 'buyer@example.com').where('id', '>', lastId);
    expect(audit).toMatchObject({ user_id: f.users.buyer.id, ip: '10.0.0.1' });
  });

  it('when the email is unknown or the password wrong, then both answer the same 401 with the same detail, and both are audited', async () => {
    const wrong = await signIn('viewer@example.com', 'Wrong#Pass1', '10.0.0.2');
    const ghost = await signIn('nobody-here@example.com', 'Wrong#Pass1', '10.0.0.2');
    for (const res of [wrong.res, ghost.res]) {
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const [a, b] = [problem(wrong.res), problem(ghost.res)];
    expect(a).toMatchObject({ code: 'invalid_credentials', detail: AUTH_MESSAGES.invalidCredentials });
    expect({ ...b, requestId: '' }).toEqual({ ...a, requestId: '' });
    expect(await auditRows('auth.login_failed', 'viewer@example.com')).toEqual([
      expect.objectContaining({ user_id: f.users.viewer.id, ip: '10.0.0.2', details: { reason: 'wrong_password' } }),
    ]);
    expect(await auditRows('auth.login_failed', 'nobody-here@example.com')).toEqual([
      expect.objectContaining({ user_id: null, details: { reason: 'unknown_email' } }),
    ]);
  });

  it('when the email is malformed or the password empty, then it answers 400 with the spec messages', async () => {
    const res = await request(t.app).post('/api/v1/auth/login').send({ email: 'not-an-email', password: '' });
    expect(res.status).toBe(400);
    expect(problem(res).errors).toEqual(
      expect.arrayContaining([
        { path: 'email', message: 'Please enter a valid email address' },
        { path: 'password', message: 'Password is required' },
      ]),
    );
  });

  it('when the account is deactivated, then the right password is refused with the deactivated message and a wrong one stays generic', async () => {
    const right = await signIn('inactive@example.com', FIXTURE_PASSWORD, '10.0.0.3');
    expect(right.res.status).toBe(401);
    expect(problem(right.res)).toMatchObject({
      code: 'account_deactivated',
      detail: 'Your account has been deactivated. Please contact support for assistance.',
    });
    expect(right.res.headers['set-cookie']).toBeUndefined();
    const wrong = await signIn('inactive@example.com', 'Wrong#Pass1', '10.0.0.3');
    expect(problem(wrong.res)).toMatchObject({ code: 'invalid_credentials', detail: AUTH_MESSAGES.invalidCredentials });
    expect(await t.db('auth_sessions').where({ user_id: f.users.inactive.id })).toHaveLength(0);
    expect(await auditRows('auth.login_refused_inactive', 'inactive@example.com')).toHaveLength(1);
  });

  it('when one account has 10 failed sign-ins from one IP within 15 minutes, then the next attempt from it answers 429 with Retry-After even with the right password', async () => {
    for (let i = 0; i < 10; i++) {
      const { res } = await signIn('manager@example.com', `Wrong#${i}aaa`, '10.1.0.99');
      expect(res.status).toBe(401);
    }
    const locked = await signIn('manager@example.com', FIXTURE_PASSWORD, '10.1.0.99');
    expect(locked.res.status).toBe(429);
    expect(problem(locked.res)).toMatchObject({ code: 'rate_limited', detail: 'Too many requests' });
    expect(Number(locked.res.headers['retry-after'])).toBeGreaterThan(800);
    expect(Number(locked.res.headers['retry-after'])).toBeLessThanOrEqual(900);
    // Another account is not affected; and once the failures are older than 15 minutes the account opens again.
    expect((await signIn('buyer@example.com', FIXTURE_PASSWORD, '10.1.0.99')).res.status).toBe(200);
    await t
      .db('audit_log')
      .where({ action: 'auth.login_failed', actor_email: 'manager@example.com' })
      .update({ occurred_at: t.db.raw(`now() - interval '16 minutes'`) });
    expect((await signIn('manager@example.com', FIXTURE_PASSWORD, '10.1.0.99')).res.status).toBe(200);
  });

  it('when an unknown email has 10 failed sign-ins, then it is limited the same way (nothing tells which emails exist)', async () => {
    for (let i = 0; i < 10; i++) await signIn('ghost-2@example.com', `Wrong#${i}aaa`, '10.2.0.99');
    const res = (await signIn('ghost-2@example.com', 'Wrong#Pass1', '10.2.0.99')).res;
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('access tokens', () => {
  it('when a token is tampered with, signed with another key, expired, or missing, then protected routes answer 401', async () => {
    const good = tokenFor(t, f.users.buyer);
    expect((await request(t.app).get('/api/v1/me').set('Authorization', `Bearer ${good}`)).status).toBe(200);
    const [h, p, s] = good.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: f.users.admin.id }),
    ).toString('base64url');
    const cases = {
      tampered: `${h}.${forgedPayload}.${s}`,
      badSignature: `${good.slice(0, -3)}abc`,
      otherKey: jwt.sign({ email: 'buyer@example.com' }, 'another-secret-that-is-at-least-32-chars', {
        subject: f.users.buyer.id,
        expiresIn: 900,
      }),
      expired: jwt.sign({ email: 'buyer@example.com', exp: Math.floor(Date.now() / 1000) - 10 }, t.config.jwtSecret, {
        subject: f.users.buyer.id,
      }),
      none: jwt.sign({ email: 'buyer@example.com' }, '', { algorithm: 'none', subject: f.users.buyer.id }),
    };
    for (const [name, token] of Object.entries(cases)) {
      const res = await request(t.app).get('/api/v1/me').set('Authorization', `Bearer ${token}`);
      expect([name, res.status, problem(res).code]).toEqual([name, 401, 'unauthenticated']);
    }
    expect((await request(t.app).get('/api/v1/me')).status).toBe(401);
  });
});

describe('POST /auth/refresh', () => {
  it('when the refresh cookie is presented, then it rotates: a new token and cookie, the old row marked rotated and linked', async () => {
    const { cookie } = await signIn('viewer@example.com', FIXTURE_PASSWORD, '10.3.0.1');
    const res = await refresh(cookie);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'bearer', expires_in: 900, user: { id: f.users.viewer.id } });
    const next = cookiePair(refreshCookieOf(res));
    expect(next).not.toBe(cookie);
    const old = await t
      .db('auth_sessions')
      .where({ token_hash: sha256(tokenOfCookie(cookie)) })
      .first();
    const fresh = await t
      .db('auth_sessions')
      .where({ token_hash: sha256(tokenOfCookie(next)) })
      .first();
    expect(old!.rotated_at).not.toBeNull();
    expect(old!.replaced_by).toBe(fresh!.id);
    expect(fresh).toMatchObject({ family_id: old!.family_id, revoked_at: null });
    expect(new Date(fresh!.expires_at).getTime()).toBe(new Date(old!.expires_at).getTime()); // absolute lifetime carries over
    expect((await request(t.app).get('/api/v1/me').set('Authorization', `Bearer ${res.body.access_token}`)).status).toBe(200);
  });

  it('when a rotated token is presented again within the reuse interval, then it gets a fresh token of the same family and nothing is revoked', async () => {
    const { cookie } = await signIn('viewer@example.com', FIXTURE_PASSWORD, '10.3.0.2');
    const first = await refresh(cookie);
    const second = await refresh(cookie); // the other tab, at the same moment
    expect([first.status, second.status]).toEqual([200, 200]);
    const family = (await t
      .db('auth_sessions')
      .where({ token_hash: sha256(tokenOfCookie(cookie)) })
      .first())!.family_id;
    expect(await t.db('auth_sessions').where({ family_id: family }).whereNotNull('revoked_at')).toHaveLength(0);
    expect((await refresh(cookiePair(refreshCookieOf(first)))).status).toBe(200);
    expect((await refresh(cookiePair(refreshCookieOf(second)))).status).toBe(200);
  });

  it('when a rotated token is reused after the reuse interval, then it answers 401 and the whole family is revoked and audited', async () => {
    const { cookie } = await signIn('viewer@example.com', FIXTURE_PASSWORD, '10.3.0.3');
    const rotated = await refresh(cookie);
    const current = cookiePair(refreshCookieOf(rotated));
    // Fake the clock in the DB: the rotation happened 11 s ago (the interval is at most 10 s).
    await t
      .db('auth_sessions')
      .where({ token_hash: sha256(tokenOfCookie(cookie)) })
      .update({ rotated_at: t.db.raw(`now() - interval '11 seconds'`) });
    const reuse = await refresh(cookie);
    expect(reuse.status).toBe(401);
    expect(problem(reuse)).toMatchObject({ code: 'session_invalid', detail: AUTH_MESSAGES.sessionExpired });
    expect(refreshCookieOf(reuse)).toMatch(/portal_refresh=;/); // cleared
    const family = (await t
      .db('auth_sessions')
      .where({ token_hash: sha256(tokenOfCookie(cookie)) })
      .first())!.family_id;
    const rows = await t.db('auth_sessions').where({ family_id: family });
    expect(rows.length).toBe(2);
    for (const r of rows) expect(r).toMatchObject({ revoked_at: expect.any(Date), revoked_reason: 'reuse_detected' });
    expect((await refresh(current)).status).toBe(401); // the legitimate holder is signed out too
    expect(await t.db('audit_log').where({ action: 'auth.session_revoked_reuse', entity_id: family })).toHaveLength(1);
  });

  it('when the session was idle past the inactivity timeout, or past its absolute lifetime, then refresh answers 401 and revokes it', async () => {
    const idle = await signIn('viewer@example.com', FIXTURE_PASSWORD, '10.3.0.4');
    await t
      .db('auth_sessions')
      .where({ token_hash: sha256(tokenOfCookie(idle.cookie)) })
      .update({ last_used_at: t.db.raw(`now() - make_interval(secs => ?)`, [t.config.refreshIdleTimeoutSeconds + 5]) });
    expect((await refresh(idle.cookie)).status).toBe(401);
    expect(
      await t
        .db('auth_sessions')
        .where({ token_hash: sha256(tokenOfCookie(idle.cookie)) })
        .first(),
    ).toMatchObject({ revoked_reason: 'idle_timeout' });

    const old = await signIn('viewer@example.com', FIXTURE_PASSWORD, '10.3.0.4');
    await t
      .db('auth_sessions')
      .where({ token_hash: sha256(tokenOfCookie(old.cookie)) })
      .update({ expires_at: t.db.raw(`now() - interval '1 second'`) });
    expect((await refresh(old.cookie)).status).toBe(401);
    expect(
      await t
        .db('auth_sessions')
        .where({ token_hash: sha256(tokenOfCookie(old.cookie)) })
        .first(),
    ).toMatchObject({ revoked_reason: 'absolute_lifetime' });
  });

  it('when there is no cookie or an unknown one, then it answers 401', async () => {
    expect((await request(t.app).post('/api/v1/auth/refresh')).status).toBe(401);
    expect((await refresh('portal_refresh=not-a-real-token')).status).toBe(401);
  });

  it('when the user was deactivated since sign-in, then refresh answers 401 and revokes the family', async () => {
    const [u] = await t
      .db('users')
      .insert({ email: 'soon-gone@example.com', password_hash: await bcrypt.hash(FIXTURE_PASSWORD, 4) })
      .returning('id');
    const { cookie } = await signIn('soon-gone@example.com', FIXTURE_PASSWORD, '10.3.0.5');
    await t.db('users').where({ id: u.id }).update({ is_active: false });
    expect((await refresh(cookie)).status).toBe(401);
    expect(await t.db('auth_sessions').where({ user_id: u.id }).first()).toMatchObject({ revoked_reason: 'user_inactive' });
  });
});

describe('POST /auth/logout', () => {
  it('when signed in, then it answers 204, clears the cookie, revokes the family, and refresh no longer works', async () => {
    const { cookie } = await signIn('viewer@example.com', FIXTURE_PASSWORD, '10.4.0.1');
    const res = await request(t.app).post('/api/v1/auth/logout').set('Cookie', cookie);
    expect(res.status).toBe(204);
    expect(refreshCookieOf(res)).toMatch(/portal_refresh=;.*(Expires=Thu, 01 Jan 1970)/i);
    expect(
      await t
        .db('auth_sessions')
        .where({ token_hash: sha256(tokenOfCookie(cookie)) })
        .first(),
    ).toMatchObject({ revoked_reason: 'logout' });
    expect((await refresh(cookie)).status).toBe(401);
    expect(await t.db('audit_log').where({ action: 'auth.logout', user_id: f.users.viewer.id })).toHaveLength(1);
  });

  it('when there is no cookie, then it still answers 204', async () => {
    expect((await request(t.app).post('/api/v1/auth/logout')).status).toBe(204);
  });
});

describe('password recovery and reset', () => {
  const recover = (email: string, ip = '10.5.0.1') =>
    request(t.app).post('/api/v1/auth/password-recovery').set('X-Forwarded-For', ip).send({ email });
  const reset = (token: string, password: string, confirmPassword = password, ip = '10.5.0.1') =>
    request(t.app).post('/api/v1/auth/password-reset').set('X-Forwarded-For', ip).send({ token, password, confirmPassword });
  /** Asks for a link for `email` and returns the token from the queued mail. */
  async function mailedToken(email: string) {
    const before = t.mail.length;
    expect((await recover(email)).status).toBe(202);
    const msg = t.mail.slice(before).find((m) => m.to === email && m.template === 'password_reset');
    return /#token=([A-Za-z0-9_-]+)/.exec(msg!.text)![1];
  }

  it('when a known and an unknown email ask for a link, then both answer 202 and only the active account is mailed a one-time link', async () => {
    const before = t.mail.length;
    const lastId = await lastAuditId(); // other tests ask for the buyer's links too
    const known = await recover('buyer@example.com');
    const unknown = await recover('nobody-here@example.com');
    const inactive = await recover('inactive@example.com');
    expect([known.status, unknown.status, inactive.status]).toEqual([202, 202, 202]);
    const sent = t.mail.slice(before);
    expect(sent.map((m) => m.to)).toEqual(['buyer@example.com']);
    const link = /(http\S+)/.exec(sent[0].text)![1];
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\?intent=recovery#token=[A-Za-z0-9_-]{43}$/);
    const token = link.split('#token=')[1];
    const row = await t
      .db('password_reset_tokens')
      .where({ token_hash: sha256(token) })
      .first();
    expect(row).toMatchObject({ user_id: f.users.buyer.id, used_at: null });
    const ttl = new Date(row!.expires_at).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThanOrEqual(60 * 60_000);
    expect(
      await t
        .db('audit_log')
        .where({ action: 'auth.password_recovery_requested' })
        .where('id', '>', lastId)
        .whereIn('actor_email', ['buyer@example.com', 'nobody-here@example.com', 'inactive@example.com']),
    ).toHaveLength(3);
  });

  it('when the email is malformed, then it answers 400 with the spec message', async () => {
    const res = await recover('nope');
    expect(res.status).toBe(400);
    expect(problem(res).detail).toBe('Please enter a valid email address');
  });

  it('when the mailed token is used, then the password is set (bcrypt), the token used, every session revoked and the notice mailed', async () => {
    const s1 = await signIn('buyer@example.com', FIXTURE_PASSWORD, '10.5.0.2');
    const s2 = await signIn('buyer@example.com', FIXTURE_PASSWORD, '10.5.0.2');
    const token = await mailedToken('buyer@example.com');
    const before = t.mail.length;
    const res = await reset(token, 'Brand#New42');
    expect(res.status).toBe(204);
    const user = await t.db('users').where({ id: f.users.buyer.id }).first('password_hash');
    expect(user!.password_hash).toMatch(/^\$2[aby]\$04\$/);
    expect(await bcrypt.compare('Brand#New42', user!.password_hash)).toBe(true);
    expect(
      await t
        .db('password_reset_tokens')
        .where({ token_hash: sha256(token) })
        .first(),
    ).toMatchObject({ used_at: expect.any(Date) });
    expect(await t.db('auth_sessions').where({ user_id: f.users.buyer.id }).whereNull('revoked_at')).toHaveLength(0);
    expect(
      await t
        .db('auth_sessions')
        .where({ user_id: f.users.buyer.id, revoked_reason: 'password_reset' })
        .whereIn(
          'token_hash',
          [s1.cookie, s2.cookie].map((c) => sha256(tokenOfCookie(c))),
        ),
    ).toHaveLength(2);
    expect(t.mail.slice(before)).toEqual([expect.objectContaining({ to: 'buyer@example.com', template: 'password_changed' })]);
    expect(t.mail.slice(before)[0].text).not.toMatch(/token=/);
    expect(await t.db('audit_log').where({ action: 'auth.password_changed', user_id: f.users.buyer.id })).toHaveLength(1);
    expect((await signIn('buyer@example.com', FIXTURE_PASSWORD, '10.5.0.3')).res.status).toBe(401);
    expect((await signIn('buyer@example.com', 'Brand#New42', '10.5.0.3')).res.status).toBe(200);

    const again = await reset(token, 'Other#Pass42');
    expect(again.status).toBe(400);
    expect(problem(again)).toMatchObject({ code: 'reset_token_invalid', detail: AUTH_MESSAGES.resetLinkInvalid });
    // Restore the fixture password for the other tests.
    await t
      .db('users')
      .where({ id: f.users.buyer.id })
      .update({ password_hash: await bcrypt.hash(FIXTURE_PASSWORD, 4) });
  });

  it('when the token is expired, unknown, or another link of the same user was used, then it answers 400 reset_token_invalid and nothing changes', async () => {
    const hashBefore = (await t.db('users').where({ id: f.users.viewer.id }).first('password_hash'))!.password_hash;
    const expired = await mailedToken('viewer@example.com');
    await t
      .db('password_reset_tokens')
      .where({ token_hash: sha256(expired) })
      .update({ expires_at: t.db.raw(`now() - interval '1 second'`) });
    const r1 = await reset(expired, 'Brand#New42');
    expect([r1.status, problem(r1).code]).toEqual([400, 'reset_token_invalid']);
    const r2 = await reset('x'.repeat(43), 'Brand#New42');
    expect([r2.status, problem(r2).code]).toEqual([400, 'reset_token_invalid']);
    const older = await mailedToken('viewer@example.com');
    const newer = await mailedToken('viewer@example.com');
    expect((await reset(newer, 'Brand#New42')).status).toBe(204);
    expect(problem(await reset(older, 'Brand#New43')).code).toBe('reset_token_invalid');
    expect(hashBefore).not.toBe((await t.db('users').where({ id: f.users.viewer.id }).first('password_hash'))!.password_hash);
    await t.db('users').where({ id: f.users.viewer.id }).update({ password_hash: hashBefore });
  });

  it('when the new password breaks a rule, is common, or the confirmation differs, then it answers 400 with the spec message and the token stays unused', async () => {
    const token = await mailedToken('otheruser-weak@example.com').catch(() => '');
    expect(token).toBe(''); // unknown account: no mail at all
    const real = await mailedToken('other-buyer@example.com');
    const cases: [string, string, string][] = [
      ['short', 'Ab#1', 'Password must be at least 8 characters'],
      ['upper', 'lower#case1', 'Password must contain at least one uppercase letter'],
      ['lower', 'UPPER#CASE1', 'Password must contain at least one lowercase letter'],
      ['number', 'No#Numbers', 'Password must contain at least one number'],
      ['special', 'NoSpecial12', 'Password must contain at least one special character'],
    ];
    for (const [name, pw, message] of cases) {
      const res = await reset(real, pw);
      expect([name, res.status, problem(res).errors]).toEqual([name, 400, expect.arrayContaining([{ path: 'password', message }])]);
    }
    const mismatch = await reset(real, 'Brand#New42', 'Brand#New43');
    expect(problem(mismatch).errors).toEqual([{ path: 'confirmPassword', message: "Passwords don't match" }]);
    for (const common of ['Password1!', 'P@ssw0rd', 'Qwerty123!']) {
      const res = await reset(real, common);
      expect([common, res.status, problem(res).code, problem(res).detail]).toEqual([
        common,
        400,
        'common_password',
        AUTH_MESSAGES.commonPassword,
      ]);
    }
    expect(
      await t
        .db('password_reset_tokens')
        .where({ token_hash: sha256(real) })
        .first(),
    ).toMatchObject({ used_at: null });
  });

  it('when one email asks for more than 5 links within an hour, then the sixth answers 429 with Retry-After, known or not', async () => {
    for (const email of ['other-manager@example.com', 'ghost-3@example.com']) {
      for (let i = 0; i < 5; i++) expect((await recover(email, `10.6.0.${i}`)).status).toBe(202);
      const res = await recover(email, '10.6.0.9');
      expect(res.status).toBe(429);
      expect(problem(res)).toMatchObject({ code: 'rate_limited', detail: 'Too many requests' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(3500);
    }
    expect(t.mail.filter((m) => m.to === 'other-manager@example.com' && m.template === 'password_reset')).toHaveLength(5);
  });

  it('when the mailbox owner completes a reset, then the requests before it no longer count toward the limit', async () => {
    for (let i = 0; i < 4; i++) expect((await recover('admin@example.com', `10.7.0.${i}`)).status).toBe(202);
    const token = await mailedToken('admin@example.com'); // the fifth
    expect((await reset(token, 'Admin#Reset42')).status).toBe(204);
    expect((await recover('admin@example.com', '10.7.0.8')).status).toBe(202);
    await t
      .db('users')
      .where({ id: f.users.admin.id })
      .update({ password_hash: await bcrypt.hash(FIXTURE_PASSWORD, 4) });
  });
});

describe('per-IP limits', () => {
  let s: TestContext;
  beforeAll(async () => {
    s = await createTestContext({ env: { AUTH_IP_FAILED_LOGIN_LIMIT: '3', AUTH_RECOVERY_IP_LIMIT: '2' } });
  });
  afterAll(async () => {
    await s.close();
  });

  it('when one IP fails sign-ins past its limit across many emails, then it answers 429 with Retry-After; another IP is not affected', async () => {
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await request(s.app)
            .post('/api/v1/auth/login')
            .set('X-Forwarded-For', '10.9.0.1')
            .send({ email: `spray${i}@example.com`, password: 'Wrong#Pass1' })
        ).status,
      ).toBe(401);
    }
    const res = await request(s.app)
      .post('/api/v1/auth/login')
      .set('X-Forwarded-For', '10.9.0.1')
      .send({ email: 'spray9@example.com', password: 'Wrong#Pass1' });
    expect(res.status).toBe(429);
    expect(problem(res)).toMatchObject({ code: 'rate_limited', detail: 'Too many requests' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(
      (
        await request(s.app)
          .post('/api/v1/auth/login')
          .set('X-Forwarded-For', '10.9.0.2')
          .send({ email: 'spray9@example.com', password: 'Wrong#Pass1' })
      ).status,
    ).toBe(401);
  });

  it('when one IP asks for recovery links past its limit, then it answers 429', async () => {
    const ask = (email: string) => request(s.app).post('/api/v1/auth/password-recovery').set('X-Forwarded-For', '10.9.1.1').send({ email });
    expect((await ask('a@example.com')).status).toBe(202);
    expect((await ask('b@example.com')).status).toBe(202);
    const res = await ask('c@example.com');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('OpenAPI', () => {
  it('when the document is fetched, then every auth path is in it', async () => {
    const res = await request(t.app).get('/api/v1/openapi.json');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['login', 'refresh', 'logout', 'password-recovery', 'password-reset'].map((p) => `/api/v1/auth/${p}`)),
    );
  });
});
