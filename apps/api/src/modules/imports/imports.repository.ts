import type { Knex } from 'knex';
import type { DataSummary, ImportRun } from '@portal/contracts';
import type { ImportFileRecord } from '../../db/tables/commerce';

/**
 * import_runs: one row per import, from the browser or the CLI. Takes a plain knex (the CLI
 * and seeds use it too, without the API's context).
 */
export type ImportFileResult = ImportFileRecord;
export type ImportStatus = ImportRun['status'];

/**
 * Text as PostgreSQL stores it: U+0000 (which neither text nor jsonb can hold) and lone UTF-16 surrogates
 * (which jsonb refuses) become U+FFFD, so an error message quoting a binary file's bytes is always recorded.
 */
export function pgSafeText(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD').replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
const safeFiles = (files: ImportFileResult[]) =>
  JSON.stringify(files.map((f) => ({ ...f, name: pgSafeText(f.name), errors: f.errors.map(pgSafeText) })));

const iso = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const select = (db: Knex) =>
  db('import_runs as r')
    .leftJoin('users as u', 'u.id', 'r.created_by')
    .select(
      'r.id',
      'r.status',
      'r.source',
      'u.email as createdBy',
      db.raw(`${iso('r.created_at')} AS "createdAt"`),
      db.raw(`${iso('r.started_at')} AS "startedAt"`),
      db.raw(`${iso('r.finished_at')} AS "finishedAt"`),
      db.raw('r.rows_read::float8 AS "rowsRead"'),
      db.raw('r.rows_total::float8 AS "rowsTotal"'),
      'r.files',
      'r.error',
    );

interface RunRow {
  id: string;
  status: ImportStatus;
  source: 'upload' | 'cli';
  createdBy: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  rowsRead: number;
  rowsTotal: number;
  files: ImportFileResult[];
  error: string | null;
}

function toRun(r: RunRow): ImportRun {
  const total = Math.max(r.rowsTotal, r.rowsRead);
  const percent =
    r.status === 'succeeded' || r.status === 'failed' ? 100 : total ? Math.min(99, Math.floor((r.rowsRead / total) * 100)) : 0;
  return {
    id: r.id,
    status: r.status,
    source: r.source,
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    progress: { rowsRead: r.rowsRead, rowsTotal: total, percent },
    files: r.files,
    error: r.error,
  };
}

/** Inserts a run; returns its id. */
export async function insertRun(
  db: Knex,
  run: {
    source: 'upload' | 'cli';
    status: ImportStatus;
    createdBy?: string | null;
    rowsTotal?: number;
    rowsRead?: number;
    files: ImportFileResult[];
    workDir?: string | null;
    finished?: boolean;
    error?: string | null;
  },
): Promise<string> {
  const [row] = await db('import_runs')
    .insert({
      source: run.source,
      status: run.status,
      created_by: run.createdBy ?? null,
      rows_total: run.rowsTotal ?? 0,
      rows_read: run.rowsRead ?? 0,
      files: safeFiles(run.files),
      work_dir: run.workDir ?? null,
      error: run.error == null ? null : pgSafeText(run.error),
      ...(run.finished ? { started_at: db.fn.now(), finished_at: db.fn.now() } : {}),
    })
    .returning('id');
  return row.id;
}

/** The run's work folder and file names (for the job). */
export async function findRunWork(
  db: Knex,
  id: string,
): Promise<{ status: ImportStatus; workDir: string | null; files: ImportFileResult[]; rowsTotal: number } | undefined> {
  return db('import_runs').where({ id }).first('status', 'work_dir as workDir', 'files', db.raw('rows_total::float8 AS "rowsTotal"'));
}

/** Updates status, progress, files (and start / end times); texts made safe for PostgreSQL (pgSafeText). */
export async function updateRun(
  db: Knex,
  id: string,
  patch: {
    status?: ImportStatus;
    rowsRead?: number;
    rowsTotal?: number;
    files?: ImportFileResult[];
    error?: string | null;
    started?: boolean;
    finished?: boolean;
  },
) {
  const row: Record<string, unknown> = {};
  if (patch.status) row.status = patch.status;
  if (patch.rowsRead !== undefined) row.rows_read = patch.rowsRead;
  if (patch.rowsTotal !== undefined) row.rows_total = patch.rowsTotal;
  if (patch.files) row.files = safeFiles(patch.files);
  if (patch.error !== undefined) row.error = patch.error === null ? null : pgSafeText(patch.error);
  if (patch.started) row.started_at = row.heartbeat_at = db.fn.now();
  if (patch.finished) {
    row.finished_at = db.fn.now();
    row.work_dir = null;
  }
  await db('import_runs').where({ id }).update(row);
}

/** Notes that the run's importer is alive (its supervising process refreshes this while it runs). */
export async function touchRun(db: Knex, id: string): Promise<void> {
  await db('import_runs').where({ id, status: 'running' }).update({ heartbeat_at: db.fn.now() });
}

/** Marks the run failed with `error` unless it finished; answers its work folder (to remove) or null. */
export async function failUnfinishedRun(db: Knex, id: string, error: string): Promise<string | null> {
  const { rows } = await db.raw<{ rows: { workDir: string | null }[] }>(
    `UPDATE import_runs r SET status = 'failed', finished_at = now(), error = ?, work_dir = NULL
       FROM (SELECT id, work_dir FROM import_runs WHERE id = ? AND status IN ('queued', 'running') FOR UPDATE) old
      WHERE r.id = old.id
      RETURNING old.work_dir AS "workDir"`,
    [pgSafeText(error), id],
  );
  return rows[0]?.workDir ?? null;
}

/**
 * Marks failed every run still `running` whose heartbeat is older than `staleSeconds` (its process died:
 * killed, out of memory, restarted), with `error`; their work folders are forgotten. Returns their ids and
 * work folders (for the caller to remove).
 */
export async function failAbandonedRuns(db: Knex, staleSeconds: number, error: string): Promise<{ id: string; workDir: string | null }[]> {
  const { rows } = await db.raw<{ rows: { id: string; workDir: string | null }[] }>(
    `UPDATE import_runs r SET status = 'failed', finished_at = now(), error = ?, work_dir = NULL
       FROM (SELECT id, work_dir FROM import_runs
              WHERE status = 'running' AND coalesce(heartbeat_at, started_at, created_at) < now() - make_interval(secs => ?)
              FOR UPDATE) old
      WHERE r.id = old.id
      RETURNING old.id, old.work_dir AS "workDir"`,
    [pgSafeText(error), staleSeconds],
  );
  return rows;
}

export async function getRun(db: Knex, id: string): Promise<ImportRun | undefined> {
  const r = await select(db).where('r.id', id).first();
  return r ? toRun(r) : undefined;
}

/** The newest runs first. */
export async function listRuns(db: Knex, limit: number): Promise<ImportRun[]> {
  return (await select(db).orderBy('r.created_at', 'desc').limit(limit)).map(toRun);
}

/**
 * Records a finished CLI import (`npm run db:import`) as a run, so the Data Synch tab lists it too.
 * `results` are the importer's per-file results; `refused` the refused file and its row errors
 * (file:line: field: reason), if any. Never fails the import itself: the caller may ignore a rejection.
 */
export async function recordCliRun(
  db: Knex,
  results: { file: string; kind: string; rows: number; inserted: number; updated: number; unchanged: number }[],
  refused?: { file: string; errors: string[] },
): Promise<string> {
  const files: ImportFileResult[] = results.map((r) => ({
    name: r.file,
    kind: r.kind,
    rows: r.rows,
    created: r.inserted,
    updated: r.updated,
    unchanged: r.unchanged,
    errors: [],
  }));
  if (refused)
    files.push({ name: refused.file, kind: null, rows: 0, created: 0, updated: 0, unchanged: 0, errors: refused.errors.slice(0, 100) });
  const rows = results.reduce((n, r) => n + r.rows, 0);
  return insertRun(db, {
    source: 'cli',
    status: refused ? 'failed' : 'succeeded',
    files,
    rowsRead: rows,
    rowsTotal: rows,
    finished: true,
    error: refused ? 'One or more files were refused; nothing of them was written' : null,
  });
}

/** What the portal holds (the Data Synch tab): item, active item, store, category, board and inventory row counts. */
export async function catalogCounts(db: Knex): Promise<Omit<DataSummary, 'lastImports'>> {
  const {
    rows: [c],
  } = await db.raw<{ rows: Omit<DataSummary, 'lastImports'>[] }>(`SELECT
      (SELECT count(*)::int FROM items) AS items, (SELECT count(*)::int FROM items WHERE active) AS "activeItems",
      (SELECT count(*)::int FROM stores) AS stores, (SELECT count(DISTINCT category)::int FROM items) AS categories,
      (SELECT count(*)::int FROM boards) AS boards, (SELECT count(*)::int FROM inventory) AS "inventoryRows"`);
  return c;
}

/** A finished run as the Data Synch summary reads it: its files and when (ISO) it finished. */
export interface FinishedRunRow {
  status: ImportStatus;
  source: 'upload' | 'cli';
  files: ImportFileResult[];
  finishedAt: string;
}

/** The last `limit` finished (succeeded or failed) runs, newest first. */
export async function findFinishedRuns(db: Knex, limit: number): Promise<FinishedRunRow[]> {
  return db('import_runs')
    .whereIn('status', ['succeeded', 'failed'])
    .orderBy('finished_at', 'desc')
    .limit(limit)
    .select<FinishedRunRow[]>('status', 'source', 'files', db.raw(`${iso('finished_at')} AS "finishedAt"`));
}

/** Refreshes the planner's statistics of the catalog tables an import wrote (ANALYZE). */
export async function analyzeCatalog(db: Knex): Promise<void> {
  await db.raw('ANALYZE stores, bottle_sizes, items, inventory');
}
