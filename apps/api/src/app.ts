import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import cors from 'cors';
import cookieParser from 'cookie-parser';
import compression from 'compression';
import swaggerUi from 'swagger-ui-express';
import type { Config } from './config';
import type { AppContext } from './context';
import { errorHandler, notFoundHandler } from './http/problem';
import { metricsAuth, metricsHandler, metricsMiddleware } from './http/metrics';
import { refuseNulBytes, refuseUnsupportedBodies, safeClientIp } from './http/input-guards';
import { openApiDocument } from './http/openapi';
import { pinoHttp } from 'pino-http';
import { mountRoutes } from './http/route';
import { spaIndex } from './http/spa';
import { routeTable } from './routes';
import { setOrderEventPublisher } from './modules/orders/order-events';
import { webhookEventPublisher } from './modules/webhooks/webhook-queue';
import { setWebhookAllowHosts } from './modules/webhooks/webhooks.service';
import { setPhoneNormalizer } from '@portal/contracts';
import { toE164 } from './lib/phone';

/**
 * Hides secrets carried in URLs from the request log: checkout and invitation tokens in paths, and every
 * query parameter whose name mentions a token (token, checkoutToken, access_token…) or is `inv`/`key`.
 */
export function redactUrl(url: string | undefined) {
  return url
    ?.replace(/(checkout-sessions\/)[^/?#]+/g, '$1[redacted]')
    .replace(/(\/api\/v1\/invitations\/)(?!options(?:[/?#]|$))[^/?#]+/g, '$1[redacted]')
    .replace(/([?&;](?:[^=&#]*token[^=&#]*|inv|key|api_key)=)[^&#]*/gi, '$1[redacted]');
}

const SECRET_PARAM = /token|^inv$|^key$|^api_key$/i;
/** A copy of parsed query or path parameters with the values of token-like names replaced. */
export function redactParams(params: unknown): unknown {
  if (!params || typeof params !== 'object') return params;
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, SECRET_PARAM.test(k) ? '[redacted]' : v]));
}

/** What may be compressed: what compression's own filter takes, but never server-sent events (they must reach the browser as written). */
const compressible: compression.CompressionFilter = (req, res) =>
  !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') && compression.filter(req, res);

/** Brotli (else gzip) for the SPA's assets (and, through compressWhenAsked, large API JSON) from 1 KB up. */
export const compressResponses = compression({ threshold: 1024, filter: compressible });

/**
 * API answers made per request are compressed from 4 KB up (issue 29 §1): a smaller answer fits the first TCP
 * congestion window (10 segments, ≈ 14 KB) with or without compression, so compressing it saves a few hundred
 * bytes and no round trip, for a zlib stream set up and torn down per answer (≈ 9 % of the API's CPU in the orders
 * benchmark, whose cart and order answers are 0.4–2 KB) and a chunked body. Answers cached with their
 * compressed copies (http/cached-json.ts) keep the 1 KB threshold: those are compressed once.
 */
export const API_COMPRESS_FROM = 4096;
const compressApiResponses = compression({ threshold: API_COMPRESS_FROM, filter: compressible });

/**
 * compressResponses for the SPA's files; for the API, compressApiResponses only when the request asks for a
 * coding: without Accept-Encoding the middleware would send the body as it is anyway (its default, identity), so
 * an API call from a client that takes no compression (a warehouse system, a script) skips its per-request hooks.
 * The SPA's files always go through it (their Vary header matters to shared caches). Server-sent events (API) are
 * never compressed either.
 */
export const compressWhenAsked: RequestHandler = (req, res, next) => {
  if (!req.url.startsWith('/api/')) return compressResponses(req, res, next);
  if (!req.headers['accept-encoding']) return next();
  return compressApiResponses(req, res, next);
};

/**
 * The headers a header-only middleware (helmet with fixed directives) sets, captured once by running it on a
 * recording response, then set on every answer from that list: the same headers (and the same removals,
 * X-Powered-By) without building them per request. Throws when the middleware does not call next at once.
 */
export function precomputedHeaders(middleware: RequestHandler): RequestHandler {
  const set: [string, string | number | readonly string[]][] = [];
  const removed: string[] = [];
  let done = false;
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.push([name, value]);
      return recorder;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  void middleware({} as Request, recorder as unknown as Response, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('precomputedHeaders: the middleware did not pass the request on at once');
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
    next();
  };
}

export interface AppOptions {
  /** Folder of the built SPA to serve at / with history fallback; omitted in API tests. */
  webDir?: string;
}

/**
 * Wires the modules to each other and to the config where one may not import the other (composition): order
 * events queue their webhook deliveries through the orders module's publisher hook (the order code imports no
 * webhook code), the webhooks' SSRF guard gets its allowed hosts, and the contracts' phone schemas get the E.164
 * normaliser (libphonenumber-js, which the SPA does not load). Idempotent; createApp calls it, and
 * main.ts before it starts the jobs (the reconciler and janitors append order events too).
 */
export function wireModules(config: Pick<Config, 'webhookAllowHosts'>): void {
  setPhoneNormalizer(toE164);
  setOrderEventPublisher(webhookEventPublisher);
  setWebhookAllowHosts(config.webhookAllowHosts);
}

/**
 * Builds the Express app from the feature modules (ARCHITECTURE §1): testable without listening.
 * /api/v1 (JSON, problem+json errors), /api/docs (OpenAPI UI), /metrics, and the SPA at /.
 */
export function createApp(ctx: AppContext, opts: AppOptions = {}) {
  wireModules(ctx.config);
  const app = express();
  app.disable('x-powered-by');
  // API answers are Cache-Control: no-store, so hashing every body for an ETag is wasted work.
  app.set('etag', false);
  app.set('trust proxy', ctx.config.trustProxy);
  app.use(safeClientIp);
  app.use(
    // pino-http (issue 29 §2 measured it at ≈ 5 % of a catalog request's CPU; kept: a maintained library over our own).
    pinoHttp({
      logger: ctx.logger,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === '/api/v1/health' || req.url === '/metrics' },
      serializers: {
        req: (req: { url?: string; query?: unknown; params?: unknown }) => ({
          ...req,
          url: redactUrl(req.url),
          query: redactParams(req.query),
          params: redactParams(req.params),
        }),
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    }),
  );
  // Helmet's headers with fixed directives: built once (precomputedHeaders), set on every answer.
  app.use(
    precomputedHeaders(
      helmet({
        contentSecurityPolicy: {
          useDefaults: true,
          directives: {
            'default-src': ["'self'"],
            'script-src': ["'self'"],
            'style-src': ["'self'", "'unsafe-inline'"],
            'img-src': ["'self'", 'data:'],
            'connect-src': ["'self'"],
            'font-src': ["'self'", 'data:'],
            'object-src': ["'none'"],
            'frame-ancestors': ["'none'"],
            'upgrade-insecure-requests': ctx.config.production ? [] : null,
          },
        },
        hsts: ctx.config.production,
      }),
    ),
  );
  app.use(metricsMiddleware);
  app.use(compressWhenAsked);

  const api = Router();
  api.use(cors({ origin: ctx.config.corsOrigins.length ? ctx.config.corsOrigins : false, credentials: true }));
  // Bulk upserts of /integrations read their own bodies after the API key is checked (JSON up to
  // 50,000 rows, or text/csv streamed): the 100 kB parser skips them.
  const json = express.json({ limit: '100kb' });
  api.use((req, res, next) => (req.method === 'PUT' && req.path.startsWith('/integrations/') ? next() : json(req, res, next)));
  api.use(cookieParser());
  api.use(refuseUnsupportedBodies, refuseNulBytes);
  api.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  api.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });
  api.use(mountRoutes(ctx, routeTable));
  api.use(notFoundHandler);
  app.use('/api/v1', api);

  app.use('/api/docs', swaggerUi.serve, swaggerUi.setup(undefined, { swaggerOptions: { url: '/api/v1/openapi.json' } }));
  app.get('/metrics', metricsAuth(ctx.config), metricsHandler(ctx.db));
  app.use('/api', notFoundHandler);

  const webDir = opts.webDir ? resolve(opts.webDir) : undefined;
  if (webDir && existsSync(join(webDir, 'index.html'))) {
    // Production serves no source maps (issue 23 §7): the build's .map files would hand out the SPA's source.
    if (ctx.config.production) app.use((req, res, next) => (/\.map$/i.test(req.path) ? notFoundHandler(req, res, next) : next()));
    // Hashed scripts and styles come with brotli and gzip copies made by the build (x.js.br, x.js.gz): sent as they are.
    app.use('/assets', (req, res, next) => {
      const m = /^\/([\w.-]+\.(js|css))$/.exec(req.path);
      if (!m || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
      // Brotli first whatever order the browser lists them in (Chromium says gzip, deflate, br, zstd).
      const enc = req.acceptsEncodings('br') === 'br' ? 'br' : req.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : null;
      const file = enc && join(webDir, 'assets', `${m[1]}.${enc === 'br' ? 'br' : 'gz'}`);
      if (!enc || !file || !existsSync(file)) return next();
      res.vary('Accept-Encoding');
      res.setHeader('Content-Encoding', enc);
      res.type(m[2]);
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      res.sendFile(file, { cacheControl: false }, (e) => e && next(e));
    });
    app.use(
      express.static(webDir, {
        index: false,
        maxAge: '1h',
        setHeaders: (res, path) => {
          if (path.includes('/assets/')) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        },
      }),
    );
    // A missing hashed asset (an old tab asking for a chunk of an earlier build) is a 404, never the SPA's HTML.
    app.use('/assets', notFoundHandler);
    app.get('/{*splat}', spaIndex(webDir));
  }
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
