import type { ReactNode } from 'react';
import { Database } from 'lucide-react';
import type { DataSummary, ImportRun } from '@portal/contracts';
import { formatDateTime, formatCount } from '@/lib/format';
import { DataTable, type Column } from '@/components/admin/data-table';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState, Skeleton } from '@/components/ui/feedback';
import { useDataSummary, useImportRuns } from './api/imports';
import { ImportFilesCard } from './components/import-files-card';
import { KIND_LABEL, StatusBadge } from './components/run-result';

export { parseRowError } from './components/run-result';

const total = (k: 'created' | 'updated' | 'unchanged', header: string): Column<ImportRun> => ({
  header,
  cell: (r) => formatCount(r.files.reduce((n, f) => n + f[k], 0)),
  className: 'text-right tabular-nums',
  headerClassName: 'text-right',
});
const runColumns: Column<ImportRun>[] = [
  { header: 'When', cell: (r) => formatDateTime(r.createdAt), className: 'whitespace-nowrap text-xs' },
  { header: 'Source', cell: (r) => (r.source === 'cli' ? 'Command line' : (r.createdBy ?? 'Upload')) },
  { header: 'Files', cell: (r) => r.files.map((f) => f.name).join(', '), className: 'text-xs' },
  { header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
  total('created', 'Created'),
  total('updated', 'Updated'),
  total('unchanged', 'Unchanged'),
];

/**
 * A card whose body is an alert on error, a skeleton while loading (`skeleton`: one of the final content's size, so
 * nothing below moves when the data arrives), else `children(data)`.
 */
function LoadingCard<T>({
  title,
  q,
  skeleton,
  children,
}: {
  title: string;
  q: { data?: T; error?: Error };
  skeleton?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {q.error ? (
          <p role="alert" className="text-sm text-red-600">
            {q.error.message}
          </p>
        ) : !q.data ? (
          (skeleton ?? <Skeleton className="h-16 w-full" />)
        ) : (
          children(q.data)
        )}
      </CardContent>
    </Card>
  );
}

/** Holdings' shape while the summary loads: five count boxes and the three "last import" lines. */
function HoldingsSkeleton() {
  return (
    <div aria-hidden>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-5">
        {[0, 1, 2, 3, 4].map((i) => (
          <div key={i} className="rounded-md bg-stone-50 p-3">
            <Skeleton className="h-4 w-16" />
            <Skeleton className="mt-1 h-6 w-12" />
          </div>
        ))}
      </div>
      <div className="mt-3 space-y-1">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-5 w-3/4" />
        ))}
      </div>
    </div>
  );
}

function Holdings({ s }: { s: DataSummary }) {
  const counts = [
    ['Items', s.items],
    ['Available online', s.activeItems],
    ['Stores', s.stores],
    ['Inventory rows', s.inventoryRows],
    ['Categories', s.categories],
  ] as const;
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
        {counts.map(([k, v]) => (
          <div key={k} className="rounded-md bg-stone-50 p-3">
            <dt className="text-xs text-stone-500">{k}</dt>
            <dd className="text-lg font-semibold tabular-nums text-stone-900">{formatCount(v)}</dd>
          </div>
        ))}
      </dl>
      <ul className="mt-3 space-y-1 text-sm text-stone-600" aria-label="Last import per kind">
        {['stores', 'products', 'store_items'].map((k) => {
          const l = s.lastImports.find((x) => x.kind === k);
          return (
            <li key={k}>
              <span className="font-medium text-stone-800">{KIND_LABEL[k]}:</span>{' '}
              {l
                ? `${l.file}, ${formatDateTime(l.finishedAt)} (${l.source === 'cli' ? 'command line' : 'upload'}${l.status === 'failed' ? ', refused' : ''})`
                : 'no import recorded'}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/**
 * The Data Synch tab (spec 002 §2, issue 13 §6): what the portal holds (items, stores, inventory rows,
 * categories, the last import of each kind), an upload of one or more CSV files of the shapes db:import
 * knows, a progress bar (upload, then rows read of total) and the result per file with the row errors as
 * a table; the recent runs, CLI imports included.
 */
export function DataSyncTab() {
  const summary = useDataSummary();
  const runs = useImportRuns();
  return (
    <section aria-labelledby="sync-title" className="space-y-4">
      <h2 id="sync-title" className="text-lg font-semibold text-stone-900">
        Data Synch
      </h2>
      <LoadingCard title="What the portal holds" q={summary} skeleton={<HoldingsSkeleton />}>
        {(s) => <Holdings s={s} />}
      </LoadingCard>
      <ImportFilesCard
        onImported={() => {
          void summary.mutate();
          void runs.mutate();
        }}
      />
      <LoadingCard title="Recent imports" q={runs}>
        {(d) =>
          d.items.length ? (
            <DataTable label="Recent imports" rows={d.items.slice(0, 10)} columns={runColumns} rowKey={(r) => r.id} />
          ) : (
            <EmptyState icon={<Database className="h-8 w-8" />} title="No imports yet" />
          )
        }
      </LoadingCard>
    </section>
  );
}
