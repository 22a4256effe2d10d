import request from 'supertest';
import { createTestContext, type TestContext } from './test/harness';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

describe('API skeleton', () => {
  it('when the health endpoint is called, then it answers 200 { status: ok } with helmet headers', async () => {
    const res = await request(t.app).get('/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-request-id']).toMatch(/^[\w-]+$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
  });

  it('when readiness is asked on a migrated database, then it is ready with migrations current', async () => {
    const res = await request(t.app).get('/api/v1/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', database: 'up', migrations: 'current' });
  });

  it('when an unknown API route is called, then it answers a 404 problem+json', async () => {
    const res = await request(t.app).get('/api/v1/nope');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(JSON.parse(res.text)).toMatchObject({
      status: 404,
      title: 'Not Found',
      code: 'not_found',
      detail: 'No route for GET /api/v1/nope',
    });
  });

  it('when the body is malformed JSON, then it answers a 400 problem without a stack trace', async () => {
    const res = await request(t.app)
      .post('/api/v1/auth/login')
      .set('content-type', 'application/json')
      .send('{"email": "a@b.c", "password": ');
    expect(res.status).toBe(400);
    const body = JSON.parse(res.text);
    expect(body).toMatchObject({ status: 400, code: 'malformed_json', title: 'Bad Request' });
    expect(res.text).not.toMatch(/at .*\.(js|ts):\d+/);
  });

  it('when the OpenAPI document is fetched, then it is OpenAPI 3.1 with the health paths', async () => {
    const res = await request(t.app).get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/api/v1/health', '/api/v1/health/ready']));
  });

  it('when /metrics is scraped, then it serves Prometheus text with the request histogram', async () => {
    await request(t.app).get('/api/v1/health');
    const res = await request(t.app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toContain('http_request_duration_seconds');
  });
});

describe('request log redaction (ARCHITECTURE §8)', () => {
  it('when a URL carries a checkout token, then the logged URL hides it', () => {
    const { redactUrl } = jest.requireActual('./app') as typeof import('./app');
    const token = 'a'.repeat(64);
    expect(redactUrl(`/api/v1/checkout-sessions/${token}`)).toBe('/api/v1/checkout-sessions/[redacted]');
    expect(redactUrl(`/payment?source=cart&token=${token}&total=12.00`)).toBe('/payment?source=cart&token=[redacted]&total=12.00');
    expect(redactUrl('/api/v1/health')).toBe('/api/v1/health');
  });
});
