import pino from 'pino';
import pretty from 'pino-pretty';

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
  /** Buffer writes to stdout (pino.destination sync:false): logging stays off the request's critical path. */
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
          const req = log.req as { method?: string; url?: string } | undefined;
          const res = log.res as { statusCode?: number } | undefined;
          if (req?.method && res?.statusCode) return `${req.method} ${req.url} ${res.statusCode} ${String(log.responseTime ?? '')} ms`;
          return String(log[messageKey] ?? '');
        },
        sync: !opts.async,
      }),
    );
  }
  return opts.async ? pino(options, pino.destination({ dest: 1, sync: false, minLength: 4096 })) : pino(options);
}
export type Logger = pino.Logger;
