import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import type { DataSummary, ImportRun } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { BadRequestError, NotFoundError, PayloadTooLargeError } from '../../http/errors';
import { recordAudit } from '../audit/audit.service';
import { auditActor, type Actor } from '../access/access.service';
import { KIND_ORDER, MAX_FILES, MAX_FILE_BYTES } from './import-run';
import * as repo from './imports.repository';
import type { ImportFileResult } from './imports.repository';

export { MAX_FILES, MAX_FILE_BYTES, MAX_ERRORS_PER_FILE, runImport } from './import-run';

/** The message of a thrown value (busboy throws and emits Errors). */
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Enqueues the import job of a run inside the caller's transaction (pg-boss, jobs/import-queue.ts). */
export interface ImportJobs {
  enqueue(db: Db, runId: string): Promise<void>;
}

/** Counts the lines passing through (for rows_total) without buffering. */
function lineCounter() {
  let lines = 0;
  let last = 10;
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      if (chunk.length) last = chunk[chunk.length - 1];
      done(null, chunk);
    },
  });
  return { stream: t, rows: () => Math.max(0, lines + (last === 10 ? 0 : 1) - 1) };
}

const safeName = (name: string, taken: Set<string>) => {
  let base =
    (name.split(/[\\/]/).pop() ?? '')
      .replace(/[^\w.-]+/g, '_')
      .replace(/^\.+/, '')
      .slice(0, 120) || 'upload.csv';
  if (!/\.(csv|csv\.gz)$/i.test(base)) base += '.csv';
  let n = base;
  for (let i = 2; taken.has(n.toLowerCase()); i++) n = base.replace(/(\.csv(\.gz)?)$/i, `-${i}$1`);
  taken.add(n.toLowerCase());
  return n;
};

/**
 * POST /admin/imports: streams the multipart field `files` (one or more CSV files, busboy) to a work folder
 * under `dataDir/imports/` without buffering a file in memory, counting rows for the progress bar; then,
 * in one transaction, records the run (queued) with its audit row and enqueues the import job. 400 when no
 * file came, 413 when a file or the count is over the limits.
 */
export async function acceptUpload(
  db: Db,
  jobs: ImportJobs,
  dataDir: string,
  actor: Actor,
  req: IncomingMessage,
): Promise<{ id: string; status: 'queued' }> {
  if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? ''))
    throw new BadRequestError('Send the CSV files as multipart/form-data in the field "files"');
  const workDir = join(dataDir, 'imports', randomUUID());
  await mkdir(workDir, { recursive: true });
  const files: { name: string; rows: () => number }[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let bb: busboy.Busboy;
      try {
        bb = busboy({ headers: req.headers, limits: { files: MAX_FILES, fileSize: MAX_FILE_BYTES, fields: 10 } });
      } catch (e) {
        reject(new BadRequestError(messageOf(e)));
        return;
      }
      const writes: Promise<void>[] = [];
      const taken = new Set<string>();
      let failed: Error | undefined;
      bb.on('file', (field, stream, info) => {
        if (field !== 'files') {
          stream.resume();
          return;
        }
        const name = safeName(info.filename ?? '', taken);
        const counter = lineCounter();
        files.push({ name, rows: counter.rows });
        stream.on('limit', () => {
          failed = new PayloadTooLargeError(`${name} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
        });
        writes.push(pipeline(stream, counter.stream, createWriteStream(join(workDir, name))));
      });
      bb.on('filesLimit', () => {
        failed = new PayloadTooLargeError(`Upload at most ${MAX_FILES} files at once`);
      });
      bb.on('error', (e) => reject(new BadRequestError(`The upload could not be read: ${messageOf(e)}`)));
      bb.on('close', () => {
        Promise.all(writes).then(() => (failed ? reject(failed) : resolve()), reject);
      });
      req.pipe(bb);
    });
    if (!files.length) throw new BadRequestError('Choose one or more CSV files (field "files")');
    const rowsTotal = files.reduce((n, f) => n + (f.name.endsWith('.gz') ? 0 : f.rows()), 0);
    const fileRows: ImportFileResult[] = files.map((f) => ({
      name: f.name,
      kind: null,
      rows: 0,
      created: 0,
      updated: 0,
      unchanged: 0,
      errors: [],
    }));
    const id = await db.transaction(async (trx) => {
      const runId = await repo.insertRun(trx, {
        source: 'upload',
        status: 'queued',
        createdBy: actor.userId,
        rowsTotal,
        files: fileRows,
        workDir,
      });
      await recordAudit(trx, auditActor(actor), {
        action: 'import.queued',
        entityType: 'import_run',
        entityId: runId,
        ip: actor.ip,
        details: { files: files.map((f) => f.name), rowsTotal },
      });
      await jobs.enqueue(trx, runId);
      return runId;
    });
    return { id, status: 'queued' };
  } catch (e) {
    await rm(workDir, { recursive: true, force: true });
    throw e;
  }
}

/** GET /admin/imports/{id}: status, progress, per-file counts and row errors; 404 when unknown. */
export async function getImport(db: Db, id: string): Promise<ImportRun> {
  const run = await repo.getRun(db, id);
  if (!run) throw new NotFoundError('Import not found');
  return run;
}

/** The newest 50 runs (uploads and CLI). */
export async function listImports(db: Db): Promise<{ items: ImportRun[] }> {
  return { items: await repo.listRuns(db, 50) };
}

/**
 * What the portal holds (the Data Synch tab, instead of the spec's fixed text): items, active items,
 * stores, inventory rows (estimated from the planner's statistics above 100,000), categories, boards, and
 * the last finished import of each kind.
 */
export async function dataSummary(db: Db): Promise<DataSummary> {
  const counts = await repo.catalogCounts(db);
  const runs = await repo.findFinishedRuns(db, 100);
  const last = new Map<string, DataSummary['lastImports'][number]>();
  for (const r of runs) {
    for (const f of r.files) {
      if (f.kind && !last.has(f.kind))
        last.set(f.kind, {
          kind: f.kind,
          file: f.name,
          finishedAt: r.finishedAt,
          status: f.errors.length ? 'failed' : 'succeeded',
          source: r.source,
        });
    }
  }
  return { ...counts, lastImports: KIND_ORDER.flatMap((k) => last.get(k) ?? []) };
}
