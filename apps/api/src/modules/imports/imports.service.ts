import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import type { Knex } from 'knex';
import type { DataSummary, ImportRun } from '@portal/contracts';
import { detectKind, importFile, ImportError, type ImportProgress } from '@portal/seeds';
import type { Db } from '../../db/knex';
import { BadRequestError, NotFoundError, PayloadTooLargeError } from '../../http/errors';
import type { Logger } from '../../logger';
import { recordAudit } from '../audit/audit.service';
import { auditActor, type AdminActor } from '../access/access.service';
import * as repo from './imports.repository';
import type { ImportFileResult } from './imports.repository';

/** At most this many files per upload, each at most this size (the full store_items file is 21 MB). */
export const MAX_FILES = 10;
export const MAX_FILE_BYTES = 200 * 1024 * 1024;
/** Row errors kept per file (the importer stops a file at its MAX_ROW_ERRORS, also 100). */
export const MAX_ERRORS_PER_FILE = 100;

/** Enqueues the import job of a run inside the caller's transaction (pg-boss, jobs/import-queue.ts). */
export interface ImportJobs {
  enqueue(db: Knex, runId: string): Promise<void>;
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
  actor: AdminActor,
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
        reject(new BadRequestError((e as Error).message));
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
      bb.on('error', (e) => reject(new BadRequestError(`The upload could not be read: ${(e as Error).message}`)));
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

const ORDER = ['stores', 'products', 'store_items'];

/**
 * The import job (pg-boss worker): runs THE importer of `db:import` (seeds/import.ts `importFile`) on each
 * uploaded file in dependency order (stores, products, store items), one transaction per file, so a bad
 * file writes nothing of itself and a re-run changes nothing. Records per-file created / updated /
 * unchanged counts, the row errors (file:line: field: reason) and progress (rows read of total) as it
 * goes; the run ends succeeded, or failed when any file was refused. Removes the work folder.
 */
export async function runImport(db: Knex, runId: string, logger?: Logger): Promise<ImportRun | undefined> {
  const work = await repo.findRunWork(db, runId);
  if (!work || (work.status !== 'queued' && work.status !== 'running')) return repo.getRun(db, runId);
  const files = work.files.map((f) => ({ ...f, errors: [] as string[] }));
  let rowsRead = 0;
  await repo.updateRun(db, runId, { status: 'running', started: true, rowsRead: 0 });
  try {
    if (!work.workDir) throw new Error('the uploaded files are gone');
    const present = new Set(await readdir(work.workDir));
    const planned: { file: ImportFileResult; path: string; kind: string }[] = [];
    for (const file of files) {
      const path = join(work.workDir, file.name);
      if (!present.has(file.name)) {
        file.errors.push(`${file.name}: file: missing from the upload`);
        continue;
      }
      try {
        const kind = await detectKind(path);
        file.kind = kind;
        planned.push({ file, path, kind });
      } catch (e) {
        // Never a driver or file-system message (paths, SQL) in what the API answers.
        if (!(e instanceof ImportError)) logger?.error({ err: e, runId, file: file.name }, 'import file header could not be read');
        file.errors.push(e instanceof ImportError ? e.message : `${file.name}: header: the file could not be read`);
      }
    }
    planned.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
    let changed = false;
    for (const [i, { file, path }] of planned.entries()) {
      const before = rowsRead;
      const onProgress = (p: ImportProgress) => {
        rowsRead = before + p.rows;
      };
      // Persist the progress the importer reports about once a second (the tab polls it).
      let saved = rowsRead;
      const ticker = setInterval(() => {
        if (rowsRead !== saved) {
          saved = rowsRead;
          void repo.updateRun(db, runId, { rowsRead }).catch(() => undefined);
        }
      }, 1000);
      try {
        const r = await importFile(db, path, { onProgress }, { index: i + 1, files: planned.length });
        Object.assign(file, { rows: r.rows, created: r.inserted, updated: r.updated, unchanged: r.unchanged });
        changed ||= r.inserted + r.updated > 0;
        rowsRead = before + r.rows;
      } catch (e) {
        if (e instanceof ImportError) {
          file.errors.push(...(e.errors.length ? e.errors.slice(0, MAX_ERRORS_PER_FILE).map((x) => x.message) : [e.message]));
        } else {
          logger?.error({ err: e, runId, file: file.name }, 'import file failed');
          file.errors.push(`${file.name}: file: the import failed on the server (details in the server log)`);
        }
        // The rows the importer read before refusing the file (its last progress report).
        file.rows = Math.max(0, rowsRead - before);
      } finally {
        clearInterval(ticker);
      }
      await repo.updateRun(db, runId, { rowsRead, files });
    }
    if (changed) await db.raw('ANALYZE stores, bottle_sizes, items, inventory');
    const failed = files.some((f) => f.errors.length);
    await repo.updateRun(db, runId, {
      status: failed ? 'failed' : 'succeeded',
      rowsRead,
      files,
      finished: true,
      error: failed ? 'One or more files were refused; nothing of them was written' : null,
    });
  } catch (e) {
    logger?.error({ err: e, runId }, 'import run failed');
    await repo.updateRun(db, runId, {
      status: 'failed',
      files,
      finished: true,
      error: 'The import failed on the server (details in the server log)',
    });
  } finally {
    if (work.workDir) await rm(work.workDir, { recursive: true, force: true });
  }
  return repo.getRun(db, runId);
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
  const {
    rows: [c],
  } = await db.raw(`SELECT
      (SELECT count(*)::int FROM items) AS items, (SELECT count(*)::int FROM items WHERE active) AS "activeItems",
      (SELECT count(*)::int FROM stores) AS stores, (SELECT count(DISTINCT category)::int FROM items) AS categories,
      (SELECT count(*)::int FROM boards) AS boards, (SELECT count(*)::int FROM inventory) AS "inventoryRows"`);
  const runs = await db('import_runs')
    .whereIn('status', ['succeeded', 'failed'])
    .orderBy('finished_at', 'desc')
    .limit(100)
    .select(
      'status',
      'source',
      'files',
      db.raw(`to_char(finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "finishedAt"`),
    );
  const last = new Map<string, DataSummary['lastImports'][number]>();
  for (const r of runs) {
    for (const f of r.files as ImportFileResult[]) {
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
  return { ...c, lastImports: ORDER.filter((k) => last.has(k)).map((k) => last.get(k)!) };
}
