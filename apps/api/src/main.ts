import { join } from 'node:path';
import type { Server } from 'node:http';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { createDb, migrateLatest } from './db/knex';
import { createApp } from './app';
import { createMailOutbox } from './jobs/mail-queue';
import { bootstrapDatabase } from '@portal/seeds';

/** Reads config, opens the DB (embedded PostgreSQL without DATABASE_URL), migrates, seeds, serves. */
async function main() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, { async: true });
  let url = config.databaseUrl;
  let embedded: Awaited<ReturnType<typeof import('./db/embedded').startEmbeddedPostgres>> | undefined;
  if (!url) {
    logger.info({ dataDir: join(config.dataDir, 'pg'), port: config.embeddedPgPort }, 'no DATABASE_URL: starting embedded PostgreSQL');
    const { startEmbeddedPostgres } = await import('./db/embedded');
    embedded = await startEmbeddedPostgres({ dataDir: join(config.dataDir, 'pg'), port: config.embeddedPgPort, database: 'portal' });
    url = embedded.url;
  }
  const db = createDb(url, { max: 20 });
  const applied = await migrateLatest(db);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  await bootstrapDatabase(db, { sharedDataDir: config.sharedDataDir, demoPassword: config.demoPassword, bcryptCost: config.bcryptCost, log: (m) => logger.info(m) });
  // Mail outbox (ARCHITECTURE §7): jobs are queued in the callers' transactions; the worker runs when JOBS_ENABLED.
  const outbox = createMailOutbox({ connectionString: url, config, logger, work: config.jobsEnabled });
  await outbox.start();
  const app = createApp({ config, db, logger, mailer: outbox.mailer }, { webDir: config.webDir });
  const server: Server = app.listen(config.port, config.host, () => logger.info({ port: config.port }, `portal listening on http://127.0.0.1:${config.port}`));
  server.keepAliveTimeout = 65_000;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await new Promise<void>((ok) => { server.close(() => ok()); server.closeIdleConnections(); });
    await outbox.stop().catch((err) => logger.error({ err }, 'mail outbox did not stop cleanly'));
    await db.destroy();
    if (embedded) await embedded.stop().catch(() => undefined);
    logger.info('stopped');
    logger.flush();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error('portal failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
