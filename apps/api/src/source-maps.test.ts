import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp } from './app';
import { createTestContext, type TestContext } from './test/harness';

/** Production serves no source maps (issue 23 §7): the SPA's .map files are 404 there, served elsewhere. */
let web: string;
beforeAll(() => {
  web = mkdtempSync(join(tmpdir(), 'portal-web-'));
  mkdirSync(join(web, 'assets'));
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>portal</title>');
  writeFileSync(join(web, 'assets', 'index-abc123.js'), 'console.log(1);\n//# sourceMappingURL=index-abc123.js.map\n');
  writeFileSync(join(web, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["src/main.tsx"],"sourcesContent":["secret source"]}');
});

async function withApp(env: Record<string, string>, run: (t: TestContext, app: ReturnType<typeof createApp>) => Promise<void>) {
  const t = await createTestContext({ env });
  try {
    await run(t, createApp(t.ctx, { webDir: web }));
  } finally {
    await t.close();
  }
}

describe('source maps', () => {
  it('when the portal runs in production, then a .map file answers 404 and never its source, while the script itself is served', async () => {
    await withApp(
      { NODE_ENV: 'production', PAYMENT_TEST_MODE: 'false', BCRYPT_COST: '12', PAYMENT_CREDENTIALS_KEY: 'ab'.repeat(32) },
      async (_t, app) => {
        const map = await request(app).get('/assets/index-abc123.js.map');
        expect(map.status).toBe(404);
        expect(map.text).not.toContain('secret source');
        expect((await request(app).get('/assets/index-abc123.js')).status).toBe(200);
      },
    );
  });

  it('when the portal runs in development, then the .map file is served', async () => {
    await withApp({}, async (_t, app) => {
      const map = await request(app).get('/assets/index-abc123.js.map');
      expect(map.status).toBe(200);
      expect(map.text).toContain('secret source');
    });
  });
});
