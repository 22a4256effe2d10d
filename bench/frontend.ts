/**
 * `npm run bench -- frontend [--runs 3] [--routes /auth,/shop,…] [--keep]`: the first load of the sign-in page and of the
 * signed-in screens on a phone (issue 15 §4, §6; issue 26 acceptance: signed in, /shop, /order-history, /orders, /admin).
 *   1. builds the SPA with Vite (ANALYZE=html: the bundle visualiser's report goes to bench/results/bundle.html)
 *      into a temporary folder, with the Vite manifest;
 *   2. from the manifest, the initial JavaScript per route: the HTML's entry with every chunk it imports
 *      statically, plus the route's lazy screen and its static imports (/auth, /shop), gzip -9 and brotli;
 *   3. serves that build with the real API in-process (createApp, the real routes) on a fresh database on
 *      the benchmarks' server (bench/support.ts benchServer), migrated, dropped after;
 *   4. seeds the demo data (test fixtures: real stores and items, demo accounts) and three orders of the buyer
 *      (bench/frontend-session.ts); for a signed-in route it signs in through the API as that route's user
 *      (ROUTE_USERS: buyer, store manager, administrator) and puts the session cookies into the browser;
 *      runs Lighthouse (its Node API; the default config is the mobile preset: Moto G Power emulation,
 *      simulated slow 4G and 4× CPU) `runs` times on each route in the machine's Chrome or Chromium (CHROMIUM_PATH,
 *      else found by e2e/browser.ts) and prints the median performance score, LCP, TBT, accessibility score and the script
 *      bytes the page really transferred (compressed by the server);
 *   5. writes bench/results/frontend.json (per route: runs and medians).
 * BENCH_LIGHTHOUSE_REPORTS=<dir> also writes each run's whole Lighthouse report there (JSON: the waterfall, long tasks);
 * with BENCH_LIGHTHOUSE_TRACES=1 each run's Chrome trace beside it (`profile`: with JavaScript samples, for reading only).
 * `--web-dir <dir>` measures a build made before (`--keep` prints where its build went) instead of building: two builds
 * can then be measured alternately on the same machine.
 * Targets: /auth initial JS ≤ 150 KB gzipped; every route performance ≥ 95, LCP ≤ 2.5 s, TBT ≤ 200 ms, layout shift
 * < 0.1, accessibility 100.
 * A measurement, never a test.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import { createApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import type { Mailer } from '../apps/api/src/context';
import { createDb, migrateLatest } from '../apps/api/src/db/knex';
import { createLogger } from '../apps/api/src/logger';
import { findBrowser } from '../e2e/browser';
import { ROUTE_USERS, seedSignedInData, setBrowserCookies, signInThroughApi } from './frontend-session';
import { BenchSkipped, BenchUsageError, benchArgs, benchServer, positive, withDb, type BenchInfo } from './support';

export const info: BenchInfo = {
  title: 'Lighthouse on the sign-in page and the signed-in screens, and initial JS per route',
  about:
    "The first load of the sign-in page and of /shop, /order-history, /orders and /admin signed in (demo data, a sign-in through the API) on a phone: the SPA built with Vite, initial JavaScript per route, then Lighthouse (mobile preset, median of runs) in the machine's Chrome or Chromium, served by the real API. Targets: /auth JS ≤ 150 KB gzip; each route performance ≥ 95, LCP ≤ 2.5 s, TBT ≤ 200 ms, layout shift < 0.1, accessibility 100.",
  options: {
    runs: { type: 'string', value: 'N', default: '3', help: 'Lighthouse runs per route (the median is reported)' },
    routes: {
      type: 'string',
      value: 'LIST',
      default: Object.keys(ROUTE_USERS).join(','),
      help: 'routes to measure, comma-separated (signed in as ROUTE_USERS says)',
    },
    keep: { type: 'boolean', help: 'keep the temporary build' },
    'web-dir': { type: 'string', value: 'DIR', help: 'measure this earlier build (with its .vite/manifest.json) instead of building' },
  },
  quick: ['--runs', '1', '--routes', '/auth,/shop'],
};

const ROOT = resolve(__dirname, '..');
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Routes and the lazy screen module each one loads (the sign-in screen too: it is not in the entry). */
const ROUTES: Record<string, string[]> = { '/auth': ['src/app/routes/auth.tsx'], '/shop': ['src/app/routes/shop.tsx'] };

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
interface RouteJs {
  route: string;
  files: number;
  rawKB: number;
  gzipKB: number;
  brotliKB: number;
}
interface LighthouseRun {
  performance: number;
  accessibility: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  scriptTransferKB: number;
  scripts: Array<{ url: string; transferKB: number }>;
  lcpElement?: string;
}

