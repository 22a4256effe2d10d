import type { Knex } from 'knex';
import type { Logger } from '../logger';
import { runImport, type ImportJobs } from '../modules/imports/imports.service';
import { importRuns } from '../http/metrics';
import { PgBoss, RETENTION, knexDb, ensureQueue } from './pg-boss';

/** The pg-boss queue of data imports uploaded in the Data Synch tab. */
export const IMPORT_QUEUE = 'data-import';

/** The import queue: enqueue for the app, and the lifecycle for main.ts and tests. */
export interface ImportQueue extends ImportJobs {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Data imports as pg-boss jobs: `enqueue(db, runId)` inserts the job in the caller's
 * transaction (with the run's row); the worker (one at a time, no automatic retry: a refused file must be
 * fixed and uploaded again) runs `runImport`, which records progress and results in import_runs.
 */
export function createImportQueue(opts: {
  connectionString: string;
  db: Knex;
  logger: Logger;
  work?: boolean;
  pollingIntervalSeconds?: number;
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
  return {
    async enqueue(db, runId) {
      await boss.send(IMPORT_QUEUE, { runId }, { db: knexDb(db) });
    },
    async start() {
      await boss.start();
      await ensureQueue(boss, IMPORT_QUEUE, queueOptions);
      if (opts.work ?? true) {
        await boss.work<{ runId: string }>(
          IMPORT_QUEUE,
          { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1, batchSize: 1 },
          async ([job]) => {
            const started = Date.now();
            const run = await runImport(opts.db, job.data.runId, log);
            importRuns.inc({ outcome: run?.status === 'succeeded' ? 'succeeded' : 'failed' });
            log.info({ runId: job.data.runId, status: run?.status, ms: Date.now() - started }, 'import finished');
          },
        );
      }
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 30_000 });
    },
  };
}
