import { join } from 'node:path';
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { loadConfig } from './config';
import { createProcessLogger, exitOnUncaught, flushLogsSync } from './logger';
import { createDb, migrateLatest } from './db/knex';
import { createApp, wireModules } from './app';
import { apiKeyChanges } from './http/api-key-auth';
import { principalChanges } from './http/auth';
import { startNotifications } from './db/notifications';
import { FeedIndex, sizeEventTexts } from './modules/integrations/feed-index';
import { createOrderEventHub } from './modules/orders/live-events.service';
import { feedIdentityFor } from './modules/integrations/feed-identity';
import { createMailOutbox } from './jobs/mail-queue';
import { createJanitors } from './jobs/janitors';
import { createPaymentReconciler } from './jobs/payment-reconciler';
import { createImportQueue } from './jobs/import-queue';
import { createWebhookJobs } from './jobs/webhook-jobs';
import { DEFAULT_DEMO_PASSWORD, DEMO_ACCOUNTS, accountsWithDemoPassword, bootstrapDatabase } from '@portal/seeds';
import { startBanner, terminalProgress } from './start-banner';
import { reportSchema } from './modules/health/health.service';

/** Reads config, opens the DB (embedded PostgreSQL without DATABASE_URL), migrates, seeds, serves. */
async function main() {
  const config = loadConfig();
  // Before any job starts: the reconciler and janitors append order events, which queue webhook deliveries.
  wireModules(config);
  // Production writes every line synchronously; an uncaught exception is logged and flushed before exit.
  const logger = createProcessLogger(config);
  exitOnUncaught(logger);
  let url = config.databaseUrl;
  let embedded: Awaited<ReturnType<typeof import('./db/embedded').startEmbeddedPostgres>> | undefined;
  if (!url) {
    logger.info({ dataDir: join(config.dataDir, 'pg') }, 'no DATABASE_URL: starting embedded PostgreSQL');
    const { startEmbeddedPostgres } = await import('./db/embedded');
    embedded = await startEmbeddedPostgres({ dataDir: join(config.dataDir, 'pg'), port: config.embeddedPgPort, database: 'portal' });
    url = embedded.url;
    logger.info({ port: embedded.port }, `embedded PostgreSQL listening on 127.0.0.1:${embedded.port}`);
  }
  const db = createDb(url, { max: config.databasePoolMax });
  const applied = await migrateLatest(db);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  // A newer release's migrations (rolling deploy, or a rollback of the code): a warning and a metric, not a refusal.
  await reportSchema(db, logger);
  await bootstrapDatabase(db, {
    sharedDataDir: config.sharedDataDir,
    demoPassword: config.demoPassword,
    bcryptCost: config.bcryptCost,
    demo: config.seedDemo,
    log: (m) => logger.info(m),
    // First start in a terminal: the catalog import as one progress line (rows and %).
    onProgress: config.logFormat === 'pretty' ? terminalProgress(process.stdout) : undefined,
  });
  if (config.production) {
    // A production start refuses while any demo account still has a demo password.
    const exposed = await accountsWithDemoPassword(db, [config.demoPassword, DEFAULT_DEMO_PASSWORD]);
    if (exposed.length) {
      throw new Error(
        `Refusing to start in production: ${exposed.join(', ')} still ${exposed.length === 1 ? 'has' : 'have'} the public demo password. Fix: DATABASE_URL=… npm run db:seed -- --lock-demo`,
      );
    }
  }
  // Mail outbox (ARCHITECTURE §7): jobs are queued in the callers' transactions; the worker runs when JOBS_ENABLED.
  const outbox = createMailOutbox({ connectionString: url, config, logger, work: config.jobsEnabled, db });
  await outbox.start();
  // Data imports uploaded in the Data Synch tab: a pg-boss job; the worker runs when JOBS_ENABLED.
  const imports = createImportQueue({ connectionString: url, db, logger, work: config.jobsEnabled, memoryMb: config.importMemoryMb });
  await imports.start();
  // Payment reconciler: a pg-boss schedule plus one pass at startup settles card orders left pending.
  const reconciler = config.jobsEnabled
    ? createPaymentReconciler({ connectionString: url, db, config, logger, mailer: outbox.mailer })
    : undefined;
  await reconciler?.start();
  // Janitors: a pg-boss schedule (JANITOR_CRON) removes expired sessions, tokens, keys and old audit rows.
  const janitors = config.jobsEnabled ? createJanitors({ connectionString: url, db, config, logger }) : undefined;
  await janitors?.start();
  // Webhook deliveries: pg-boss jobs queued with each order event; the worker runs when JOBS_ENABLED.
  const webhooks = createWebhookJobs({ connectionString: url, db, logger, production: config.production, work: config.jobsEnabled });
  await webhooks.start();
  // Caches trusted only while one LISTEN connection hears every change to what they hold: API key
  // principals (revocation at once) and the order feed's index (events appended or removed, a board's stores).
  sizeEventTexts(config.feedCacheMb);
  const feedIndex = new FeedIndex(db, config.feedIndexEvents);
  // A restored database renews the feed's id (feed-identity.ts): the index and the event texts start over.
  feedIdentityFor(db).onChange(() => {
    logger.warn('the order feed was reset (the database was restored or recreated): its index is rebuilt');
    void feedIndex.reset().catch(() => undefined);
  });
  // Live order updates (GET /me/events) hear new order events on the same connection.
  const orderEvents = createOrderEventHub();
  const notifications = startNotifications(url, logger, [apiKeyChanges, principalChanges, feedIndex.subscriber, orderEvents.subscriber]);
  const app = createApp(
    { config, db, logger, mailer: outbox.mailer, imports, feedReader: feedIndex, orderEvents },
    { webDir: config.webDir },
  );
  const server: Server = app.listen(config.port, config.host, () => {
    logger.info({ port: config.port }, `portal listening on http://127.0.0.1:${config.port}`);
    // What a newcomer needs next: the URL, the demo accounts when seeded, where mail goes.
    for (const line of startBanner(config, DEMO_ACCOUNTS)) logger.info(line);
  });
  server.keepAliveTimeout = 65_000;
  // Open connections, for a shutdown that does not wait out their keep-alive (below).
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    // A keep-alive connection (a proxy's, a browser's) busy now would hold the close for keepAliveTimeout (and the
    // process until the forced exit): its answer, and any later one, says `Connection: close` so the client stops
    // reusing it, and connections are closed as soon as they go idle. (http-terminator's approach, without its
    // logger and dependencies.) A live stream (GET /me/events) is cut now, as if its client had left: the client
    // reconnects with Last-Event-ID, through the proxy to another replica.
    const closeAfter = (res: ServerResponse | undefined) => {
      if (res && !res.headersSent) res.setHeader('connection', 'close');
      else if (res?.req.headers.accept?.includes('text/event-stream')) res.destroy();
    };
    for (const socket of sockets) closeAfter((socket as Socket & { _httpMessage?: ServerResponse })._httpMessage);
    server.prependListener('request', (_req, res: ServerResponse) => closeAfter(res));
    const closingIdle = setInterval(() => server.closeIdleConnections(), 100);
    await new Promise<void>((ok) => {
      server.close(() => ok());
      server.closeIdleConnections();
    });
    clearInterval(closingIdle);
    await outbox.stop().catch((err) => logger.error({ err }, 'mail outbox did not stop cleanly'));
    await imports.stop().catch((err) => logger.error({ err }, 'import queue did not stop cleanly'));
    await webhooks.stop().catch((err) => logger.error({ err }, 'webhook queue did not stop cleanly'));
    await reconciler?.stop().catch((err) => logger.error({ err }, 'payment reconciler did not stop cleanly'));
    await janitors?.stop().catch((err) => logger.error({ err }, 'janitors did not stop cleanly'));
    await notifications.stop();
    await db.destroy();
    if (embedded) await embedded.stop().catch(() => undefined);
    logger.info('stopped');
    flushLogsSync(logger);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  // One line with the cause (EmbeddedPostgresError says the fix too); never "undefined".
  const reason = err instanceof Error ? err.message || err.name : typeof err === 'string' ? err : (JSON.stringify(err) ?? String(err));
  console.error(`portal failed to start: ${reason}`);
  process.exit(1);
});
