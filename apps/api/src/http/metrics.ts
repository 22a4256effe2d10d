import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import client from 'prom-client';
import type { Db } from '../db/knex';
import { NotFoundError, UnauthenticatedError } from './errors';
import { mailQueueStats, webhookBacklog } from './metrics.repository';

/**
 * Prometheus metrics at /metrics (ARCHITECTURE §8): Node's defaults, request durations labelled by the
 * declared route, and what the business does (orders, payments, refunds, mail, webhooks, imports, the
 * reconciler, sign-in failures and lockouts, the DB pool). Counters are incremented where the thing
 * happens, after its transaction commits; the gauges that need the database are read on each scrape
 * (`collectDbGauges`, two cheap queries). The names here are the ones `ops/` (alert rules, Grafana) uses:
 * ops-metrics.test.ts holds them to it.
 */
export const metricsRegistry = new client.Registry();
client.collectDefaultMetrics({ register: metricsRegistry });
const registers = [metricsRegistry];

const httpDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration in seconds, by method, declared route (OpenAPI path) and status',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers,
});

/** Orders placed (in-store orders when created, card orders when their payment is approved). */
export const ordersPlaced = new client.Counter({
  name: 'portal_orders_placed_total',
  help: 'Orders placed, by payment method (in_store, card)',
  labelNames: ['payment_method'] as const,
  registers,
});
/** Card payments settled, by outcome (approved, declined, error). */
export const paymentsSettled = new client.Counter({
  name: 'portal_payments_total',
  help: 'Card payments settled, by outcome (approved, declined, error)',
  labelNames: ['outcome'] as const,
  registers,
});
/**
 * Refunds of cancelled card orders by outcome: refunded, refused (the order is cancel_pending), unconfirmed
 * (sent, the gateway's answer lost: the reconciler settles it by lookup and counts it again as refunded or refused).
 */
export const refunds = new client.Counter({
  name: 'portal_refunds_total',
  help: 'Refunds of cancelled card orders, by outcome (refunded, refused: the order is cancel_pending, unconfirmed: the answer was lost, settled later by lookup)',
  labelNames: ['outcome'] as const,
  registers,
});
/** Webhook delivery attempts, by outcome (delivered, failed: retried later, abandoned: retries over). */
export const webhookDeliveries = new client.Counter({
  name: 'portal_webhook_deliveries_total',
  help: 'Webhook delivery attempts, by outcome (delivered, failed: will be retried, abandoned: retries over)',
  labelNames: ['outcome'] as const,
  registers,
});
/** Data imports uploaded in the admin area and run by the import worker, by outcome (succeeded, failed). */
export const importRuns = new client.Counter({
  name: 'portal_import_runs_total',
  help: 'Uploaded data imports run by the worker, by outcome (succeeded, failed)',
  labelNames: ['outcome'] as const,
  registers,
});
/** Card orders the payment reconciler looked at, by what became of them (paid, failed, error, pending, unchecked). */
export const reconcilerSettlements = new client.Counter({
  name: 'portal_reconciler_settlements_total',
  help: 'Pending card orders checked by the payment reconciler, by result (paid, failed, error, pending: still unknown, unchecked: the check itself failed)',
  labelNames: ['result'] as const,
  registers,
});
/** Refused sign-ins, by reason (wrong_password, unknown_email, deactivated). */
export const loginFailures = new client.Counter({
  name: 'portal_login_failures_total',
  help: 'Refused sign-ins, by reason (wrong_password, unknown_email, unknown_phone, deactivated)',
  labelNames: ['reason'] as const,
  registers,
});
/** Sign-ins answered 429, by the rule that locked them (account_ip, account_ceiling, ip). */
export const loginLockouts = new client.Counter({
  name: 'portal_login_lockouts_total',
  help: 'Sign-ins refused with 429, by rule (account_ip: failures of one account from one IP, account_ceiling: an account under a distributed guess, ip: attempts per IP)',
  labelNames: ['rule'] as const,
  registers,
});

// Every label value a rule or panel names starts at 0, so `increase()` sees its first event.
for (const m of ['in_store', 'card']) ordersPlaced.inc({ payment_method: m }, 0);
for (const o of ['approved', 'declined', 'error']) paymentsSettled.inc({ outcome: o }, 0);
for (const o of ['refunded', 'refused', 'unconfirmed']) refunds.inc({ outcome: o }, 0);
for (const o of ['delivered', 'failed', 'abandoned']) webhookDeliveries.inc({ outcome: o }, 0);
for (const o of ['succeeded', 'failed']) importRuns.inc({ outcome: o }, 0);
for (const r of ['paid', 'failed', 'error', 'pending', 'unchecked']) reconcilerSettlements.inc({ result: r }, 0);
for (const r of ['wrong_password', 'unknown_email', 'unknown_phone', 'deactivated']) loginFailures.inc({ reason: r }, 0);
for (const r of ['account_ip', 'account_ceiling', 'ip']) loginLockouts.inc({ rule: r }, 0);

