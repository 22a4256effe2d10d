/**
 * The answers index.html's boot script asked for on a signed-in page load, before the app's scripts had arrived
 * (issue 26: signed-in screens load as fast as /auth): the token refresh (`/api/v1/auth/refresh`) and GET /me/boot,
 * whose parts are handed out by the path of their own routes: `/me`, `/me/outlets`, `/me/selection` and
 * `/outlets/{id}/stores`; on the shop, My Orders and Store Orders also that screen's first data by its own paths
 * (the products, bottle sizes and cart; `/orders?…&mine=true`; the store's orders, payment readiness, attention list
 * and deliveries), which the screen's page-load preload takes (lib/api preloadApi, the cart's preloadCurrentCart).
 * Each is handed out once; a refused, failed or null one resolves to null and the app asks
 * its route the usual way (lib/api), so errors surface as they always did.
 */
interface PortalBoot {
  /** The access token from the refresh cookie, or null (signed out, refused or unreachable). */
  token?: Promise<string | null>;
  /** The raw JSON of each GET by its path under /api/v1, or null when it was not answered with 2xx. */
  data: Record<string, Promise<unknown> | undefined>;
  /** Settles once GET /me/boot has answered (or failed) and the screen's first data has been asked for. */
  settled?: Promise<unknown>;
  /** GET /me/boot's orderFeedSeq (the order feed's horizon, read before any order list), or null without it. */
  orderFeedSeq?: Promise<number | null>;
}

declare global {
  interface Window {
    __portalBoot?: PortalBoot;
  }
}

const boot = (): PortalBoot | undefined => (typeof window === 'undefined' ? undefined : window.__portalBoot);

/** The boot script's promise `key`, once (later calls get null); null when the script did not run. */
function takeOnce<K extends 'token' | 'orderFeedSeq'>(key: K): PortalBoot[K] | null {
  const b = boot();
  const answer = b?.[key];
  if (!b || !answer) return null;
  delete b[key];
  return answer;
}

/** The boot script's token refresh, once (later calls get null: refresh tokens rotate, so it is never asked twice). */
export const takeBootToken = (): Promise<string | null> | null => takeOnce('token') ?? null;

/**
 * The boot script's answer to GET `path` (its raw JSON, or null when it failed), once, once the boot answer is in:
 * the script asks for the selected outlet's stores and the screen's first data only after GET /me/boot has
 * answered, so an app that gets to such a path first (from the selection this browser saw last) waits for that
 * answer instead of asking the same route alongside it. Null when the script did not ask for `path` (then the app
 * asks it itself).
 */
export async function takeBootDataOnceBooted(path: string): Promise<unknown> {
  const b = boot();
  if (b && !b.data[path]) await b.settled;
  const answer = b?.data[path];
  if (!answer) return null;
  delete b.data[path];
  return answer;
}

/**
 * GET /me/boot's orderFeedSeq, once: every order list of this page load was read after it, so the first live stream
 * (features/orders live-orders.ts) asks the lists again only when its `ready` id is past it. Null when the boot
 * script did not run or its answer failed (the lists are then asked again).
 */
export const takeBootOrderFeedSeq = (): Promise<number | null> | null => takeOnce('orderFeedSeq') ?? null;

/** Drops whatever the boot script asked for and the app has not taken (at sign-in and sign-out: never another user's). */
export function forgetBoot(): void {
  if (typeof window !== 'undefined') delete window.__portalBoot;
}
