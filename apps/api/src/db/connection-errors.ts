/**
 * Is `err` the database connection being lost or refused, as opposed to a query the
 * database refused? Such requests answer 503 `service_unavailable` with Retry-After, not 500.
 * Covers socket errors (ECONNREFUSED, ECONNRESET…), PostgreSQL's connection and shutdown SQLSTATEs
 * (class 08, 57P01–57P03, 53300), node-postgres' "Connection terminated" and knex's pool acquire timeout.
 */
export function isConnectionLost(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 3) return false;
  // Any object may be read as one whose fields of interest are unknown: each is checked before use.
  const e: { code?: unknown; name?: unknown; message?: unknown; errors?: unknown; cause?: unknown } = err;
  const code = typeof e.code === 'string' ? e.code : '';
  if (SOCKET_CODES.has(code) || /^08...$/.test(code) || PG_UNAVAILABLE.has(code)) return true;
  if (e.name === 'KnexTimeoutError') return true;
  const message = typeof e.message === 'string' ? e.message : '';
  if (
    /Connection terminated|connection error and is not queryable|Timeout acquiring a connection|the database system is (shutting down|starting up)/i.test(
      message,
    )
  )
    return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isConnectionLost(x, depth + 1))) return true;
  return isConnectionLost(e.cause, depth + 1);
}

const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300']);

/** Seconds a client should wait before retrying after a lost database connection. */
export const DB_RETRY_AFTER_SECONDS = 5;