const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Builds the SPA into `outDir` with the manifest and (unless `report: false`) the bundle report (bench/results/bundle.html). */
export async function buildSpa(outDir: string, { report = true }: { report?: boolean } = {}): Promise<void> {
  if (report) process.env.ANALYZE = 'html';
  const { build } = await import('vite');
  await build({
    configFile: join(ROOT, 'apps/web/vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, manifest: true },
  });
}

/** The JavaScript each route needs before it can show: the entry's static import graph plus the route's screen. */
export function initialJs(outDir: string): RouteJs[] {
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entry) throw new Error('no entry in the Vite manifest');
  return Object.entries(ROUTES).map(([route, screens]) => {
    const seen = new Set<string>();
    const visit = (k: string) => {
      if (seen.has(k) || !manifest[k]) return;
      seen.add(k);
      for (const i of manifest[k].imports ?? []) visit(i);
    };
    [entry, ...screens].forEach(visit);
    let raw = 0;
    let gz = 0;
    let br = 0;
    for (const k of seen) {
      const body = readFileSync(join(outDir, manifest[k].file));
      raw += body.length;
      gz += gzipSync(body, { level: 9 }).length;
      br += brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    }
    return { route, files: seen.size, rawKB: kb(raw), gzipKB: kb(gz), brotliKB: kb(br) };
  });
}

/**
 * Lighthouse's simulated (Lantern) timelines of the last run, one block per simulation: each network request (URL,
 * priority, bytes) and each CPU task over 1 ms (observed duration) with its simulated start and end in ms. To read why
 * a metric is what it is; the simulator keeps the last run's timings in a module-level map.
 */
async function lanternTimelines(): Promise<string> {
  const { Simulation } = await import('lighthouse/core/lib/lantern/lantern.js');
  const out: string[] = [];
  for (const [label, timings] of Simulation.Simulator.allNodeTimings) {
    out.push(`== ${label}`);
    const rows = [...timings].sort((a, b) => a[1].startTime - b[1].startTime);
    for (const [node, t] of rows) {
      const span = `${t.startTime.toFixed(0).padStart(6)} → ${t.endTime.toFixed(0).padStart(6)}`;
      if (node.type === 'network') {
        const req = node.request;
        const { pathname, search } = new URL(req.url);
        out.push(
          `${span}  net ${req.priority.padEnd(8)} ${String(Math.round(req.transferSize / 1024)).padStart(4)} KB  ${pathname}${search}`,
        );
      } else {
        const observed = (node.endTime - node.startTime) / 1000;
        if (observed >= 1)
          out.push(
            `${span}  cpu ${observed.toFixed(1).padStart(6)} ms observed  ${[...node.getEvaluateScriptURLs()].map((u) => new URL(u).pathname).join(' ')}`,
          );
      }
    }
  }
  return `${out.join('\n')}\n`;
}

/** One Lighthouse run (default config = mobile) on `url` in the Chrome listening on `port`. */
async function lighthouseOnce(url: string, port: number): Promise<LighthouseRun> {
  const { default: lighthouse } = await import('lighthouse');
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    // BENCH_LIGHTHOUSE_TRACES=profile: the trace also samples JavaScript (slower; for reading, not for scores).
    ...(process.env.BENCH_LIGHTHOUSE_TRACES === 'profile' ? { additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler' } : {}),
  });
  if (!result) throw new Error('Lighthouse returned no result');
  const { categories, audits } = result.lhr;
  if (result.lhr.runtimeError) throw new Error(`Lighthouse: ${result.lhr.runtimeError.message}`);
  // BENCH_LIGHTHOUSE_REPORTS=<dir>: each run's whole report (JSON) is written there, to read the waterfall and long tasks.
  const reports = process.env.BENCH_LIGHTHOUSE_REPORTS;
  if (reports) {
    mkdirSync(reports, { recursive: true });
    const name = new URL(url).pathname.replace(/\W+/g, '_') || 'root';
    const at = Date.now();
    writeFileSync(join(reports, `${name}-${at}.json`), JSON.stringify(result.lhr));
    // BENCH_LIGHTHOUSE_TRACES=1 as well: the run's Chrome trace beside it (open in DevTools' Performance panel).
    if (process.env.BENCH_LIGHTHOUSE_TRACES)
      writeFileSync(join(reports, `${name}-${at}.trace.json`), JSON.stringify(result.artifacts.Trace));
    // BENCH_LIGHTHOUSE_LANTERN=1 as well: the simulated timelines the scores come from (each node of each simulation
    // Lighthouse ran, e.g. `optimisticLargestContentfulPaint`: request or CPU task, simulated start and end in ms).
    if (process.env.BENCH_LIGHTHOUSE_LANTERN) writeFileSync(join(reports, `${name}-${at}.lantern.txt`), await lanternTimelines());
  }
  const requests =
    (audits['network-requests']?.details as { items?: Array<{ url?: string; resourceType?: string; transferSize?: number }> } | undefined)
      ?.items ?? [];
  return {
    performance: Math.round((categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
    lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? NaN),
    fcpMs: Math.round(audits['first-contentful-paint']?.numericValue ?? NaN),
    tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? NaN),
    cls: Math.round((audits['cumulative-layout-shift']?.numericValue ?? NaN) * 1000) / 1000,
    scriptTransferKB: kb(requests.filter((r) => r.resourceType === 'Script').reduce((s, r) => s + (r.transferSize ?? 0), 0)),
    scripts: requests
      .filter((r) => r.resourceType === 'Script')
      .map((r) => ({ url: new URL(r.url ?? '', 'http://x').pathname, transferKB: kb(r.transferSize ?? 0) })),
    lcpElement: (
      audits['largest-contentful-paint-element']?.details as
        { items?: Array<{ items?: Array<{ node?: { snippet?: string } }> }> } | undefined
    )?.items?.[0]?.items?.[0]?.node?.snippet,
  };
}

