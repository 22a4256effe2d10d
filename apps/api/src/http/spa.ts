import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestHandler } from 'express';

/** `preload.json` as the web build writes it (apps/web/vite.config.ts preloadManifest): chunk URLs. */
interface PreloadManifest {
  signedIn: string[];
  /** The sign-in screen's chunks: preloaded on every signed-out page load (absent in older builds). */
  signedOut?: string[];
  screens: Array<{ path: string; files: string[] }>;
}

/** The server's script-readable presence flag beside the refresh cookie (modules/auth): a session may be refreshed. */
const SIGNED_IN_FLAG = /(?:^|;\s*)portal_signed_in=1(?:;|$)/;
const SAFE_URL = /^\/assets\/[\w.-]+\.js$/;

/**
 * The Content-Security-Policy of the page with `script-src` also allowing, by their SHA-256 hashes, the HTML's own
 * inline scripts (index.html's boot script, apps/web/src/lib/boot.ts); every other directive as helmet set it.
 */
function withInlineScripts(csp: string, hashes: string[]): string {
  if (!hashes.length) return csp;
  return csp.replace(
    /(^|;)(\s*script-src)([^;]*)/,
    (_m, start: string, name: string, sources: string) => `${start}${name}${sources} ${hashes.join(' ')}`,
  );
}

/** `html` with `<link rel="modulepreload">` before `</head>` for each of `files` (once each; only /assets/*.js URLs). */
function withPreloads(html: string, files: string[]): string {
  const links = [...new Set(files)]
    .filter((f) => SAFE_URL.test(f))
    .map((f) => `<link rel="modulepreload" crossorigin href="${f}">`)
    .join('');
  return links ? html.replace('</head>', `${links}</head>`) : html;
}

/** `'sha256-…'` of each inline `<script>` (no src) of `html`, as CSP source expressions. */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`,
  );
}

/**
 * The SPA's HTML for every page path (GET, accepting HTML; anything else goes on). A page load that carries the
 * signed-in flag gets `<link rel="modulepreload">` for the chunks its screen needs (the API client, the schemas,
 * the header's menu and the screen of the path, from `preload.json`), so they download alongside the entry
 * instead of after it has run and the session is back (issue 26: signed-in screens load as fast as /auth).
 * Signed out, the sign-in screen's chunks are preloaded (every signed-out visit ends there); without preload.json the
 * HTML is sent as built. `Cache-Control: no-cache`, `Vary: Cookie`. The
 * page's Content-Security-Policy allows its own inline scripts by hash (the boot script), no other inline script.
 * The HTML is re-read when index.html changes on disk (a rebuild under a running server).
 */
export function spaIndex(webDir: string): RequestHandler {
  const indexFile = join(webDir, 'index.html');
  let loaded: {
    mtimeMs: number;
    html: string;
    manifest: PreloadManifest;
    screens: Array<{ re: RegExp; path: string; files: string[] }>;
    pages: Map<string, string>;
    signedOutHtml: string;
    scriptHashes: string[];
  } | null = null;
  const current = () => {
    const mtimeMs = statSync(indexFile).mtimeMs;
    if (loaded?.mtimeMs === mtimeMs) return loaded;
    let manifest: PreloadManifest = { signedIn: [], screens: [] };
    try {
      manifest = JSON.parse(readFileSync(join(webDir, 'preload.json'), 'utf8')) as PreloadManifest;
    } catch {
      /* a build without preload.json: nothing is preloaded */
    }
    const screens = manifest.screens.map((sc) => ({ ...sc, re: new RegExp(sc.path) }));
    const html = readFileSync(indexFile, 'utf8');
    loaded = {
      mtimeMs,
      html,
      manifest,
      screens,
      pages: new Map(),
      signedOutHtml: withPreloads(html, manifest.signedOut ?? []),
      scriptHashes: inlineScriptHashes(html),
    };
    return loaded;
  };
  const signedInPage = (c: NonNullable<typeof loaded>, pathname: string): string => {
    const screen = c.screens.find((sc) => sc.re.test(pathname));
    const key = screen?.path ?? '';
    let html = c.pages.get(key);
    if (html === undefined) {
      html = withPreloads(c.html, [...c.manifest.signedIn, ...(screen?.files ?? [])]);
      c.pages.set(key, html);
    }
    return html;
  };
  return (req, res, next) => {
    if (req.method !== 'GET' || !req.accepts('html')) return next();
    let c: NonNullable<typeof loaded>;
    try {
      c = current();
    } catch (e) {
      return next(e);
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.vary('Cookie');
    const csp = res.getHeader('Content-Security-Policy');
    if (typeof csp === 'string') res.setHeader('Content-Security-Policy', withInlineScripts(csp, c.scriptHashes));
    res.type('html').send(SIGNED_IN_FLAG.test(req.headers.cookie ?? '') ? signedInPage(c, req.path) : c.signedOutHtml);
  };
}
