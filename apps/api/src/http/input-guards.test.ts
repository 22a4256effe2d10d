import { gzipSync } from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { createTestContext, loginAs, type TestContext } from '../test/harness';
import { seedFixtures, type Fixtures } from '../test/fixtures';
import { redactParams, redactUrl } from '../app';
import { clientIp } from './input-guards';
import { parseTrustProxy } from '../config';
import { metricsAuth } from './metrics';
import { errorHandler } from './problem';

let t: TestContext;
let f: Fixtures;
let token: string;
beforeAll(async () => {
  t = await createTestContext({ env: { METRICS_TOKEN: 'metrics-token-for-tests-0123456789' } });
  f = await seedFixtures(t.db);
  token = await loginAs(t.app, f.users.buyer.email);
});
afterAll(async () => {
  await t.close();
});

const problem = (res: request.Response) => ({ status: res.status, type: String(res.headers['content-type']), body: JSON.parse(res.text) });

describe('malformed input answers 4xx problem+json, never 500', () => {
  it('when a path parameter has a bad percent-encoding, then it answers 400 malformed_request', async () => {
    for (const path of ['/api/v1/orders/100%', '/api/v1/me/permissions/bcc.%', '/api/v1/stores/%E0%A4%A/products']) {
      const p = problem(await request(t.app).get(path).set('Authorization', `Bearer ${token}`));
      expect(p.status).toBe(400);
      expect(p.type).toMatch(/application\/problem\+json/);
      expect(p.body.code).toBe('malformed_request');
    }
  });

  it('when a query value, a path or a JSON string carries U+0000, then it answers 400 validation_failed naming the field, and nothing is saved', async () => {
    const q = problem(await request(t.app).get('/api/v1/stores/2190/products?search=a%00b').set('Authorization', `Bearer ${token}`));
    expect(q).toMatchObject({ status: 400, body: { code: 'validation_failed', errors: [{ path: 'query.search' }] } });
    const path = problem(await request(t.app).get('/api/v1/me/permissions/a%00b').set('Authorization', `Bearer ${token}`));
    expect(path).toMatchObject({ status: 400, body: { code: 'validation_failed', errors: [{ path: 'path' }] } });
    const body = problem(
      await request(t.app)
        .patch('/api/v1/me/profile')
        .set('Authorization', `Bearer ${token}`)
        .send({ firstName: 'A\u0000', lastName: 'B' }),
    );
    expect(body).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', detail: 'Text must not contain NUL (U+0000) characters.', errors: [{ path: 'firstName' }] },
    });
    const key = problem(
      await request(t.app)
        .patch('/api/v1/me/profile')
        .set('Authorization', `Bearer ${token}`)
        .set('Content-Type', 'application/json')
        .send('{"a\\u0000":1}'),
    );
    expect(key.status).toBe(400);
    const profile = await t.db('user_profiles').where({ user_id: f.users.buyer.id }).first('first_name');
    expect(profile?.first_name ?? '').not.toContain('\u0000');
  });

  it('when a body says gzip but is not, then it answers 400 malformed_request; an unknown encoding 415', async () => {
    const lie = problem(
      await request(t.app)
        .post('/api/v1/auth/login')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'gzip')
        .send('not gzip at all'),
    );
    expect(lie).toMatchObject({ status: 400, body: { code: 'malformed_request' } });
    const odd = problem(
      await request(t.app)
        .post('/api/v1/auth/login')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'x-made-up')
        .send('{}'),
    );
    expect(odd).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
  });

  it('when a small gzip body inflates past the body limit (a gzip bomb), then it answers 413 payload_too_large', async () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(100 * 1024);
    const p = problem(
      await request(t.app)
        .post('/api/v1/auth/login')
        .serialize((b) => b)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'gzip')
        .send(bomb),
    );
    expect(p).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
  });

  it('when JSON is sent as text/plain or as a form, then it answers 415 unsupported_media_type and does not sign in', async () => {
    const plain = problem(
      await request(t.app)
        .post('/api/v1/auth/login')
        .set('Content-Type', 'text/plain')
        .send('{"email":"buyer@example.com","password":"x"}'),
    );
    expect(plain).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
    const form = problem(await request(t.app).post('/api/v1/auth/login').type('form').send({ email: 'buyer@example.com' }));
    expect(form.status).toBe(415);
    expect(await t.db('audit_log').where({ action: 'auth.login_failed', actor_email: 'buyer@example.com' }).first()).toBeUndefined();
  });

  it('when a body-parser error carries only a status (no type), then the error middleware still answers problem+json', async () => {
    const app = express();
    app.get('/x', () => {
      throw Object.assign(new Error('aborted'), { status: 400 });
    });
    app.get('/u', () => {
      throw new URIError('URI malformed');
    });
    app.use(errorHandler);
    expect(problem(await request(app).get('/x'))).toMatchObject({ status: 400, body: { code: 'malformed_request' } });
    expect(problem(await request(app).get('/u'))).toMatchObject({ status: 400, body: { code: 'malformed_request' } });
  });
});

