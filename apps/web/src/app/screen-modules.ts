/**
 * What a signed-in page load needs before its screen can show (issue 26: signed-in screens load as fast as /auth),
 * as source modules relative to apps/web (and, signed out, the sign-in screen). One table, two readers:
 * - the router (`preloadScreen`, main.tsx): the screen's chunk starts downloading before the first render;
 * - the build (vite.config.ts `preloadManifest`): writes `preload.json` (the chunk files of each entry, with their
 *   static imports, minus what the HTML already loads), from which the API puts `<link rel="modulepreload">` into
 *   the HTML of a signed-in page load (apps/api/src/http/spa.ts), so these chunks download alongside the entry
 *   instead of after it has run.
 * `path` is a regular expression's source, tested against the URL's pathname.
 */
export interface ScreenModules {
  path: string;
  modules: string[];
}

/**
 * Every signed-out page: the sign-in screen (a signed-out visit ends there; it is not in the entry, so signed-in
 * page loads do not carry its forms).
 */
export const SIGNED_OUT_MODULES: string[] = ['src/app/routes/auth.tsx'];

/** Every signed-in page: the API client, the contracts' schemas (/me is parsed with them) and the header's menu. */
export const SIGNED_IN_MODULES: string[] = ['src/lib/api.ts', 'src/lib/schemas.ts', 'src/features/navigation/components/profile-menu.tsx'];

/** The lazy screens by path; /admin also takes its default tab (Data Synch). */
export const SCREEN_MODULES: ScreenModules[] = [
  { path: '^/auth/?$', modules: ['src/app/routes/auth.tsx'] },
  { path: '^/profile/?$', modules: ['src/app/routes/profile.tsx'] },
  { path: '^/cart/?$', modules: ['src/app/routes/cart.tsx'] },
  { path: '^/orders/?$', modules: ['src/app/routes/store-orders.tsx'] },
  { path: '^/order-history/?$', modules: ['src/app/routes/order-history.tsx'] },
  { path: '^/(shop/?)?$', modules: ['src/app/routes/shop.tsx'] },
  { path: '^/admin/?$', modules: ['src/app/routes/admin/admin-dashboard.tsx', 'src/features/admin-data-sync/index.ts'] },
  { path: '^/admin/store/', modules: ['src/features/admin-stores/index.ts'] },
  { path: '^/admin/users/', modules: ['src/app/routes/admin/edit-user.tsx'] },
  { path: '^/payment/?$', modules: ['src/app/routes/payment.tsx'] },
  { path: '^/order-confirmation/', modules: ['src/app/routes/order-confirmation.tsx'] },
  { path: '^/pricing-calculator/?$', modules: ['src/app/routes/pricing-calculator.tsx'] },
  { path: '^/(order-guides|quick-order|suggested-order)(/|$)', modules: ['src/app/routes/ordering.tsx'] },
];

/** The entry of SCREEN_MODULES whose path matches `pathname`, if any. */
export function screenModulesOf(pathname: string): ScreenModules | undefined {
  return SCREEN_MODULES.find((s) => new RegExp(s.path).test(pathname));
}
