import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp } from '../app';
import { createTestContext, type TestContext } from '../test/harness';

/** Issue 26: a signed-in page load gets modulepreload links for its screen's chunks (preload.json); signed out, none. */
let web: string;
/** The page's one inline script (index.html's boot script in the real build). */
const BOOT = 'window.__portalBoot = { data: {} };';
const scriptSrcOf = (csp: string | undefined) => /(?:^|;)\s*script-src ([^;]*)/.exec(csp ?? '')?.[1].split(' ');
let t: TestContext;
let app: ReturnType<typeof createApp>;
const preloadsOf = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

beforeAll(async () => {
  web = mkdtempSync(join(tmpdir(), 'portal-spa-'));
  writeFileSync(
    join(web, 'index.html'),
    `<!doctype html><html><head><title>portal</title><script>${BOOT}</script></head><body><div id="root"></div></body></html>`,
  );
  writeFileSync(
    join(web, 'preload.json'),
    JSON.stringify({
      signedIn: ['/assets/api-1.js', '/assets/schemas-2.js'],
      signedOut: ['/assets/auth-5.js', '/assets/forms-6.js'],
      screens: [
        { path: '^/(shop/?)?$', files: ['/assets/shop-3.js', '/assets/api-1.js'] },
        { path: '^/orders/?$', files: ['/assets/store-orders-4.js', '"><script>alert(1)</script>'] },
      ],
    }),
  );
  t = await createTestContext();
  app = createApp(t.ctx, { webDir: web });
});
afterAll(() => t.close());

describe('the SPA page', () => {
  it('when a signed-out browser loads a page, then only the sign-in screen is preloaded (where a signed-out visit ends)', async () => {
    const res = await request(app).get('/shop').set('Accept', 'text/html');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(preloadsOf(res.text)).toEqual(['/assets/auth-5.js', '/assets/forms-6.js']);
    expect(res.text).toContain('<div id="root"></div>');
  });

  it('when a signed-in browser loads /shop, then the session chunks and the shop screen are preloaded, each once', async () => {
    const res = await request(app).get('/shop').set('Accept', 'text/html').set('Cookie', 'other=1; portal_signed_in=1');
    expect(res.status).toBe(200);
    expect(res.headers.vary).toMatch(/Cookie/);
    expect(preloadsOf(res.text)).toEqual(['/assets/api-1.js', '/assets/schemas-2.js', '/assets/shop-3.js']);
    expect(res.text.indexOf('modulepreload')).toBeLessThan(res.text.indexOf('</head>'));
  });

  it('when a signed-in browser loads another screen, then only its own chunks are added, and a file that is not an asset URL never is', async () => {
    const orders = await request(app).get('/orders').set('Accept', 'text/html').set('Cookie', 'portal_signed_in=1');
    expect(preloadsOf(orders.text)).toEqual(['/assets/api-1.js', '/assets/schemas-2.js', '/assets/store-orders-4.js']);
    expect(orders.text).not.toContain('alert(1)');
    const profile = await request(app).get('/profile').set('Accept', 'text/html').set('Cookie', 'portal_signed_in=1');
    expect(preloadsOf(profile.text)).toEqual(['/assets/api-1.js', '/assets/schemas-2.js']);
  });

  it('when the flag cookie says anything but 1, then the page is a signed-out one', async () => {
    const res = await request(app).get('/shop').set('Accept', 'text/html').set('Cookie', 'portal_signed_in=0; xportal_signed_in=1');
    expect(preloadsOf(res.text)).toEqual(['/assets/auth-5.js', '/assets/forms-6.js']);
  });

  it('when the page is served, then its Content-Security-Policy allows its own inline script by hash and no other inline script', async () => {
    const hash = `'sha256-${createHash('sha256').update(BOOT, 'utf8').digest('base64')}'`;
    for (const cookie of ['', 'portal_signed_in=1']) {
      const res = await request(app).get('/shop').set('Accept', 'text/html').set('Cookie', cookie);
      expect(scriptSrcOf(res.headers['content-security-policy'])).toEqual(["'self'", hash]);
      expect(res.headers['content-security-policy']).not.toMatch(/unsafe-inline'[^;]*;\s*script-src-attr|script-src[^;]*unsafe-inline/);
    }
    // An API answer keeps helmet's policy as it is: no inline script allowed there.
    const api = await request(app).get('/api/v1/health');
    expect(scriptSrcOf(api.headers['content-security-policy'])).toEqual(["'self'"]);
  });
});
