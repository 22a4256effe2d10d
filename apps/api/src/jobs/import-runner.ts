import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Knex } from 'knex';
import type { Logger } from '../logger';
import * as runs from '../modules/imports/imports.repository';
import type { ImportWorkerTask } from './import-worker';

/** How often the supervising process refreshes a running import's heartbeat. */
export const HEARTBEAT_SECONDS = 10;
/** A running import whose heartbeat is older than this has lost its process (killed, out of memory, restarted). */
export const STALE_RUN_SECONDS = 60;

/**
 * How to start the importer's process: the bundle's `import-worker.js` next to `main.js` (npm start, the
 * Docker image), else the TypeScript source through tsx (tests, `npm run dev`), from the repository root.
 */
export function importWorkerCommand(): { args: string[]; cwd: string } {
  const bundled = join(__dirname, 'import-worker.js');
  if (!__filename.endsWith('.ts') && existsSync(bundled)) return { args: [bundled], cwd: process.cwd() };
  return { args: ['--import', 'tsx', resolve(__dirname, 'import-worker.ts')], cwd: resolve(__dirname, '../../../..') };
}

/** Why a process ended, said for the run's error. */
function ending(code: number | null, signal: NodeJS.Signals | null, memoryMb: number): string {
  if (signal === 'SIGABRT' || code === 134) return `ran out of memory (its limit is ${memoryMb} MB)`;
  if (signal) return `was stopped (${signal})`;
  return `exited with code ${code}`;
}

/**
 * Runs import run `runId` in a child process with at most `memoryMb` of heap (issue 23 §3): whatever a file
 * does to the importer, the API keeps serving. The run's heartbeat is refreshed every HEARTBEAT_SECONDS while
 * the child lives; when the child dies without finishing the run (out of memory, killed, crashed), the run is
 * marked failed here with the reason, and its work folder removed. Resolves when the child has exited;
 * never rejects. The child writes to this process's stderr unless `stderr: 'ignore'` (tests under jest's
 * worker pool: jest takes a child's V8 "heap out of memory" text on the worker's stderr for the worker's own).
 */
export async function runImportInChild(opts: {
  connectionString: string;
  db: Knex;
  runId: string;
  logger: Logger;
  memoryMb: number;
  stderr?: 'inherit' | 'ignore';
}): Promise<void> {
  const { db, runId, logger } = opts;
  const { args, cwd } = importWorkerCommand();
  const task: ImportWorkerTask = { connectionString: opts.connectionString, runId, logLevel: logger.level };
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((done) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${opts.memoryMb}`, ...args], {
      cwd,
      // The worker is this process's own child: it inherits the environment as is (PATH, NODE_OPTIONS, TZ…) and
      // reads no setting from it (its task comes over IPC).
      // eslint-disable-next-line no-restricted-properties
      env: process.env,
      stdio: ['ignore', 'inherit', opts.stderr ?? 'inherit', 'ipc'],
    });
    const beat = setInterval(() => void runs.touchRun(db, runId).catch(() => undefined), HEARTBEAT_SECONDS * 1000);
    let settled = false;
    const finish = (r: { code: number | null; signal: NodeJS.Signals | null; error?: Error }) => {
      if (settled) return;
      settled = true;
      clearInterval(beat);
      done(r);
    };
    child.once('error', (error) => finish({ code: null, signal: null, error }));
    child.once('exit', (code, signal) => finish({ code, signal }));
    child.send(task, (err) => err && logger.warn({ err: { message: err.message }, runId }, 'the import process did not take its task'));
  });
  if (ended.code === 0) return;
  const why = ended.error ? `could not be started (${ended.error.message})` : ending(ended.code, ended.signal, opts.memoryMb);
  logger.error({ runId, code: ended.code, signal: ended.signal }, `the import process ${why}`);
  const workDir = await runs
    .failUnfinishedRun(db, runId, `The import stopped: its process ${why}. Nothing of the file being read was written.`)
    .catch((err) => {
      logger.error({ err, runId }, 'the failed import run could not be recorded');
      return null;
    });
  if (workDir) await rm(workDir, { recursive: true, force: true }).catch(() => undefined);
}