describe('X-Forwarded-For', () => {
  it('when a trusted hop sends a malformed X-Forwarded-For, then a valid sign-in still succeeds and the audit row has the proxy address', async () => {
    const res = await request(t.app)
      .post('/api/v1/auth/login')
      .set('X-Forwarded-For', 'not-an-ip')
      .send({ email: f.users.viewer.email, password: 'Fixture#Pass1' });
    expect(res.status).toBe(200);
    const row = await t
      .db('audit_log')
      .where({ action: 'auth.login', actor_email: f.users.viewer.email })
      .orderBy('id', 'desc')
      .first('ip');
    expect(row!.ip).toBe('127.0.0.1');
  });

  it('when X-Forwarded-For has several hops, then only TRUST_PROXY hops are honoured', () => {
    const app = express();
    const fake = (trustProxy: false | number | string, socket: string, xff?: string) => {
      app.set('trust proxy', trustProxy);
      return clientIp({
        app,
        socket: { remoteAddress: socket },
        headers: xff ? { 'x-forwarded-for': xff } : {},
      } as unknown as express.Request);
    };
    expect(fake('loopback', '127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
    expect(fake('loopback', '::ffff:127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
    expect(fake('loopback', '198.51.100.7', '203.0.113.9')).toBe('198.51.100.7'); // not a trusted hop: header ignored
    expect(fake('loopback', '127.0.0.1', '10.9.9.9, 203.0.113.9')).toBe('203.0.113.9'); // 203.0.113.9 is not trusted: stop there
    expect(fake(2, '127.0.0.1', '10.9.9.9, 203.0.113.9')).toBe('10.9.9.9');
    expect(fake(false, '127.0.0.1', '203.0.113.9')).toBe('127.0.0.1');
    expect(fake('loopback', '127.0.0.1', 'not-an-ip')).toBe('127.0.0.1');
    expect(fake('loopback', '127.0.0.1', ', ,,')).toBe('127.0.0.1');
    expect(fake('loopback', '127.0.0.1', '1.2.3.4\u0000')).toBe('127.0.0.1');
  });

  it('when TRUST_PROXY is true or not an address list, then the config is refused', () => {
    expect(() => parseTrustProxy('true')).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy('loopback, nonsense')).toThrow(/nonsense/);
    expect(parseTrustProxy('loopback, 10.0.0.0/8')).toBe('loopback, 10.0.0.0/8');
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('false')).toBe(false);
  });
});

describe('secrets out of logs and /metrics', () => {
  it('when a URL carries any token-like query parameter or an invitation token, then the logged URL and parameters hide it', () => {
    expect(redactUrl('/auth?access_token=abc&x=1&refresh_token=def')).toBe('/auth?access_token=[redacted]&x=1&refresh_token=[redacted]');
    expect(redactUrl('/invitation/accept?inv=secret123')).toBe('/invitation/accept?inv=[redacted]');
    expect(redactUrl('/api/v1/invitations/abcdef/accept')).toBe('/api/v1/invitations/[redacted]/accept');
    expect(redactUrl('/api/v1/invitations/options')).toBe('/api/v1/invitations/options');
    expect(redactUrl('/x?resetToken=q&TOKEN=z')).toBe('/x?resetToken=[redacted]&TOKEN=[redacted]');
    expect(redactParams({ token: 'a', checkoutToken: 'b', search: 'c' })).toEqual({
      token: '[redacted]',
      checkoutToken: '[redacted]',
      search: 'c',
    });
  });

  it('when METRICS_TOKEN is set, then /metrics answers 401 problem+json without the bearer token and 200 with it', async () => {
    const anon = await request(t.app).get('/metrics');
    expect(anon.status).toBe(401);
    expect(anon.headers['content-type']).toMatch(/problem\+json/);
    expect((await request(t.app).get('/metrics').set('Authorization', 'Bearer wrong')).status).toBe(401);
    const ok = await request(t.app).get('/metrics').set('Authorization', 'Bearer metrics-token-for-tests-0123456789');
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('http_request_duration_seconds');
  });

  it('when production has no METRICS_TOKEN, then /metrics is not served (404)', async () => {
    const app = express();
    app.get('/metrics', metricsAuth({ production: true }), (_req, res) => {
      res.send('metrics');
    });
    app.use(errorHandler);
    expect((await request(app).get('/metrics')).status).toBe(404);
    const dev = express();
    dev.get('/metrics', metricsAuth({ production: false }), (_req, res) => {
      res.send('metrics');
    });
    expect((await request(dev).get('/metrics')).status).toBe(200);
  });
});
