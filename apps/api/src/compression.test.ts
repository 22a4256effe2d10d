import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { API_COMPRESS_FROM, compressResponses, compressWhenAsked, createApp } from './app';
import { createTestContext, type TestContext } from './test/harness';

/** Response compression and asset caching: brotli, else gzip; not for tiny bodies. */
let t: TestContext;
let web: string;
const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"row ${i}"`).join(',')}];\n`;
beforeAll(async () => {
  t = await createTestContext();
  web = mkdtempSync(join(tmpdir(), 'portal-web-'));
  mkdirSync(join(web, 'assets'));
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>Portal</title>');
  writeFileSync(join(web, 'assets', 'index-abc123.js'), script);
  // The build's precompressed copies of one script (vite.config.ts writes them next to each hashed asset).
  writeFileSync(join(web, 'assets', 'app-def456.js'), script);
  writeFileSync(join(web, 'assets', 'app-def456.js.br'), brotliCompressSync(script));
  writeFileSync(join(web, 'assets', 'app-def456.js.gz'), gzipSync(script));
});
afterAll(async () => {
  await t.close();
});

describe('response compression', () => {
  it('when a browser accepts brotli, then a hashed asset comes brotli-compressed and cached immutable', async () => {
    const app = createApp(t.ctx, { webDir: web });
    const res = await request(app).get('/assets/index-abc123.js').set('Accept-Encoding', 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // supertest decodes the body; it must be the file as written.
    expect(res.text).toBe(script);
  });

  it('when the build wrote .br and .gz copies, then the copy the browser accepts is sent as is (brotli first), else the plain file', async () => {
    const app = createApp(t.ctx, { webDir: web });
    const br = await request(app).get('/assets/app-def456.js').set('Accept-Encoding', 'gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(brotliCompressSync(script).length);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.text).toBe(script);
    const gz = await request(app).get('/assets/app-def456.js').set('Accept-Encoding', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.text).toBe(script);
    const plain = await request(app).get('/assets/app-def456.js').set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(script);
    expect((await request(app).get('/assets/missing-000000.js').set('Accept-Encoding', 'br')).status).toBe(404);
  });

  it('when a client accepts only gzip, then API JSON comes gzip-compressed', async () => {
    const res = await request(t.app).get('/api/v1/openapi.json').set('Accept-Encoding', 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.body.openapi).toBe('3.1.0');
  });

  it('when the body is under 1 KB, then it is sent as is', async () => {
    const res = await request(t.app).get('/api/v1/health').set('Accept-Encoding', 'gzip, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('when a response is a server-sent event stream, then it is never compressed (plain text of the same size is)', async () => {
    const { default: express } = await import('express');
    const app = express();
    app.use(compressResponses);
    const events = 'data: {"progress":1}\n\n'.repeat(200);
    app.get('/events', (_req, res) => {
      res.type('text/event-stream');
      res.send(events);
    });
    app.get('/text', (_req, res) => {
      res.type('text/plain');
      res.send(events);
    });
    const sse = await request(app).get('/events').set('Accept-Encoding', 'gzip, br');
    expect(sse.headers['content-encoding']).toBeUndefined();
    expect(sse.text).toBe(events);
    const text = await request(app).get('/text').set('Accept-Encoding', 'gzip, br');
    expect(text.headers['content-encoding']).toBe('br');
  });

  it('when an API answer is made per request, then it is compressed from 4 KB up (a smaller one goes as is); an SPA file from 1 KB', async () => {
    const { default: express } = await import('express');
    const app = express();
    app.use(compressWhenAsked);
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ code: `item-${i}`, name: 'Vodka 750 mL' }));
    const small = rows(40); // ≈ 1.5 KB of JSON
    const large = rows(200); // ≈ 7 KB
    expect(JSON.stringify(small).length).toBeGreaterThan(1024);
    expect(JSON.stringify(small).length).toBeLessThan(API_COMPRESS_FROM);
    app.get('/api/v1/small', (_req, res) => void res.json(small));
    app.get('/api/v1/large', (_req, res) => void res.json(large));
    app.get('/assets/small.json', (_req, res) => void res.json(small));
    const plain = await request(app).get('/api/v1/small').set('Accept-Encoding', 'gzip, br');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toEqual(small);
    const big = await request(app).get('/api/v1/large').set('Accept-Encoding', 'gzip, br');
    expect(big.headers['content-encoding']).toBe('br');
    expect(big.body).toEqual(large);
    expect((await request(app).get('/assets/small.json').set('Accept-Encoding', 'gzip, br')).headers['content-encoding']).toBe('br');
  });
});
