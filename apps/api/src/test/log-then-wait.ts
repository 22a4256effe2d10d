/**
 * A process for logger.test.ts: builds the API's process logger from the environment's config (as
 * main.ts does), writes one line, tells its parent over IPC, then waits to be killed. With
 * `THROW_AFTER_LOG=1` it throws an uncaught exception right after the line instead.
 */
import { loadConfig } from '../config';
import { createProcessLogger, exitOnUncaught } from '../logger';

const logger = createProcessLogger(loadConfig());
exitOnUncaught(logger);
logger.info({ marker: process.env.LOG_MARKER }, 'the last words before the end');
if (process.env.THROW_AFTER_LOG === '1') {
  setImmediate(() => {
    throw new Error('boom after the line');
  });
} else {
  process.send?.('logged');
  setInterval(() => undefined, 1000);
}
