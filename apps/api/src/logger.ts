import pino from 'pino';
import pretty from 'pino-pretty';

/** A logged request or response (pino-http's `req`, `res`) as the fields the pretty line reads, each checked before use. */
const fieldsOf = (v: unknown): { method?: unknown; url?: unknown; statusCode?: unknown } | undefined =>
  v !== null && typeof v === 'object' ? v : undefined;

/** Paths pino never prints: tokens, passwords, card data (ARCHITECTURE §6, §8). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.confirmPassword',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.cardNumber',
  '*.securityCode',
  '*.card',
  'card',
  'password',
  'token',
];

export interface LoggerOptions {
  /**
   * Buffer writes to stdout (pino.destination sync:false, 4 KB): logging stays off the request's critical
   * path, and the buffer is flushed every second and when the process ends (exit, uncaughtException,
   * SIGTERM through main's shutdown). Never in production (see createProcessLogger).
   */
  async?: boolean;
  /**
   * `pretty`: short human lines for a terminal (pino-pretty: time, level, message; request lines as
   * "GET /api/v1/… 200 12 ms"); `json` (default): one JSON object a line, for log collectors.
   */
  format?: 'pretty' | 'json';
}

/**
 * The process logger; request loggers are its children (pino-http). Call `logger.flush()` before exit.
 * Redaction applies in both formats.
 */
export function createLogger(level: string, opts: LoggerOptions = {}) {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  if (opts.format === 'pretty') {
    return pino(
      options,
      pretty({
        colorize: true,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname,req,res,responseTime,reqId',
        singleLine: true,
        messageFormat: (log, messageKey) => {
          const req = fieldsOf(log.req);
          const res = fieldsOf(log.res);
          if (req?.method && res?.statusCode)
            return `${String(req.method)} ${String(req.url)} ${String(res.statusCode)} ${String(log.responseTime ?? '')} ms`;
          return String(log[messageKey] ?? '');
        },
        sync: !opts.async,
      }),
    );
  }
  if (!opts.async) return pino(options, pino.destination({ dest: 1, sync: true }));
  const logger = pino(options, pino.destination({ dest: 1, sync: false, minLength: 4096 }));
  // A quiet process still shows its lines within a second (not only once 4 KB have gathered).
  setInterval(() => logger.flush(), 1000).unref();
  return logger;
}
export type Logger = pino.Logger;

/**
 * The API process's logger (main.ts; issue 23 §5). In production every line is written synchronously
 * (write(2) before the call returns): a crash, an OOM kill or a SIGKILL right after a line leaves the line
 * on stdout, where a buffered logger loses up to 4 KB (and a quiet instance seemed to write nothing).
 * Elsewhere lines are buffered (LoggerOptions.async). Either way `exitOnUncaught` logs the fatal error and
 * flushes before the process ends.
 */
export function createProcessLogger(config: { production: boolean; logLevel: string; logFormat: 'pretty' | 'json' }): Logger {
  return createLogger(config.logLevel, { async: !config.production, format: config.logFormat });
}

/** Writes out whatever `logger` holds in its buffer, synchronously (a no-op for a synchronous or pretty destination). */
export function flushLogsSync(logger: Logger): void {
  const stream = (logger as unknown as Record<symbol, { flushSync?: () => void }>)[pino.symbols.streamSym];
  try {
    stream?.flushSync?.();
  } catch {
    // Nothing buffered, or stdout is gone: nothing more can be written anyway.
  }
}

/**
 * pino's final-flush pattern (docs/asynchronous.md: flush the destination synchronously before the process
 * ends): an uncaught exception (or unhandled rejection) is logged as `fatal`, the buffer flushed, and the
 * process exits 1; on `exit` (process.exit, end of the event loop, after SIGTERM's shutdown) the buffer is
 * flushed as well.
 */
export function exitOnUncaught(logger: Logger): void {
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception: the process stops');
    flushLogsSync(logger);
    process.exit(1);
  });
  process.on('exit', () => flushLogsSync(logger));
}
