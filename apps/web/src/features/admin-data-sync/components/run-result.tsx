import { CheckCircle2, FileWarning } from 'lucide-react';
import type { ImportRun } from '@portal/contracts';
import { DataTable, type Column } from '@/components/admin/data-table';
import { Badge } from '@/components/ui/feedback';
import { formatCount } from '@/lib/format';

/** The kinds of CSV file db:import knows, as the tab names them. */
export const KIND_LABEL: Record<string, string> = { stores: 'Stores', products: 'Items (products)', store_items: 'Store assortments' };

/** "file:line: field: reason" → its parts (a whole-file problem has no line). */
export function parseRowError(text: string): { file: string; line: string; field: string; reason: string } {
  const m = /^(.+?):(\d+): ([^:]+): (.*)$/s.exec(text);
  if (m) return { file: m[1], line: m[2], field: m[3], reason: m[4] };
  const f = /^(.+?): ([^:]+): (.*)$/s.exec(text);
  return f ? { file: f[1], line: '', field: f[2], reason: f[3] } : { file: '', line: '', field: '', reason: text };
}

/** An import run's status as a badge. */
export function StatusBadge({ status }: { status: ImportRun['status'] }) {
  return status === 'succeeded' ? (
    <Badge variant="success">Succeeded</Badge>
  ) : status === 'failed' ? (
    <Badge variant="destructive">Failed</Badge>
  ) : (
    <Badge variant="warning">{status === 'running' ? 'Running' : 'Queued'}</Badge>
  );
}

type FileResult = ImportRun['files'][number];
type RowError = ReturnType<typeof parseRowError>;
const count = (k: 'rows' | 'created' | 'updated' | 'unchanged', header: string): Column<FileResult> => ({
  header,
  cell: (f) => formatCount(f[k]),
  className: 'text-right tabular-nums',
  headerClassName: 'text-right',
});
const fileColumns: Column<FileResult>[] = [
  { header: 'File', field: 'name', className: 'font-mono text-xs' },
  { header: 'Kind', cell: (f) => (f.kind ? (KIND_LABEL[f.kind] ?? f.kind) : '—') },
  count('rows', 'Rows'),
  count('created', 'Created'),
  count('updated', 'Updated'),
  count('unchanged', 'Unchanged'),
  {
    header: 'Result',
    cell: (f) =>
      f.errors.length ? (
        <Badge variant="destructive">
          {f.errors.length} error{f.errors.length === 1 ? '' : 's'}
        </Badge>
      ) : (
        <Badge variant="success">Imported</Badge>
      ),
  },
];
const errorColumns: Column<RowError>[] = [
  { header: 'File', field: 'file', className: 'font-mono text-xs' },
  { header: 'Line', cell: (e) => e.line || '—', className: 'tabular-nums' },
  { header: 'Field', field: 'field' },
  { header: 'Reason', field: 'reason', className: 'text-red-700' },
];

/** A finished run: refused or finished, the result per file, and the row errors as a table. */
export function RunResult({ run }: { run: ImportRun }) {
  const errors = run.files.flatMap((f) => f.errors.map(parseRowError));
  return (
    <div className="space-y-3" aria-live="polite">
      <p className={`flex items-center gap-2 text-sm font-medium ${run.status === 'failed' ? 'text-red-700' : 'text-emerald-700'}`}>
        {run.status === 'failed' ? <FileWarning className="h-4 w-4" aria-hidden /> : <CheckCircle2 className="h-4 w-4" aria-hidden />}
        {run.status === 'failed' ? 'Import refused: the files with errors wrote nothing.' : 'Import finished.'}
      </p>
      <DataTable label="Import result per file" rows={run.files} columns={fileColumns} rowKey={(f) => f.name} />
      {errors.length > 0 && (
        <DataTable label="Row errors" rows={errors.map((e, i) => ({ ...e, i }))} columns={errorColumns} rowKey={(e) => e.i} />
      )}
    </div>
  );
}
