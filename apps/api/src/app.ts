import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import express, { Router } from 'express';
import helmet from 'helmet';
import cors from 'cors';
import cookieParser from 'cookie-parser';
import { pinoHttp } from 'pino-http';
import swaggerUi from 'swagger-ui-express';
import type { AppContext } from './context';
import { errorHandler, notFoundHandler } from './http/problem';
import { metricsHandler, metricsMiddleware } from './http/metrics';
import { openApiDocument } from './http/openapi';
import { healthRoutes } from './modules/health/health.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { meRoutes } from './modules/me/me.routes';
import { outletsRoutes } from './modules/outlets/outlets.routes';
import { storesRoutes } from './modules/stores/stores.routes';
import { cartsRoutes } from './modules/carts/carts.routes';
import { checkoutSessionsRoutes } from './modules/checkout-sessions/checkout-sessions.routes';
import { ordersRoutes } from './modules/orders/orders.routes';

/** Hides secrets carried in URLs (checkout tokens in paths, token= in queries) from the request log. */
export function redactUrl(url: string | undefined) {
  return url?.replace(/(checkout-sessions\/)[^/?#]+/g, '$1[redacted]').replace(/([?&](?:token|checkoutToken)=)[^&#]*/gi, '$1[redacted]');
}

export interface AppOptions {
  /** Folder of the built SPA to serve at / with history fallback; omitted in API tests. */
  webDir?: string;
}

/**
 * Builds the Express app from the feature modules (ARCHITECTURE §1): testable without listening.
 * /api/v1 (JSON, problem+json errors), /api/docs (OpenAPI UI), /metrics, and the SPA at /.
 */
export function createApp(ctx: AppContext, opts: AppOptions = {}) {
  const app = express();
  app.disable('x-powered-by');
  // API answers are Cache-Control: no-store, so hashing every body for an ETag is wasted work.
  app.set('etag', false);
  app.set('trust proxy', ctx.config.trustProxy);
  app.use(pinoHttp({
    logger: ctx.logger,
    genReqId: (req, res) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    autoLogging: { ignore: (req) => req.url === '/api/v1/health' || req.url === '/metrics' },
    serializers: { req: (req: { url?: string }) => ({ ...req, url: redactUrl(req.url) }) },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
  }));
  app.use(helmet({
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
  }));
  app.use(metricsMiddleware);

  const api = Router();
  api.use(cors({ origin: ctx.config.corsOrigins.length ? ctx.config.corsOrigins : false, credentials: true }));
  api.use(express.json({ limit: '100kb' }));
  api.use(cookieParser());
  api.use((_req, res, next) => { res.setHeader('Cache-Control', 'no-store'); next(); });
  api.get('/openapi.json', (_req, res) => { res.json(openApiDocument()); });
  api.use(healthRoutes(ctx));
  api.use('/auth', authRoutes(ctx));
  api.use('/me', meRoutes(ctx));
  api.use('/outlets', outletsRoutes(ctx));
  api.use('/stores', storesRoutes(ctx));
  api.use('/carts', cartsRoutes(ctx));
  api.use('/checkout-sessions', checkoutSessionsRoutes(ctx));
  api.use('/orders', ordersRoutes(ctx));
  api.use(notFoundHandler);
  app.use('/api/v1', api);

  app.use('/api/docs', swaggerUi.serve, swaggerUi.setup(undefined, { swaggerOptions: { url: '/api/v1/openapi.json' } }));
  app.get('/metrics', metricsHandler);
  app.use('/api', notFoundHandler);

  const webDir = opts.webDir ? resolve(opts.webDir) : undefined;
  if (webDir && existsSync(join(webDir, 'index.html'))) {
    app.use(express.static(webDir, { index: false, maxAge: '1h', setHeaders: (res, path) => { if (path.includes('/assets/')) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable'); } }));
    app.get('/{*splat}', (req, res, next) => {
      if (req.method !== 'GET' || !req.accepts('html')) return next();
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(join(webDir, 'index.html'));
    });
  }
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
