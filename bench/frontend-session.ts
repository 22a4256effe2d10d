import type { Db } from '../apps/api/src/db/knex';
import { FIXTURE_PASSWORD } from '../apps/api/src/test/harness';
import { seedFixtures } from '../apps/api/src/test/fixtures';
import { seedReference } from '../seeds';

/**
 * Signed-in pages for `bench -- frontend` (issue 26 acceptance): the demo data (the test fixtures: real stores,
 * items, the demo accounts with FIXTURE_PASSWORD), a few orders so My Orders and Store Orders show rows, and a
 * sign-in through the API whose cookies go into the browser — the SPA keeps its session as the refresh cookie
 * (httpOnly `portal_refresh`) plus the readable `portal_signed_in` flag, and asks POST /auth/refresh for its
 * access token on load, as after any real sign-in.
 */

/** Who is signed in on each measured route (none: anonymous). */
export const ROUTE_USERS: Record<string, string | undefined> = {
  '/auth': undefined,
  '/shop': 'buyer@example.com',
  '/order-history': 'buyer@example.com',
  '/orders': 'manager@example.com',
  '/admin': 'admin@example.com',
};

/** A cookie the API set, for the browser. */
export interface BrowserCookie {
  name: string;
  value: string;
  url: string;
  path: string;
  httpOnly: boolean;
  sameSite: 'Strict' | 'Lax' | 'None';
}

/** POST /auth/login as `email`; answers the access token and the cookies it set (for `base`). */
export async function signInThroughApi(base: string, email: string): Promise<{ token: string; cookies: BrowserCookie[] }> {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 200) + 1}` },
    body: JSON.stringify({ email, password: FIXTURE_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${email} answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { access_token: string };
  const cookies = res.headers.getSetCookie().map((line) => {
    const [pair, ...attrs] = line.split(';').map((s) => s.trim());
    const at = pair.indexOf('=');
    const attr = (n: string) => attrs.find((a) => a.toLowerCase().startsWith(n.toLowerCase()));
    const same = attr('samesite')?.split('=')[1]?.toLowerCase();
    return {
      name: pair.slice(0, at),
      value: decodeURIComponent(pair.slice(at + 1)),
      url: base,
      path: attr('path')?.split('=')[1] ?? '/',
      httpOnly: Boolean(attr('httponly')),
      sameSite: same === 'strict' ? 'Strict' : same === 'none' ? 'None' : 'Lax',
    } satisfies BrowserCookie;
  });
  return { token: body.access_token, cookies };
}

/** Replaces the cookies of the Chrome on `port` (puppeteer-core, Lighthouse's own driver) with `cookies`. */
export async function setBrowserCookies(port: number, cookies: BrowserCookie[]): Promise<void> {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}` });
  try {
    const context = browser.defaultBrowserContext();
    const old = await context.cookies();
    if (old.length) await context.deleteCookie(...old);
    if (cookies.length) await context.setCookie(...cookies.map(({ url, ...c }) => ({ ...c, domain: new URL(url).hostname })));
  } finally {
    await browser.disconnect();
  }
}

/**
 * The demo data in the bench database, and three in-store orders by the buyer at the Des Moines outlet's first
 * store (through the API, as the SPA places them), the outlet and store the buyer and the manager have selected:
 * My Orders and the manager's Store Orders have rows.
 */
export async function seedSignedInData(db: Db, base: string): Promise<void> {
  await seedReference(db); // roles and permissions (the tests' template database has them already)
  const fx = await seedFixtures(db);
  const { token } = await signInThroughApi(base, 'buyer@example.com');
  const storeId = 2190;
  const items = await db('inventory as inv')
    .join('items as i', 'i.id', 'inv.item_id')
    .where({ 'inv.store_id': storeId, 'i.active': true })
    .orderBy('i.code')
    .limit(3)
    .select('i.id', 'i.code', 'i.retail');
  const call = async (path: string, body: object) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  // The buyer and the store manager look at the Des Moines outlet and store 2190, where the orders are.
  for (const email of ['buyer@example.com', 'manager@example.com']) {
    const res = await fetch(`${base}/api/v1/me/selection`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${(await signInThroughApi(base, email)).token}` },
      body: JSON.stringify({ outletId: fx.outlets.dsm, storeId }),
    });
    if (res.status !== 200) throw new Error(`PUT /me/selection as ${email} answered ${res.status}: ${await res.text()}`);
  }
  for (const [n, item] of items.entries()) {
    const [cart] = await db('carts').insert({ user_id: fx.users.buyer.id, outlet_id: fx.outlets.dsm, store_id: storeId }).returning('id');
    await db('cart_items').insert({ cart_id: cart.id, item_id: item.id, item_code: item.code, quantity: n + 1, unit_price: item.retail });
    const session = await call('/checkout-sessions', { cartId: cart.id });
    await call('/orders', { checkoutToken: session.token, paymentMethod: 'in_store' });
  }
}
