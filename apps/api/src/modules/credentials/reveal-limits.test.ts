import request from 'supertest';
import { createTestContext, FIXTURE_PASSWORD, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { saveMonetraCredentials } from '../payments/payments.service';
import { REVEAL_ACCOUNT_FAILURE_LIMIT } from '../auth/auth.service';

/**
 * Revealing a payment credential takes the current password (issue 23 §7): wrong ones count toward the
 * account's sign-in lockout and are limited per account, from whatever IP they come.
 */
let t: TestContext;
let fx: Fixtures;
let admin: string;
let credentialId: number;

beforeAll(async () => {
  t = await createTestContext({ env: { PAYMENT_CREDENTIALS_KEY: 'ab'.repeat(32) } });
  fx = await seedFixtures(t.db);
  admin = tokenFor(t, fx.users.admin);
  credentialId = (
    await saveMonetraCredentials(t.db, t.config, { storeId: FIXTURE_STORES.central, environment: 'test', username: 'm', password: 'p' })
  ).id;
});
afterAll(async () => {
  await t.close();
});

const reveal = (password: string, ip: string) =>
  request(t.app)
    .post(`/api/v1/admin/payment-credentials/${credentialId}/reveal`)
    .set('Authorization', `Bearer ${admin}`)
    .set('X-Forwarded-For', ip)
    .send({ currentPassword: password });
const login = (password: string, ip: string) =>
  request(t.app).post('/api/v1/auth/login').set('X-Forwarded-For', ip).send({ email: fx.users.admin.email, password });

describe('wrong passwords on reveal', () => {
  it('when wrong passwords come from several IPs, then each is audited as a password failure and past the per-account limit every IP gets 429, the right password too', async () => {
    for (let i = 0; i < REVEAL_ACCOUNT_FAILURE_LIMIT; i++) {
      const r = await reveal('Wrong#Pass1', `203.0.113.${10 + i}`);
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('invalid_password');
    }
    expect(await t.db('audit_log').where({ action: 'auth.credential_reveal_refused', actor_email: fx.users.admin.email })).toHaveLength(
      REVEAL_ACCOUNT_FAILURE_LIMIT,
    );
    const limited = await reveal(FIXTURE_PASSWORD, '198.51.100.7');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBeDefined();
    expect(await t.db('audit_log').where({ action: 'payment_credential.revealed' })).toHaveLength(0);
  });

  it('when wrong reveal passwords came from one IP, then they count toward the sign-in lockout of that account and IP', async () => {
    await t.db('audit_log').where({ action: 'auth.credential_reveal_refused' }).del();
    const ip = '192.0.2.44';
    for (let i = 0; i < 5; i++) expect((await reveal('Wrong#Pass1', ip)).status).toBe(403);
    for (let i = 0; i < 5; i++) expect((await login('Wrong#Pass1', ip)).status).toBe(401);
    // 5 reveals + 5 sign-ins = the 10 failures that lock the account + IP pair.
    const locked = await login(FIXTURE_PASSWORD, ip);
    expect(locked.status).toBe(429);
    expect((await login(FIXTURE_PASSWORD, '192.0.2.45')).status).toBe(200);
  });
});