type Key = 'performance' | 'accessibility' | 'lcpMs' | 'fcpMs' | 'tbtMs' | 'cls' | 'scriptTransferKB';
/** The median of each measure over the runs of one route. */
function medians(results: LighthouseRun[]): Record<Key, number> {
  const med = (k: Key) => median(results.map((r) => r[k]));
  return {
    performance: med('performance'),
    lcpMs: med('lcpMs'),
    tbtMs: med('tbtMs'),
    fcpMs: med('fcpMs'),
    cls: med('cls'),
    accessibility: med('accessibility'),
    scriptTransferKB: med('scriptTransferKB'),
  };
}

/** One Lighthouse run, a trace Chromium failed to record (NO_NAVSTART and kin, on a loaded machine) retried twice. */
async function measure(url: string, port: number, label: string): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseOnce(url, port);
    } catch (e) {
      if (attempt >= 3) throw e;
      console.log(`${label}: ${(e as Error).message}; again`);
    }
  }
}

const TARGETS = { initialJsAuthGzipKB: 150, performance: 95, lcpMs: 2500, tbtMs: 200, clsBelow: 0.1, accessibility: 100 };
const meets = (m: Record<Key, number>) =>
  m.performance >= TARGETS.performance &&
  m.lcpMs <= TARGETS.lcpMs &&
  m.tbtMs <= TARGETS.tbtMs &&
  m.cls < TARGETS.clsBelow &&
  m.accessibility >= TARGETS.accessibility;

