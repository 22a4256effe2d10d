import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenResponseSchema } from '@portal/contracts';
import { FakeApi, reply } from './fake-api';

/** The inline boot script of apps/web/index.html (its first `<script>`), as the browser runs it. */
export const BOOT_SCRIPT = /<script>([\s\S]*?)<\/script>/.exec(readFileSync(join(__dirname, '../../index.html'), 'utf8'))![1];

/**
 * Runs index.html's boot script (issue 26) against whatever `fetch` the test installed (the fake API) and waits for
 * every answer it hands out: `{ token, data, orderFeedSeq }` with each part's JSON (or null) by its path under /api/v1.
 */
export async function runBootScript(): Promise<{
  token: string | null | undefined;
  data: Record<string, unknown>;
  orderFeedSeq: number | null | undefined;
}> {
  // The page's fetch takes paths relative to the page; the fake (like Node's fetch) needs whole URLs.
  const fake = globalThis.fetch;
  globalThis.fetch = (input, init) => fake(new URL(String(input), window.location.href).href, init);
  try {
    new Function(BOOT_SCRIPT)();
    const b = window.__portalBoot!;
    const token = await b.token;
    await Promise.all(Object.values(b.data));
    // The selection's stores (and the shop's first data) are handed out once the boot answer is in, before its parts
    // resolve.
    const data = Object.fromEntries(await Promise.all(Object.entries(b.data).map(async ([path, p]) => [path, await p] as const)));
    return { token, data, orderFeedSeq: await b.orderFeedSeq };
  } finally {
    globalThis.fetch = fake;
  }
}

/** An access token for user u1 that expires in 15 minutes (what the fake refresh of installBootApi answers). */
export const BOOT_JWT = `h.${btoa(JSON.stringify({ sub: 'u1', exp: Math.floor(Date.now() / 1000) + 900 }))}.s`;

/** A signed-in page load for the boot script: the `portal_signed_in` flag set and a fake API whose refresh answers BOOT_JWT. */
export function installBootApi(): FakeApi {
  document.cookie = 'portal_signed_in=1; path=/';
  return new FakeApi().install().on(
    'post',
    '/auth/refresh',
    reply(tokenResponseSchema, {
      access_token: BOOT_JWT,
      token_type: 'bearer',
      expires_in: 900,
      expires_at: 1,
      user: { id: 'u1', email: 'buyer@example.com' },
    }),
  );
}

/** Undoes installBootApi and what the script left: the flag, the shell's class, its answers and the page's URL. */
export function uninstallBootApi(api: FakeApi): void {
  api.uninstall();
  document.cookie = 'portal_signed_in=; max-age=0; path=/';
  document.documentElement.classList.remove('portal-boot');
  delete window.__portalBoot;
  window.history.replaceState(null, '', '/');
}
