import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../../db/knex';
import type { ImportRun } from '@portal/contracts';
import { detectKind, importFile, ImportError, type ImportProgress } from '@portal/seeds';
import type { Logger } from '../../logger';
import * as repo from './imports.repository';
import type { ImportFileResult } from './imports.repository';

/**
 * Running an uploaded import (issue 23 §3): kept apart from the upload handling (imports.service.ts) so the
 * importer's own process (jobs/import-worker.ts) loads only what it runs.
 */

/** At most this many files per upload, each at most this size, plain or once decompressed (the full store_items file is 21 MB). */
export const MAX_FILES = 10;
export const MAX_FILE_BYTES = 200 * 1024 * 1024;
/** Row errors kept per file (the importer stops a file at its MAX_ROW_ERRORS, also 100). */
export const MAX_ERRORS_PER_FILE = 100;
/** The kinds of file in the order they are imported (each depends on the ones before). */
export const KIND_ORDER = ['stores', 'products', 'store_items'];

/**
 * The import job (run in the importer's own process, jobs/import-worker.ts): runs THE importer of
 * `db:import` (seeds/import.ts `importFile`, each file capped at MAX_FILE_BYTES once decompressed) on each
 * uploaded file in dependency order (stores, products, store items), one transaction per file, so a bad
 * file writes nothing of itself and a re-run changes nothing. Records per-file created / updated /
 * unchanged counts, the row errors (file:line: field: reason) and progress (rows read of total) as it
 * goes; the run ends succeeded, or failed when any file was refused. Removes the work folder.
 */
export async function runImport(db: Db, runId: string, logger?: Logger): Promise<ImportRun | undefined> {
  const work = await repo.findRunWork(db, runId);
  if (!work || (work.status !== 'queued' && work.status !== 'running')) return repo.getRun(db, runId);
  const files: ImportFileResult[] = work.files.map((f) => ({ ...f, errors: [] }));
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
    planned.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
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
        const r = await importFile(db, path, { onProgress, maxBytes: MAX_FILE_BYTES }, { index: i + 1, files: planned.length });
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
    if (changed) await repo.analyzeCatalog(db);
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