/** Entry point for bench/run.ts. */
export async function run(args: string[] = []): Promise<string> {
  const { values } = benchArgs(args, info);
  const runs = positive(values.runs, 'runs');
  const keep = Boolean(values.keep);
  const routes = String(values.routes)
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  for (const r of routes)
    if (!(r in ROUTE_USERS)) throw new BenchUsageError(`unknown route ${r}: one of ${Object.keys(ROUTE_USERS).join(', ')}`);
  const found = findBrowser();
  if (!found.path) throw new BenchSkipped(found.hint);
  const browser = found.path;
  const given = values['web-dir'] ? resolve(String(values['web-dir'])) : undefined;
  if (given && !existsSync(join(given, '.vite/manifest.json')))
    throw new BenchUsageError(`--web-dir ${given} holds no build made by this benchmark (no .vite/manifest.json): build one with --keep`);
  const outDir = given ?? mkdtempSync(join(tmpdir(), 'portal-bench-web-'));
  console.log(
    `machine: ${cpus().length} cores (${cpus()[0]?.model}), load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  if (given) console.log(`measuring the build in ${outDir}`);
  else {
    console.log(`building the SPA into ${outDir} (bundle report: bench/results/bundle.html)…`);
    await buildSpa(outDir);
  }
  const js = initialJs(outDir);
  for (const r of js)
    console.log(
      `initial JS ${r.route.padEnd(6)} ${String(r.gzipKB).padStart(6)} KB gzip  ${String(r.brotliKB).padStart(6)} KB brotli  (${r.rawKB} KB raw, ${r.files} files)`,
    );

  const server = benchServer();
  const name = `portal_bench_frontend_${process.pid}`;
  const admin = createDb(server, { max: 1 });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = new URL(withDb(server, name));
  const db = createDb(url.toString(), { max: 5 });
  let http: Server | undefined;
  let chrome: { port: number; kill(): void } | undefined;
  try {
    await migrateLatest(db);
    const config = loadConfig({
      NODE_ENV: 'development',
      DATABASE_URL: url.toString(),
      JWT_SECRET: 'bench-secret-that-is-at-least-32-characters',
      LOG_LEVEL: 'silent',
      BCRYPT_COST: '4',
      // Sign-ins from the bench's one address, several per route.
      AUTH_IP_LOGIN_LIMIT: '1000',
    });
    const mailer: Mailer = { enqueue: async () => undefined };
    const app = createApp({ config, db, logger: createLogger('silent'), mailer }, { webDir: outDir });
    http = await new Promise<Server>((ok) => {
      const s = app.listen(0, '127.0.0.1', () => ok(s));
    });
    const base = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
    if (routes.some((r) => ROUTE_USERS[r])) await seedSignedInData(db, base);

    const { launch } = await import('chrome-launcher');
    chrome = await launch({ chromePath: browser, chromeFlags: CHROME_FLAGS });
    const perRoute: Array<{ route: string; user: string | null; runs: LighthouseRun[]; median: Record<Key, number>; met: boolean }> = [];
    for (const route of routes) {
      const user = ROUTE_USERS[route];
      // A fresh session per route: the refresh cookie and the signed-in flag, as a sign-in leaves them.
      await setBrowserCookies(chrome.port, user ? (await signInThroughApi(base, user)).cookies : []);
      const results: LighthouseRun[] = [];
      for (let n = 1; n <= runs; n++) {
        const r = await measure(`${base}${route}`, chrome.port, `${route} run ${n}`);
        results.push(r);
        console.log(
          `${route} run ${n}: performance ${r.performance}, LCP ${r.lcpMs} ms, TBT ${r.tbtMs} ms, FCP ${r.fcpMs} ms, CLS ${r.cls}, accessibility ${r.accessibility}, scripts ${r.scriptTransferKB} KB transferred`,
        );
      }
      console.log(
        `${route} scripts of run 1: ${results[0].scripts.map((x) => `${x.url} ${x.transferKB} KB`).join(', ')}; LCP element: ${results[0].lcpElement ?? '?'}`,
      );
      const m = medians(results);
      perRoute.push({ route, user: user ?? null, runs: results, median: m, met: meets(m) });
    }
    console.log(`median of ${runs} (Lighthouse mobile${routes.some((r) => ROUTE_USERS[r]) ? ', signed in where a user is named' : ''}):`);
    for (const r of perRoute)
      console.log(
        `  ${r.route.padEnd(15)} ${(r.user ?? 'anonymous').padEnd(20)} performance ${String(r.median.performance).padStart(3)}  LCP ${(r.median.lcpMs / 1000).toFixed(2)} s  TBT ${String(r.median.tbtMs).padStart(4)} ms  CLS ${r.median.cls.toFixed(3)}  accessibility ${r.median.accessibility}  ${r.met ? 'met' : 'NOT met'}`,
      );
    const auth = js.find((r) => r.route === '/auth')!;
    const met = auth.gzipKB <= TARGETS.initialJsAuthGzipKB && perRoute.every((r) => r.met);
    console.log(
      `targets (/auth JS ≤ 150 KB gzip; each route performance ≥ 95, LCP ≤ 2.5 s, TBT ≤ 200 ms, CLS < 0.1, accessibility 100): ${met ? 'met' : 'NOT met'}`,
    );
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    const authRoute = perRoute.find((r) => r.route === '/auth');
    writeFileSync(
      join(ROOT, 'bench/results/frontend.json'),
      `${JSON.stringify(
        {
          bench: 'frontend',
          at: new Date().toISOString(),
          machine: { cores: cpus().length, model: cpus()[0]?.model, load: loadavg() },
          chromium: browser,
          preset: 'lighthouse default (mobile)',
          routes: perRoute,
          // The /auth figures where earlier runs of this bench kept them.
          url: authRoute ? '/auth' : undefined,
          runs: authRoute?.runs,
          median: authRoute?.median,
          initialJs: js,
          targets: TARGETS,
          met,
        },
        null,
        2,
      )}\n`,
    );
    return perRoute.map((r) => `${r.route} ${r.median.performance} (CLS ${r.median.cls})`).join(', ') + `; /auth JS ${auth.gzipKB} KB gzip`;
  } finally {
    chrome?.kill();
    if (http) {
      http.closeAllConnections();
      await new Promise((ok) => http!.close(ok));
    }
    await db.destroy();
    await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.destroy();
    if (!keep && !given) rmSync(outDir, { recursive: true, force: true });
  }
}
