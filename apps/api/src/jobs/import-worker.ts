/**
 * The importer's own process (issue 23 §3): one uploaded import run, read and written here, not in the
 * API, so a hostile file that exhausts memory (the process has --max-old-space-size) or crashes the CSV
 * parser ends this process and fails its run, never the API. Started by jobs/import-runner.ts, which sends
 * `{ connectionString, runId, logLevel }` over IPC (never in argv or the environment) and refreshes the
 * run's heartbeat while this process lives. Runs `runImport` (modules/imports), which records progress,
 * per-file results and the final status itself; exits 0 when it ran, 1 when even that record failed.
 */
import { createDb } from '../db/knex';
import { createLogger } from '../logger';
import { runImport } from '../modules/imports/import-run';

/** What the supervising API process sends. */
export interface ImportWorkerTask {
  connectionString: string;
  runId: string;
  logLevel: string;
}

process.once('message', (task: ImportWorkerTask) => {
  void work(task);
});

async function work(task: ImportWorkerTask): Promise<void> {
  const logger = createLogger(task.logLevel).child({ component: 'import-worker', runId: task.runId });
  const db = createDb(task.connectionString, { max: 2 });
  let code = 0;
  try {
    await runImport(db, task.runId, logger);
  } catch (err) {
    code = 1;
    logger.error({ err }, 'the import run could not be recorded');
  } finally {
    await db.destroy().catch(() => undefined);
  }
  process.exit(code);
}
