import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { visualizer } from 'rollup-plugin-visualizer';
import { SCREEN_MODULES, SIGNED_IN_MODULES, SIGNED_OUT_MODULES } from './src/app/screen-modules';

const root = fileURLToPath(new URL('.', import.meta.url));
/**
 * ANALYZE=html (treemap) or raw-data writes a bundle report (where the bytes go, with gzip sizes) to
 * bench/results/bundle.<html|json> (`npm run bench -- frontend` uses it).
 */
const analyze = process.env.ANALYZE === 'html' ? 'treemap' : (process.env.ANALYZE as 'treemap' | 'raw-data' | undefined);
const report =
  analyze &&
  visualizer({
    filename: fileURLToPath(new URL(`../../bench/results/bundle.${analyze === 'raw-data' ? 'json' : 'html'}`, import.meta.url)),
    template: analyze,
    gzipSize: true,
    brotliSize: analyze === 'treemap',
  });

/**
 * Brotli (quality 11) and gzip (level 9) copies of the hashed scripts and styles next to them (x.js.br,
 * x.js.gz): the API sends those when the browser accepts them, smaller than compressing on the fly
 * (brotli quality 4) and with no work per request (issue 15 §4).
 */
function precompress(): Plugin {
  const br = promisify(brotliCompress);
  const gz = promisify(gzip);
  return {
    name: 'portal:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir!;
      const files = Object.keys(bundle).filter((f) => /^assets\/[^/]+\.(js|css)$/.test(f));
      await Promise.all(
        files.map(async (f) => {
          const body = await readFile(join(dir, f));
          if (body.length < 1024) return;
          await writeFile(
            join(dir, `${f}.br`),
            await br(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
          );
          await writeFile(join(dir, `${f}.gz`), await gz(body, { level: 9 }));
        }),
      );
    },
  };
}

/**
 * Writes `preload.json` next to index.html: `{ signedIn: string[], signedOut: string[], screens: { path, files: string[] }[] }`,
 * the chunk files (as URLs, e.g. /assets/shop-x.js) of SIGNED_IN_MODULES, SIGNED_OUT_MODULES and of each SCREEN_MODULES entry with every
 * chunk they import statically, minus those the HTML already preloads. The API puts them into the HTML of a
 * signed-in page load as `<link rel="modulepreload">` (apps/api/src/http/spa.ts; issue 26). Fails the build when a
 * listed module is in no chunk (renamed or removed).
 */
function preloadManifest(): Plugin {
  return {
    name: 'portal:preload-manifest',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const byModule = new Map<string, Rollup.OutputChunk>();
      // The chunk holding each module (a lazily loaded module shared with other chunks has no facade of its own).
      for (const c of chunks) for (const id of c.moduleIds) byModule.set(relative(root, id).split('\\').join('/'), c);
      const closure = (files: string[], into = new Set<string>()): Set<string> => {
        for (const f of files) {
          if (into.has(f)) continue;
          into.add(f);
          closure(byFile.get(f)?.imports ?? [], into);
        }
        return into;
      };
      const inHtml = closure(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
      const filesOf = (modules: string[]): string[] => {
        const missing = modules.filter((m) => !byModule.has(m));
        if (missing.length) this.error(`preload.json: no chunk holds ${missing.join(', ')} (src/app/screen-modules.ts)`);
        return [...closure(modules.map((m) => byModule.get(m)!.fileName))].filter((f) => !inHtml.has(f)).map((f) => `/${f}`);
      };
      this.emitFile({
        type: 'asset',
        fileName: 'preload.json',
        source: JSON.stringify({
          signedIn: filesOf(SIGNED_IN_MODULES),
          signedOut: filesOf(SIGNED_OUT_MODULES),
          screens: SCREEN_MODULES.map((s) => ({ path: s.path, files: filesOf(s.modules) })),
        }),
      });
    },
  };
}

/**
 * The built page paints before the app's scripts run (issue 26): Chrome runs module scripts as soon as the stylesheet
 * is in, before any frame, so index.html's app shell (signed in: the header and the spinner) would only show once the
 * app had rendered anyway. The entry is preloaded instead of run by its `<script src>`, and a small inline module
 * imports it after the next frame (at once in a hidden tab, where frames do not come). The API allows that script by
 * its hash, like the boot script (apps/api/src/http/spa.ts).
 */
