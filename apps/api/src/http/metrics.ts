import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import client from 'prom-client';
import { NotFoundError, UnauthenticatedError } from './errors';

/** Prometheus registry with default process metrics and an HTTP duration histogram (ARCHITECTURE §8). */
export const metricsRegistry = new client.Registry();
client.collectDefaultMetrics({ register: metricsRegistry });
const httpDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration in seconds',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

/**
 * Migrations the database has run that this release does not know: > 0 means a newer release migrated it
 * and this process runs on the newer (expanded) schema, as during a rolling deploy or after a code rollback
 * (README "Operating it"). Set at start and on every readiness probe.
 */
export const unknownMigrationsGauge = new client.Gauge({
  name: 'portal_db_unknown_migrations',
  help: 'Migrations in the database that this release does not know (a newer release migrated it)',
  registers: [metricsRegistry],
});

/** Observes every request's duration, labelled by the matched route pattern (not the raw URL). */
export const metricsMiddleware: RequestHandler = (req, res, next) => {
  const end = httpDuration.startTimer();
  res.on('finish', () => {
    const route = req.route?.path ? `${req.baseUrl}${req.route.path}` : 'unmatched';
    end({ method: req.method, route, status: String(res.statusCode) });
  });
  next();
};

export const metricsHandler: RequestHandler = async (_req, res) => {
  res.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
};

/**
 * Guards /metrics: with METRICS_TOKEN set, only `Authorization: Bearer <METRICS_TOKEN>` is
 * served (else 401 problem+json, compared in constant time); without it, production answers 404 (not
 * served) and development serves it openly.
 */
export function metricsAuth(config: { production: boolean; metricsToken?: string }): RequestHandler {
  const expected = config.metricsToken ? createHash('sha256').update(config.metricsToken).digest() : undefined;
  return (req, _res, next) => {
    if (!expected) return config.production ? next(new NotFoundError()) : next();
    const given = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim() ?? '';
    const ok = timingSafeEqual(createHash('sha256').update(given).digest(), expected);
    next(ok ? undefined : new UnauthenticatedError('The metrics need the bearer token of METRICS_TOKEN.'));
  };
}