const gauge = (name: string, help: string) => new client.Gauge({ name, help, registers });
const mailDepth = gauge('portal_mail_queue_depth', 'Mail jobs waiting to be sent (queued or waiting for a retry)');
const mailOldest = gauge('portal_mail_queue_oldest_age_seconds', 'Age of the oldest mail job waiting to be sent, in seconds (0 when none)');
const hooksPending = gauge('portal_webhook_deliveries_pending', 'Webhook deliveries not delivered yet and not given up');
const hooksOldest = gauge(
  'portal_webhook_oldest_pending_age_seconds',
  'Age of the oldest webhook delivery not delivered yet, in seconds (0 when none)',
);
const poolInUse = gauge('portal_db_pool_in_use', "Connections of this process's database pool in use");
const poolWaiting = gauge('portal_db_pool_waiting', 'Queries of this process waiting for a database pool connection');
const poolMax = gauge('portal_db_pool_max', "Size of this process's database pool");

/** The knex pool's counters (tarn): connections in use, requests waiting for one, the ceiling. */
interface TarnPool {
  numUsed(): number;
  numPendingAcquires(): number;
  max: number;
}

/**
 * Reads the gauges that need the database, for one scrape: the mail queue (pg-boss jobs waiting), the
 * webhook backlog, and this process's pool. A query that fails leaves its gauges out of the answer (reset)
 * rather than reporting stale numbers.
 */
export async function collectDbGauges(db: Db): Promise<void> {
  const pool = (db.client as { pool?: TarnPool }).pool;
  if (pool) {
    poolInUse.set(pool.numUsed());
    poolWaiting.set(pool.numPendingAcquires());
    poolMax.set(pool.max);
  }
  const [mail, hooks] = await Promise.allSettled([mailQueueStats(db), webhookBacklog(db)]);
  if (mail.status === 'fulfilled' && mail.value) {
    mailDepth.set(mail.value.waiting);
    mailOldest.set(mail.value.oldestAgeSeconds);
  } else {
    mailDepth.reset();
    mailOldest.reset();
  }
  if (hooks.status === 'fulfilled') {
    hooksPending.set(hooks.value.pending);
    hooksOldest.set(hooks.value.oldestAgeSeconds);
  } else {
    hooksPending.reset();
    hooksOldest.reset();
  }
}

/**
 * Migrations the database has run that this release does not know: > 0 means a newer release migrated it
 * and this process runs on the newer (expanded) schema, as during a rolling deploy or after a code rollback
 * (README "Operating it"). Set at start and on every readiness probe.
 */
export const unknownMigrationsGauge = new client.Gauge({
  name: 'portal_db_unknown_migrations',
  help: 'Migrations in the database that this release does not know (a newer release migrated it)',
  registers,
});

/** Each answer's route label (set by `labelRoute`), held beside the response and gone with it. */
const routeLabels = new WeakMap<Response, string>();
/** Labels the request's duration with its declared route (the OpenAPI path, e.g. `/orders/{orderId}`), whatever it answers. */
export function labelRoute(res: Response, path: string): void {
  routeLabels.set(res, path);
}

/** The label of a request no declared route took: the few fixed endpoints by name, an API 404 `unmatched`, the rest `spa`. */
function fallbackLabel(path: string, status: number): string {
  if (path === '/metrics') return '/metrics';
  if (path === '/api/v1/openapi.json') return '/openapi.json';
  if (path.startsWith('/api/docs')) return '/api/docs';
  if (path.startsWith('/api/') || status === 404) return 'unmatched';
  return 'spa';
}

/** Open live streams (GET /me/events) of this process. */
const liveStreams = gauge('portal_live_streams', 'Open live update streams (GET /me/events, text/event-stream) of this process');
/** Streaming answers: their duration is the life of a connection, not the time to answer, so it is not observed. */
const streaming = new WeakSet<Response>();
/**
 * Marks an answer as a long-lived stream (server-sent events): it is counted in `portal_live_streams` while open
 * and left out of `portal_http_request_duration_seconds`, where an hour-long connection would read as the
 * slowest request there is.
 */
export function streamingResponse(res: Response): void {
  streaming.add(res);
  liveStreams.inc();
  res.once('close', () => liveStreams.dec());
}

/**
 * Observes every request's duration labelled by its declared route (`labelRoute`, set first thing in each
 * route's chain, so a 401, 403, 400 or 429 is labelled like the route's 200), the few fixed endpoints by
 * name, any unknown path as `unmatched` and the SPA's files as `spa`.
 */
export const metricsMiddleware: RequestHandler = (req, res, next) => {
  const end = httpDuration.startTimer();
  const path = req.path;
  res.on('finish', () => {
    if (streaming.has(res)) return;
    const route = routeLabels.get(res) ?? fallbackLabel(path, res.statusCode);
    end({ method: req.method, route, status: String(res.statusCode) });
  });
  next();
};

/** GET /metrics: reads the database gauges (when the app has a database), then answers the registry in the text format. */
export function metricsHandler(db?: Db): RequestHandler {
  return async (_req, res) => {
    if (db) await collectDbGauges(db);
    res.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
  };
}

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
