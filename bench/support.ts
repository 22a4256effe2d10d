/**
 * What the benchmarks that run the API as a child process share: the real data files, a throw-away
 * database on the machine's PostgreSQL, a free port, the child's RSS, waiting for it to answer, stopping it.
 */
import { type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { createDb } from '../apps/api/src/db/knex';

const ROOT = resolve(__dirname, '..');

/** The real data file `name` (plain or .gz): SHARED_DATA_DIR, else ../shared/data, else data/iowa-abd. */
export function dataFile(name: string): string {
  const dirs = [process.env.SHARED_DATA_DIR, join(ROOT, '../shared/data'), join(ROOT, 'data/iowa-abd')].filter(Boolean) as string[];
  for (const d of dirs) for (const f of [join(d, name), join(d, `${name}.gz`)]) if (existsSync(f)) return f;
  throw new Error(`${name} not found in ${dirs.join(', ')}`);
}

/** The database name of a PostgreSQL URL. */
export const dbName = (url: string) => new URL(url).pathname.slice(1);

/** `url` with its database replaced by `name`. */
export const withDb = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};
/** Drops the database of `url` (forcing its connections off). */
export async function dropDatabase(url: string) {
  const admin = createDb(withDb(url, 'postgres'), { max: 1 });
  await admin.raw(`DROP DATABASE IF EXISTS "${dbName(url)}" WITH (FORCE)`);
  await admin.destroy();
}
/** A TCP port nothing listens on right now. */
export const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });

/** VmRSS (MB) of `pid` every 200 ms until stopped. */
export function sampleRss(pid: number) {
  const samples: number[] = [];
  const read = () => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) samples.push(Number(m[1]) / 1024);
    } catch {
      /* gone */
    }
  };
  read();
  const timer = setInterval(read, 200);
  return {
    stop() {
      clearInterval(timer);
      read();
      return samples;
    },
  };
}

/** Resolves when `url` answers 2xx; throws after `ms`. */
export async function waitForHttp(url: string, ms: number) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > end) throw new Error(`${url} did not answer within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** SIGTERM, then SIGKILL after 15 s; resolves when the process has exited. */
export const stop = (p: ChildProcess) =>
  new Promise<void>((ok) => {
    if (p.exitCode !== null) return ok();
    p.once('exit', () => ok());
    p.kill('SIGTERM');
    setTimeout(() => p.kill('SIGKILL'), 15_000).unref();
  });
