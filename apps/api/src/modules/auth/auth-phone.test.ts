import request from 'supertest';
import { AUTH_MESSAGES, PHONE_MESSAGES } from '@portal/contracts';
import { createTestContext, FIXTURE_PASSWORD, loginAs, type TestContext } from '../../test/harness';
import { as, problem } from '../../test/http';
import { seedFixtures, type Fixtures } from '../../test/fixtures';

/**
 * Phone sign-in (issue 26 §7, spec 000 §5): POST /auth/login takes `{ phone, password }` as well as
 * `{ email, password }`, the phone normalised to E.164; profile phones are stored in E.164 and one active
 * account per sign-in phone; the lockout counts phone attempts like email ones.
 */
let t: TestContext;
let f: Fixtures;
beforeAll(async () => {
  t = await createTestContext({ env: { AUTH_ACCOUNT_FAILED_LOGIN_LIMIT: '3' } });
  f = await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

let ip = 0;
/** Each call from its own address unless `from` is given (the per-IP limits stay out of the way). */
const login = (body: object, from = `10.26.0.${++ip}`) => request(t.app).post('/api/v1/auth/login').set('X-Forwarded-For', from).send(body);
const setPhone = async (email: string, phone: string | null) =>
  as(t.app, await loginAs(t.app, email))
    .patch('/me/profile')
    .send({ firstName: 'Pat', lastName: 'Phone', phone });

describe('phone numbers in profiles', () => {
  it('when a buyer saves "(515) 555-0100", then the profile holds +15155550100 and it signs in', async () => {
    const res = await setPhone(f.users.buyer.email, '(515) 555-0100');
    expect(res.status).toBe(200);
    expect(res.body.phone).toBe('+15155550100');
    expect((await t.db('users').where({ id: f.users.buyer.id }).first('phone'))?.phone).toBe('+15155550100');
  });

  it('when another active user saves the same number in another form, then 409 phone_taken and nothing changes', async () => {
    const res = await setPhone(f.users.viewer.email, '515-555-0100');
    expect(res.status).toBe(409);
    expect(problem(res)).toMatchObject({ code: 'phone_taken', detail: PHONE_MESSAGES.phoneTaken });
    expect((await t.db('user_profiles').where({ user_id: f.users.viewer.id }).first('phone'))?.phone ?? null).toBeNull();
  });

  it('when an administrator gives that number to another user in Edit User, then 409 phone_taken too', async () => {
    const res = await as(t.app, await loginAs(t.app, f.users.admin.email))
      .patch(`/admin/users/${f.users.viewer.id}/profile`)
      .send({ firstName: 'Val', lastName: 'Viewer', phone: '+1 515 555 0100', isActive: true });
    expect(res.status).toBe(409);
    expect(problem(res).code).toBe('phone_taken');
  });

  it('when the phone is not a phone number, then 400 with the phone message', async () => {
    const res = await setPhone(f.users.viewer.email, '515');
    expect(res.status).toBe(400);
    expect(problem(res).errors).toEqual([{ path: 'phone', message: PHONE_MESSAGES.invalidPhone }]);
  });

  it('when the database is written around the API with a national form, then the CHECK refuses it', async () => {
    await expect(t.db('user_profiles').where({ user_id: f.users.viewer.id }).update({ phone: '(515) 555-0101' })).rejects.toThrow(
      /user_profiles_phone_e164/,
    );
  });

  it('when a second active account holds the sign-in phone in the database, then the partial unique index refuses it', async () => {
    await expect(t.db('users').where({ id: f.users.viewer.id }).update({ phone: '+15155550100' })).rejects.toThrow(
      /users_phone_active_key/,
    );
  });
});

describe('POST /auth/login with a phone', () => {
  it('when the phone and password are right (national form), then 200 with the tokens of that user', async () => {
    const res = await login({ phone: '(515) 555-0100', password: FIXTURE_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({ id: f.users.buyer.id, email: f.users.buyer.email });
  });

  it('when the password is wrong, then 401 with the same message as a wrong email password', async () => {
    const res = await login({ phone: '+15155550100', password: 'Wrong#Pass1' });
    expect(res.status).toBe(401);
    expect(problem(res)).toMatchObject({ code: 'invalid_credentials', detail: AUTH_MESSAGES.invalidCredentials });
  });

  it('when no account has the phone, then 401 with the same message', async () => {
    const res = await login({ phone: '+15155550199', password: FIXTURE_PASSWORD });
    expect(res.status).toBe(401);
    expect(problem(res)).toMatchObject({ code: 'invalid_credentials', detail: AUTH_MESSAGES.invalidCredentials });
  });

  it('when both email and phone or neither are sent, then 400 with the spec message; an unknown key is still refused', async () => {
    for (const body of [{ password: 'x' }, { email: f.users.buyer.email, phone: '+15155550100', password: 'x' }]) {
      const res = await login(body);
      expect(res.status).toBe(400);
      expect(problem(res).errors).toContainEqual({ path: 'email', message: AUTH_MESSAGES.identifierRequired });
    }
    const odd = await login({ phone: '+15155550100', password: 'x', username: 'x' });
    expect(odd.status).toBe(400);
  });

  it('when the phone is not a phone number, then 400 Please enter a valid phone number', async () => {
    const res = await login({ phone: 'call me', password: 'x' });
    expect(res.status).toBe(400);
    expect(problem(res).errors).toEqual([{ path: 'phone', message: PHONE_MESSAGES.invalidPhone }]);
  });

  it('when the account is deactivated, then 401 account_deactivated after the right password only', async () => {
    await t.db('user_profiles').where({ user_id: f.users.inactive.id }).update({ phone: '+15635550111' });
    expect((await t.db('users').where({ id: f.users.inactive.id }).first('phone'))?.phone).toBe('+15635550111');
    expect(problem(await login({ phone: '+15635550111', password: 'Wrong#Pass1' })).code).toBe('invalid_credentials');
    expect(problem(await login({ phone: '+15635550111', password: FIXTURE_PASSWORD })).code).toBe('account_deactivated');
  });

  it('when wrong passwords by phone pass the account + IP limit, then 429, and the email of that account is locked from that IP too', async () => {
    const from = '10.26.1.1';
    for (let i = 0; i < 3; i++) expect((await login({ phone: '+15155550100', password: `Wrong#${i}x` }, from)).status).toBe(401);
    expect((await login({ phone: '+15155550100', password: FIXTURE_PASSWORD }, from)).status).toBe(429);
    expect((await login({ email: f.users.buyer.email, password: FIXTURE_PASSWORD }, from)).status).toBe(429);
    expect((await login({ email: f.users.buyer.email, password: FIXTURE_PASSWORD }, '10.26.1.2')).status).toBe(200);
  });

  it('when an unknown phone is tried past the limit, then 429 for that phone from that IP', async () => {
    const from = '10.26.2.1';
    for (let i = 0; i < 3; i++) expect((await login({ phone: '+15155550177', password: `Wrong#${i}x` }, from)).status).toBe(401);
    expect((await login({ phone: '(515) 555-0177', password: `Wrong#9x` }, from)).status).toBe(429);
  });
});

describe('a reactivated account whose sign-in phone was taken meanwhile', () => {
  it('when it is reactivated, then it keeps the profile phone but signs in by email only (the index holds)', async () => {
    await t.db('users').where({ id: f.users.noRoles.id }).update({ is_active: false });
    await t.db('user_profiles').where({ user_id: f.users.noRoles.id }).update({ phone: '+13195550140' });
    expect((await setPhone(f.users.otherBuyer.email, '+13195550140')).status).toBe(200);
    await t.db('users').where({ id: f.users.noRoles.id }).update({ is_active: true });
    const row = await t.db('users').where({ id: f.users.noRoles.id }).first('phone');
    expect(row?.phone).toBeNull();
    const res = await login({ phone: '+13195550140', password: FIXTURE_PASSWORD });
    expect(res.body.user?.id).toBe(f.users.otherBuyer.id);
  });
});
