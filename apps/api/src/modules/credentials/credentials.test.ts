import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../app';
import { createTestContext, tokenFor, FIXTURE_PASSWORD, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { createUserWithRole, seedOtherBoard } from '../boards/admin-org.test-support';

const KEY = 'cd'.repeat(32);
const SECRET = 'sup3r-s3cret-pw';

/** A fake Monetra answering chkpwd: AUTH for merchant-2190 / SECRET, else an error. */
function fakeMonetra(): Promise<{ url: string; server: Server; seen: { auth?: string; body: Record<string, unknown> }[] }> {
  const seen: { auth?: string; body: Record<string, unknown> }[] = [];
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const c of req) raw += c;
    const body = JSON.parse(raw);
    seen.push({ auth: req.headers.authorization, body });
    const ok = req.headers.authorization === `Basic ${Buffer.from(`merchant-2190:${SECRET}`).toString('base64')}`;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        ok
          ? { IS_SUCCESS: true, code: 'AUTH', verbiage: 'SUCCESS' }
          : { IS_SUCCESS: false, code: 'DENY', verbiage: 'Invalid username or password' },
      ),
    );
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => ok({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server, seen })),
  );
}

/** Payment credentials: list without secrets, add/edit encrypted, reveal with password (audited), Monetra test. */
describe('admin payment credentials', () => {
  let t: TestContext;
  let fx: Fixtures;
  let fake: Awaited<ReturnType<typeof fakeMonetra>>;
  let admin: string;
  let boardAdmin: string;
  let buyer: string;
  const logLines: string[] = [];
  let app: ReturnType<typeof createApp>;
  const api = () => request(app);
  beforeAll(async () => {
    fake = await fakeMonetra();
    t = await createTestContext({ env: { PAYMENT_CREDENTIALS_KEY: KEY, MONETRA_URL: fake.url } });
    // The same app with a logger that keeps every line (a secret must never appear in one).
    const logger = pino(
      { level: 'trace' },
      new Writable({
        write(chunk, _e, done) {
          logLines.push(String(chunk));
          done();
        },
      }),
    );
    app = createApp({ ...t.ctx, logger });
    fx = await seedFixtures(t.db);
    await seedOtherBoard(t.db);
    admin = tokenFor(t, fx.users.admin);
    boardAdmin = tokenFor(t, await createUserWithRole(t.db, 'board-admin@example.com', 'board_admin', [fx.outlets.dsm]));
    buyer = tokenFor(t, fx.users.buyer);
    // This file's app does not wait for tokenFor's session rows as t.app does: a request to t.app waits for them.
    await request(t.app).get('/api/v1/health');
  });
  afterAll(async () => {
    await t.close();
    await new Promise((ok) => fake.server.close(ok));
  });

  const monetra = {
    storeId: FIXTURE_STORES.central,
    appCode: 'BCC',
    environment: 'test',
    credentialType: 'Monetra',
    dekSecretName: 'default',
    payload: { username: 'merchant-2190', password: SECRET },
  };
  let id: number;
  /** Adds the Monetra credential of store 2190 as the administrator; its id. */
  const addMonetra = async () => {
    const res = await api().post('/api/v1/admin/payment-credentials').auth(admin, { type: 'bearer' }).send(monetra);
    if (res.status !== 201) throw new Error(`adding the credential answered ${res.status}`);
    return res.body.id as number;
  };
  // Each test starts with no credential and no reveal on record, and makes the credential it needs.
  beforeEach(async () => {
    await t.db('payment_credentials').del();
    await t.db('audit_log').whereIn('action', ['payment_credential.revealed', 'auth.credential_reveal_refused']).del();
  });

  it('when a credential is added, then 201 without the secret, the row holds only ciphertext, and the audit names fields only', async () => {
    const res = await api().post('/api/v1/admin/payment-credentials').auth(admin, { type: 'bearer' }).send(monetra);
    expect(res.status).toBe(201);
    id = res.body.id;
    expect(res.body).toMatchObject({
      storeId: 2190,
      storeName: 'CENTRAL CITY LIQUOR, INC.',
      credentialType: 'Monetra',
      createdBy: 'admin@example.com',
    });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    const row = await t.db('payment_credentials').where({ id }).first();
    expect(row!.encrypted_payload).not.toContain(SECRET);
    const [a] = await t.db('audit_log').where({ action: 'payment_credential.created', entity_id: String(id) });
    expect((a.details as { fields: string[] }).fields).toEqual(['username', 'password']);
    expect(JSON.stringify(a.details)).not.toContain(SECRET);
    const store = await api().get('/api/v1/admin/stores/2190').auth(admin, { type: 'bearer' });
    expect(store.body.hasPaymentCredentials).toBe(true);
  });

  it("when the same store × app × environment × type is added again, then 409; missing fields are 400 with the spec's message", async () => {
    id = await addMonetra();
    const dup = await api().post('/api/v1/admin/payment-credentials').auth(admin, { type: 'bearer' }).send(monetra);
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('credential_exists');
    const missing = await api()
      .post('/api/v1/admin/payment-credentials')
      .auth(admin, { type: 'bearer' })
      .send({ storeId: 2190, payload: { a: 'b' } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { message: string }) => e.message)).toContain('Please fill in all required fields');
    expect(await t.db('payment_credentials')).toHaveLength(1);
  });

  it('when credentials are listed, then no secret and no ciphertext are in the answer', async () => {
    id = await addMonetra();
    const res = await api().get('/api/v1/admin/payment-credentials').auth(admin, { type: 'bearer' });
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(1);
    const row = await t.db('payment_credentials').where({ id }).first('encrypted_payload');
    expect(res.text).not.toContain(SECRET);
    expect(res.text).not.toContain(row!.encrypted_payload);
    expect(res.body.items[0]).not.toHaveProperty('encryptedPayload');
  });

  it('when revealing without a password, then 401; with a wrong one, 403; neither is audited', async () => {
    id = await addMonetra();
    const none = await api().post(`/api/v1/admin/payment-credentials/${id}/reveal`).auth(admin, { type: 'bearer' }).send({});
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('password_required');
    const wrong = await api()
      .post(`/api/v1/admin/payment-credentials/${id}/reveal`)
      .auth(admin, { type: 'bearer' })
      .send({ currentPassword: 'Wrong#Pass1' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('invalid_password');
    expect(JSON.stringify([none.body, wrong.body])).not.toContain(SECRET);
    expect(await t.db('audit_log').where({ action: 'payment_credential.revealed' })).toHaveLength(0);
  });

  it('when revealing with the current password, then the payload comes back and the reveal is audited', async () => {
    id = await addMonetra();
    const res = await api()
      .post(`/api/v1/admin/payment-credentials/${id}/reveal`)
      .auth(admin, { type: 'bearer' })
      .send({ currentPassword: FIXTURE_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.payload).toEqual({ username: 'merchant-2190', password: SECRET });
    const [a] = await t.db('audit_log').where({ action: 'payment_credential.revealed', entity_id: String(id) });
    expect(a.user_id).toBe(fx.users.admin.id);
    expect(JSON.stringify(a.details)).not.toContain(SECRET);
  });

  it('when a Monetra credential is tested, then the fake Monetra got the decrypted credentials and the answer is Test Successful; wrong ones fail', async () => {
    id = await addMonetra();
    const res = await api().post(`/api/v1/admin/payment-credentials/${id}/test`).auth(admin, { type: 'bearer' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Test Successful' });
    expect(fake.seen.at(-1)).toMatchObject({
      auth: `Basic ${Buffer.from(`merchant-2190:${SECRET}`).toString('base64')}`,
      body: { action: 'chkpwd' },
    });
    const edit = await api()
      .patch(`/api/v1/admin/payment-credentials/${id}`)
      .auth(admin, { type: 'bearer' })
      .send({ payload: { username: 'merchant-2190', password: 'other' } });
    expect(edit.status).toBe(200);
    expect(edit.body.updatedBy).toBe('admin@example.com');
    const bad = await api().post(`/api/v1/admin/payment-credentials/${id}/test`).auth(admin, { type: 'bearer' });
    expect(bad.body).toEqual({ success: false, message: 'Test Failed: Invalid username or password' });
  });

  it("when a Stripe credential is tested, then 422 with the spec's text and nothing is sent", async () => {
    const s = await api()
      .post('/api/v1/admin/payment-credentials')
      .auth(admin, { type: 'bearer' })
      .send({ ...monetra, credentialType: 'Stripe', payload: { key: 'sk_test_x' } });
    const before = fake.seen.length;
    const res = await api().post(`/api/v1/admin/payment-credentials/${s.body.id}/test`).auth(admin, { type: 'bearer' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'monetra_only', detail: 'Testing is only available for Monetra credentials' });
    expect(fake.seen.length).toBe(before);
  });

  it("when a board administrator reaches another board's credential, then 404; a buyer gets 403", async () => {
    const [o] = await t
      .db('payment_credentials')
      .insert({
        store_id: 9001,
        app_code: 'BCC',
        environment: 'test',
        credential_type: 'PayPal',
        dek_secret_name: 'x',
        encrypted_payload: 'x',
      })
      .returning('id');
    const list = await api().get('/api/v1/admin/payment-credentials').auth(boardAdmin, { type: 'bearer' });
    expect(list.body.items.some((c: { id: number }) => c.id === o.id)).toBe(false);
    const reveal = await api()
      .post(`/api/v1/admin/payment-credentials/${o.id}/reveal`)
      .auth(boardAdmin, { type: 'bearer' })
      .send({ currentPassword: FIXTURE_PASSWORD });
    expect(reveal.status).toBe(404);
    const edit = await api()
      .patch(`/api/v1/admin/payment-credentials/${o.id}`)
      .auth(boardAdmin, { type: 'bearer' })
      .send({ dekSecretName: 'y' });
    expect(edit.status).toBe(404);
    expect((await api().get('/api/v1/admin/payment-credentials').auth(buyer, { type: 'bearer' })).status).toBe(403);
  });

  it("when reveals keep failing from one address, then after the account's 5 wrong passwords (20 per address) the next answer is 429, even with the right password", async () => {
    // From an address of its own (the other tests' failures count on theirs), on a credential of its own,
    // revealed once (a success is not counted), then the failures the count below starts with.
    const from = '198.51.100.20';
    const reveal = (body: object, credentialId = id, token = admin) =>
      api()
        .post(`/api/v1/admin/payment-credentials/${credentialId}/reveal`)
        .set('X-Forwarded-For', from)
        .auth(token, { type: 'bearer' })
        .send(body);
    id = await addMonetra();
    expect((await reveal({ currentPassword: FIXTURE_PASSWORD })).status).toBe(200);
    const [foreign] = await t
      .db('payment_credentials')
      .insert({
        store_id: 9001,
        app_code: 'BCC',
        environment: 'test',
        credential_type: 'PayPal',
        dek_secret_name: 'x',
        encrypted_payload: 'x',
      })
      .returning('id');
    expect((await reveal({})).status).toBe(401);
    expect((await reveal({ currentPassword: 'Wrong#Pass1' })).status).toBe(403);
    expect((await reveal({ currentPassword: FIXTURE_PASSWORD }, foreign.id, boardAdmin)).status).toBe(404);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      statuses.push(
        (
          await api()
            .post(`/api/v1/admin/payment-credentials/${id}/reveal`)
            .set('X-Forwarded-For', from)
            .auth(admin, { type: 'bearer' })
            .send({ currentPassword: 'Wrong#Pass1' })
        ).status,
      );
    }
    // One wrong password happened above; the account may give 5 in 15 minutes (issue 23 §7), before the
    // address's 20 failed reveals (no password, wrong password, another board's credential) are reached.
    expect(statuses.slice(0, 4)).toEqual(Array(4).fill(403));
    expect(statuses.slice(4)).toEqual(Array(16).fill(429));
    const right = await api()
      .post(`/api/v1/admin/payment-credentials/${id}/reveal`)
      .set('X-Forwarded-For', from)
      .auth(admin, { type: 'bearer' })
      .send({ currentPassword: FIXTURE_PASSWORD });
    expect(right.status).toBe(429);
    expect(right.headers['retry-after']).toBeDefined();
    expect(await t.db('audit_log').where({ action: 'payment_credential.revealed' })).toHaveLength(1);
  });

  it('when all of the above ran, then no log line carried the secret or a password', async () => {
    // The lines of every test run so far, and of the writes and reads of a secret made here (when this runs first).
    id = await addMonetra();
    await api()
      .post(`/api/v1/admin/payment-credentials/${id}/reveal`)
      .auth(admin, { type: 'bearer' })
      .send({ currentPassword: FIXTURE_PASSWORD });
    await api().post(`/api/v1/admin/payment-credentials/${id}/test`).auth(admin, { type: 'bearer' });
    await api().post('/api/v1/admin/payment-credentials').auth(admin, { type: 'bearer' }).send(monetra); // 409
    await api().patch(`/api/v1/admin/payment-credentials/${id}`).auth(admin, { type: 'bearer' }).send({ payload: monetra.payload });
    await api().get('/api/v1/admin/payment-credentials').auth(admin, { type: 'bearer' });
    expect(logLines.length).toBeGreaterThan(5);
    const all = logLines.join('\n');
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain(FIXTURE_PASSWORD);
  });
});
