import pino from 'pino';

/** Paths pino never prints: tokens, passwords, card data (ARCHITECTURE §6, §8). */
export const REDACT_PATHS = [
  'req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]',
  '*.password', '*.newPassword', '*.currentPassword', '*.confirmPassword', '*.token', '*.access_token',
  '*.refresh_token', '*.cardNumber', '*.securityCode', '*.card', 'card', 'password', 'token',
];

/**
 * The process logger; request loggers are its children (pino-http). `async` buffers writes to stdout
 * (pino.destination sync:false) so logging stays off the request's critical path; call `logger.flush()`
 * before exit.
 */
export function createLogger(level: string, opts: { async?: boolean } = {}) {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  return opts.async ? pino(options, pino.destination({ dest: 1, sync: false, minLength: 4096 })) : pino(options);
}
export type Logger = pino.Logger;
