import { rm } from 'node:fs/promises';
import type { Knex } from 'knex';
import type { Logger } from '../logger';
import { failAbandonedRuns, getRun } from '../modules/imports/imports.repository';
import type { ImportJobs } from '../modules/imports/imports.service';
import { importRuns } from '../http/metrics';
import { STALE_RUN_SECONDS, runImportInChild } from './import-runner';
import { PgBoss, RETENTION, knexDb, ensureQueue } from './pg-boss';

/** The pg-boss queue of data imports uploaded in the Data Synch tab. */
export const IMPORT_QUEUE = 'data-import';

/** The import queue: enqueue for the app, and the lifecycle for main.ts and tests. */
export interface ImportQueue extends ImportJobs {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The error of a run whose process died without finishing it. */
export const ABANDONED_RUN_ERROR =
  'The import stopped: the process running it ended (the server restarted or crashed). Nothing of the file being read was written.';

/**
 * Data imports as pg-boss jobs: `enqueue(db, runId)` inserts the job in the caller's
 * transaction (with the run's row); the worker (one at a time, no automatic retry: a refused file must be
 * fixed and uploaded again) runs the importer in a child process with at most `memoryMb` of heap
 * (import-runner.ts), which records progress and results in import_runs: a file that crashes or exhausts
 * the importer fails its run, never the API. At start and every 30 s the worker also marks failed the runs
 * left `running` by a process that died (heartbeat older than STALE_RUN_SECONDS).
 */
export function createImportQueue(opts: {
  connectionString: string;
  db: Knex;
  logger: Logger;
  work?: boolean;
  pollingIntervalSeconds?: number;
  /** Heap limit of the importer's process (config IMPORT_MEMORY_MB). */
  memoryMb?: number;
}): ImportQueue {
  const log = opts.logger.child({ component: 'import-queue' });
  const boss = new PgBoss({
    connectionString: opts.connectionString,
    max: 2,
    application_name: 'portal-imports',
    schedule: false,
    ...RETENTION,
  });
  boss.on('error', (err: Error) => log.error({ err }, 'import queue error'));
  const queueOptions = { retryLimit: 0, expireInSeconds: 3600 };
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = async () => {
    const abandoned = await failAbandonedRuns(opts.db, STALE_RUN_SECONDS, ABANDONED_RUN_ERROR);
    for (const run of abandoned) {
      importRuns.inc({ outcome: 'failed' });
      log.warn({ runId: run.id }, 'an import run whose process died was marked failed');
      if (run.workDir) await rm(run.workDir, { recursive: true, force: true }).catch(() => undefined);
    }
  };
  return {
    async enqueue(db, runId) {
      await boss.send(IMPORT_QUEUE, { runId }, { db: knexDb(db) });
    },
    async start() {
      await boss.start();
      await ensureQueue(boss, IMPORT_QUEUE, queueOptions);
      if (opts.work ?? true) {
        await sweep();
        sweeper = setInterval(() => void sweep().catch((err) => log.error({ err }, 'import run sweep failed')), 30_000);
        sweeper.unref();
        await boss.work<{ runId: string }>(
          IMPORT_QUEUE,
          { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1, batchSize: 1 },
          async ([job]) => {
            const started = Date.now();
            await runImportInChild({
              connectionString: opts.connectionString,
              db: opts.db,
              runId: job.data.runId,
              logger: log,
              memoryMb: opts.memoryMb ?? 512,
            });
            const run = await getRun(opts.db, job.data.runId);
            importRuns.inc({ outcome: run?.status === 'succeeded' ? 'succeeded' : 'failed' });
            log.info({ runId: job.data.runId, status: run?.status, ms: Date.now() - started }, 'import finished');
          },
        );
      }
    },
    async stop() {
      clearInterval(sweeper);
      await boss.stop({ graceful: true, timeout: 30_000 });
    },
  };
}