function paintBeforeScripts(): Plugin {
  return {
    name: 'portal:paint-before-scripts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const entry = /<script type="module" crossorigin src="(\/assets\/[\w.-]+\.js)"><\/script>/.exec(html);
        if (!entry) throw new Error('index.html: the entry <script type="module" src> was not found');
        const start = `var go=function(){import(${JSON.stringify(entry[1])})};document.visibilityState==='visible'?requestAnimationFrame(function(){setTimeout(go)}):go()`;
        return html.replace(entry[0], `<link rel="modulepreload" crossorigin href="${entry[1]}"><script type="module">${start}</script>`);
      },
    },
  };
}

/**
 * Chunk groups, highest priority first (a module goes to the first group that captures it, with the modules it
 * imports): `initial` = everything the entry loads statically (the sign-in page); `schemas` = zod and the schemas
 * every signed-in page load reads its first answers with (below); `session` = the libraries and shared app modules
 * the signed-in screens use (UI primitives, icons, ky, SWR, lib/ but the delivery schedule, components/ui, the header's
 * profile menu). The contracts' schemas stay with the screens that use them: zod builds each schema when its chunk
 * runs, so a screen builds only its own (issue 26: building every schema of the contracts was the largest script cost
 * of a signed-in page load); those that several screens share are grouped by area (`contracts-*`, below).
 * Admin-only libraries (cmdk, dnd-kit, react-hook-form) and components/admin stay with the screens that use them.
 */
const SESSION_MODULES =
  /node_modules[\\/](@radix-ui|@floating-ui|react-remove-scroll[\w-]*|aria-hidden|react-style-singleton|use-callback-ref|use-sidecar|get-nonce|detect-node-es|tslib|lucide-react|ky|swr)[\\/]|apps[\\/]web[\\/]src[\\/](lib|components[\\/]ui|features[\\/]navigation)[\\/]/;
/**
 * zod, the contracts' schemas of a signed-in page load's first answers (`/me`, the selection, a problem, and what they
 * build on, with the small quantity rule most areas share) and `lib/schemas` (which session.tsx imports at once on a
 * signed-in load): a chunk of its own, so the browser evaluates it in a task of its own as soon as it arrives, apart
 * from the `session` chunk (issue 26: that chunk's evaluation was one task of 36–46 ms on a 2-core machine, 94–111 ms
 * on a slower one; split, the trace shows tasks of 14, 22 and 16 ms). It loads neither the `session` chunk nor the
 * sign-in forms.
 */
const SCHEMAS =
  /node_modules[\\/]zod[\\/]|libs[\\/]contracts[\\/]src[\\/](problem|common|phone|auth|me|quantity-rule)\.ts$|apps[\\/]web[\\/]src[\\/]lib[\\/]schemas\.ts$/;
/**
 * What several signed-in screens share beyond the `session` chunk, each kept as one chunk instead of the 1–3 KB
 * pieces the bundler would cut per set of importers (issue 26): a phone on HTTP/1.1 fetches six files at a time, and
 * `/orders` and `/order-history` loaded eleven scripts, `/shop` ten: a second round trip. `orders-shared`: the order
 * screens' list API, live updates and the pieces both show (status badge, refund note, live badge); `cart-shared`:
 * the cart API and the pricing analysis (the shop and the cart). With the profile menu in `session` and zod in
 * `schemas`, each of these screens loads seven scripts.
 * The contracts' schemas by area, since every schema in a chunk is built when it loads (issue 26: one
 * `contracts-shared` chunk built 442 schema objects on each of these screens, the `schemas` chunk 472 with the
 * ordering schedule's): `contracts-orders` (orders, payments, live updates: both order screens), `contracts-cart`
 * (carts, the catalog: the shop and the cart), `contracts-schedule` (the ordering schedule and lib/delivery-schedule:
 * the cart, checkout, store administration; Store Orders' deliveries are read with the orders' schemas and shown with
 * lib/format's deliveryDayText, so `/orders` does not load it). Data Synch's schemas are a contracts module of
 * their own (admin-imports.ts), so the admin dashboard's first tab does not build Administration II's. Counted in the
 * browser, a page load now builds 451 schema objects on /shop (914 before), 539 on /order-history (914), 759 on
 * /orders (914) and 367 on /admin (1,503).
 */
const CONTRACTS_ORDERS = /libs[\\/]contracts[\\/]src[\\/](orders|payments|live)\.ts$/;
const CONTRACTS_CART = /libs[\\/]contracts[\\/]src[\\/](carts|catalog)\.ts$/;
const CONTRACTS_SCHEDULE = /libs[\\/]contracts[\\/]src[\\/]ordering-schedule\.ts$|apps[\\/]web[\\/]src[\\/]lib[\\/]delivery-schedule\.ts$/;
const CART_SHARED =
  /apps[\\/]web[\\/]src[\\/]features[\\/](cart[\\/]api[\\/](case-rule-toast|cart-requests|use-cart)\.ts|pricing[\\/](pricing\.ts|components[\\/]pricing-analysis\.tsx))$/;
