import pino from 'pino';

/** Paths pino never prints: tokens, passwords, card data (ARCHITECTURE §6, §8). */
export const REDACT_PATHS = [
  'req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]',
  '*.password', '*.newPassword', '*.currentPassword', '*.confirmPassword', '*.token', '*.access_token',
  '*.refresh_token', '*.cardNumber', '*.securityCode', '*.card', 'card', 'password', 'token',
];

/** The process logger; request loggers are its children (pino-http). */
export function createLogger(level: string) {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}
export type Logger = pino.Logger;