const ORDERS_SHARED =
  /apps[\\/]web[\\/]src[\\/]features[\\/]orders[\\/](api[\\/](get-orders|live-orders|use-live-orders|order-documents)\.ts|lib[\\/]order-text\.ts|components[\\/](refund-note|live-indicator|order-status-badge)\.tsx)$|node_modules[\\/]@microsoft[\\/]fetch-event-source[\\/]/;
/**
 * What the lazy sign-in screen shares with the signed-in screens (its inputs, field wrapper, error type, zod
 * resolver and icons): a small chunk of its own, so /auth does not load the `session` chunk and signed-in screens do
 * not load the sign-in forms (react-hook-form stays with the screens that have forms).
 */
const SIGN_IN_SHARED =
  /apps[\\/]web[\\/]src[\\/](components[\\/]ui[\\/](input|field)\.tsx|lib[\\/](api-error|lazy-zod-resolver)\.ts)$|lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/](log-in|mail-check|key-round)\.mjs$/;
const NOT_SESSION = /date-picker|react-day-picker|date-fns|delivery-schedule|react-collapsible|swr[\\/]dist[\\/]infinite|cursor-pages/;
const CHUNK_GROUPS = [
  { name: 'initial', tags: ['$initial' as const], priority: 30 },
  { name: 'sign-in-shared', test: (id: string) => SIGN_IN_SHARED.test(id), priority: 25 },
  { name: 'schemas', test: (id: string) => SCHEMAS.test(id), priority: 21 },
  // Not in `session`: the date picker and the delivery schedule (their own chunks), and what one screen alone uses
  // stays with it: Radix Collapsible (the profile), swr/infinite and lib/cursor-pages (the audit log): −2.5 KB brotli.
  { name: 'session', test: (id: string) => SESSION_MODULES.test(id) && !NOT_SESSION.test(id), priority: 20 },
  { name: 'contracts-schedule', test: CONTRACTS_SCHEDULE, priority: 17 },
  { name: 'contracts-orders', test: CONTRACTS_ORDERS, priority: 16 },
  { name: 'contracts-cart', test: CONTRACTS_CART, priority: 15 },
  { name: 'orders-shared', test: ORDERS_SHARED, priority: 14 },
  { name: 'cart-shared', test: CART_SHARED, priority: 13 },
];

/**
 * React Router 7's package exports only its development build, whose dev warnings (`ENABLE_DEV_WARNINGS`) run on every
 * render, in production too (remix-run/react-router#14102, open). The build uses its production build instead, the
 * same code with the warnings off; `vite` (dev) keeps the warnings.
 */
const REACT_ROUTER_PRODUCTION = [
  {
    find: /^react-router$/,
    replacement: fileURLToPath(new URL('../../node_modules/react-router/dist/production/index.mjs', import.meta.url)),
  },
  {
    find: /^react-router\/dom$/,
    replacement: fileURLToPath(new URL('../../node_modules/react-router/dist/production/dom-export.mjs', import.meta.url)),
  },
];

export default defineConfig(({ command }) => ({
  root,
  plugins: [react(), tailwindcss(), precompress(), preloadManifest(), paintBeforeScripts(), ...(report ? [report] : [])],
  resolve: {
    alias: [
      { find: '@portal/contracts', replacement: fileURLToPath(new URL('../../libs/contracts/src/index.ts', import.meta.url)) },
      // `@/lib/api` = apps/web/src/lib/api (tsconfig paths and jest's moduleNameMapper say the same).
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      ...(command === 'build' ? REACT_ROUTER_PRODUCTION : []),
    ],
  },
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      // zod's builders (`z.object(…)`, `z.string().min(1)`) have no side effects the SPA relies on: schemas no screen
      // uses are dropped instead of built at every page load (the API's OpenAPI registry is not part of the SPA).
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        // Fewer, larger chunks (issue 26): a phone on HTTP/1.1 fetches six files at a time, one round trip each, so
        // fifty 1–2 KB chunks cost more than their bytes. What the entry loads stays one chunk; what every signed-in
        // screen needs (the API client, schemas, UI primitives and icons) is one chunk; each screen keeps its own.
        codeSplitting: { groups: CHUNK_GROUPS },
      },
    },
  },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:3000' } },
}));
