import { useEffect, useRef, useState } from 'react';
import { CheckCircle2, Database, FileWarning, Upload } from 'lucide-react';
import { dataSummarySchema, importAcceptedSchema, importRunListSchema, importRunSchema, type ImportRun } from '@portal/contracts';
import { api, getJson, toApiError, useApi } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Badge, EmptyState, Skeleton } from '@/components/ui/feedback';
import { Table, Td, Th } from '@/components/ui/table';
import { notify } from '@/components/ui/toaster';

const KIND_LABEL: Record<string, string> = { stores: 'Stores', products: 'Items (products)', store_items: 'Store assortments' };
const POLL_MS = 700;

/** "file:line: field: reason" → its parts (a whole-file problem has no line). */
export function parseRowError(text: string): { file: string; line: string; field: string; reason: string } {
  const m = /^(.+?):(\d+): ([^:]+): (.*)$/s.exec(text);
  if (m) return { file: m[1], line: m[2], field: m[3], reason: m[4] };
  const f = /^(.+?): ([^:]+): (.*)$/s.exec(text);
  return f ? { file: f[1], line: '', field: f[2], reason: f[3] } : { file: '', line: '', field: '', reason: text };
}

/**
 * The Data Synch tab (spec 002 §2, issue 13 §6): what the portal holds (items, stores, inventory rows,
 * categories, the last import of each kind), an upload of one or more CSV files of the shapes db:import
 * knows, a progress bar (upload, then rows read of total) and the result per file with the row errors as
 * a table; the recent runs, CLI imports included.
 */
export function DataSyncTab() {
  const summary = useApi('/admin/imports/summary', dataSummarySchema);
  const runs = useApi('/admin/imports', importRunListSchema);
  const [files, setFiles] = useState<File[]>([]);
  const [uploadPct, setUploadPct] = useState<number | null>(null);
  const [run, setRun] = useState<ImportRun | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );

  const start = async () => {
    if (!files.length) return;
    setRun(null);
    setUploadPct(0);
    const form = new FormData();
    for (const f of files) form.append('files', f, f.name);
    try {
      const res = await api.post('/admin/imports', form, {
        onUploadProgress: (e) => setUploadPct(e.total ? Math.round((e.loaded / e.total) * 100) : null),
      });
      const { id } = importAcceptedSchema.parse(res.data);
      setUploadPct(100);
      for (;;) {
        const r = await getJson(`/admin/imports/${id}`, importRunSchema);
        if (!alive.current) return;
        setRun(r);
        if (r.status === 'succeeded' || r.status === 'failed') break;
        await new Promise((ok) => setTimeout(ok, POLL_MS));
      }
      setUploadPct(null);
      setFiles([]);
      if (input.current) input.current.value = '';
      void summary.mutate();
      void runs.mutate();
    } catch (e) {
      setUploadPct(null);
      notify({ title: 'Sync Error', description: toApiError(e).message, variant: 'destructive' });
    }
  };
  useEffect(() => {
    if (run?.status === 'failed')
      notify({
        title: 'Sync Failed',
        description: 'A file was refused: nothing of it was written. See the row errors below.',
        variant: 'destructive',
      });
    else if (run?.status === 'succeeded')
      notify({
        title: 'Sync complete',
        description: run.files.map((f) => `${f.name}: ${f.created} created, ${f.updated} updated, ${f.unchanged} unchanged`).join('; '),
        variant: 'success',
      });
  }, [run?.status]); // eslint-disable-line react-hooks/exhaustive-deps

  const busy = uploadPct !== null;
  const pct = run && run.status !== 'queued' ? run.progress.percent : (uploadPct ?? 0);
  const s = summary.data;
  return (
    <section aria-labelledby="sync-title" className="space-y-4">
      <h2 id="sync-title" className="text-lg font-semibold text-stone-900">
        Data Synch
      </h2>
      <Card>
        <CardHeader>
          <CardTitle>What the portal holds</CardTitle>
        </CardHeader>
        <CardContent>
          {summary.error ? (
            <p role="alert" className="text-sm text-red-600">
              {summary.error.message}
            </p>
          ) : !s ? (
            <Skeleton className="h-16 w-full" />
          ) : (
            <>
              <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
                {(
                  [
                    ['Items', s.items],
                    ['Available online', s.activeItems],
                    ['Stores', s.stores],
                    ['Inventory rows', s.inventoryRows],
                    ['Categories', s.categories],
                  ] as const
                ).map(([k, v]) => (
                  <div key={k} className="rounded-md bg-stone-50 p-3">
                    <dt className="text-xs text-stone-500">{k}</dt>
                    <dd className="text-lg font-semibold tabular-nums text-stone-900">{v.toLocaleString('en-US')}</dd>
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
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Import files</CardTitle>
          <CardDescription>
            CSV files shaped like stores.csv, products.csv or store_items_2022.csv (the kind is read from the header). Each file is all or
            nothing; importing the same file again changes nothing.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
            <label htmlFor="sync-files" className="sr-only">
              CSV files to import
            </label>
            <input
              id="sync-files"
              ref={input}
              type="file"
              accept=".csv,.gz,text/csv"
              multiple
              disabled={busy}
              className="block w-full text-sm text-stone-700 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-stone-100 file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-stone-200 focus-visible:outline-2 focus-visible:outline-brand-600"
              onChange={(e) => setFiles(Array.from(e.target.files ?? []))}
            />
            <Button onClick={() => void start()} disabled={!files.length} loading={busy}>
              <Upload className="h-4 w-4" aria-hidden />
              {busy ? 'Importing...' : 'Upload and import'}
            </Button>
          </div>
          {(busy || run) && (
            <div className="space-y-1">
              <div className="flex justify-between text-xs text-stone-600">
                <span>
                  {!run
                    ? `Uploading… ${uploadPct ?? 0}%`
                    : run.status === 'queued'
                      ? 'Queued…'
                      : `${run.status === 'running' ? 'Importing' : run.status === 'failed' ? 'Refused' : 'Done'}: ${run.progress.rowsRead.toLocaleString('en-US')} of ${run.progress.rowsTotal.toLocaleString('en-US')} rows`}
                </span>
                <span>{pct}%</span>
              </div>
              <div
                role="progressbar"
                aria-label="Import progress"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={pct}
                className="h-2 overflow-hidden rounded-full bg-stone-200"
              >
                <div
                  className={`h-full transition-all ${run?.status === 'failed' ? 'bg-red-500' : 'bg-brand-700'}`}
                  style={{ width: `${pct}%` }}
                />
              </div>
            </div>
          )}
          {run && (run.status === 'succeeded' || run.status === 'failed') && <RunResult run={run} />}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Recent imports</CardTitle>
        </CardHeader>
        <CardContent>
          {runs.error ? (
            <p role="alert" className="text-sm text-red-600">
              {runs.error.message}
            </p>
          ) : !runs.data ? (
            <Skeleton className="h-16 w-full" />
          ) : !runs.data.items.length ? (
            <EmptyState icon={<Database className="h-8 w-8" />} title="No imports yet" />
          ) : (
            <Table aria-label="Recent imports">
              <thead>
                <tr>
                  <Th>When</Th>
                  <Th>Source</Th>
                  <Th>Files</Th>
                  <Th>Status</Th>
                  <Th className="text-right">Created</Th>
                  <Th className="text-right">Updated</Th>
                  <Th className="text-right">Unchanged</Th>
                </tr>
              </thead>
              <tbody>
                {runs.data.items.slice(0, 10).map((r) => (
                  <tr key={r.id}>
                    <Td className="whitespace-nowrap text-xs">{formatDateTime(r.createdAt)}</Td>
                    <Td>{r.source === 'cli' ? 'Command line' : (r.createdBy ?? 'Upload')}</Td>
                    <Td className="text-xs">{r.files.map((f) => f.name).join(', ')}</Td>
                    <Td>
                      <StatusBadge status={r.status} />
                    </Td>
                    {(['created', 'updated', 'unchanged'] as const).map((k) => (
                      <Td key={k} className="text-right tabular-nums">
                        {r.files.reduce((n, f) => n + f[k], 0).toLocaleString('en-US')}
                      </Td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </CardContent>
      </Card>
    </section>
  );
}

function StatusBadge({ status }: { status: ImportRun['status'] }) {
  return status === 'succeeded' ? (
    <Badge variant="success">Succeeded</Badge>
  ) : status === 'failed' ? (
    <Badge variant="destructive">Failed</Badge>
  ) : (
    <Badge variant="warning">{status === 'running' ? 'Running' : 'Queued'}</Badge>
  );
}

function RunResult({ run }: { run: ImportRun }) {
  const errors = run.files.flatMap((f) => f.errors.map(parseRowError));
  return (
    <div className="space-y-3" aria-live="polite">
      <p className={`flex items-center gap-2 text-sm font-medium ${run.status === 'failed' ? 'text-red-700' : 'text-emerald-700'}`}>
        {run.status === 'failed' ? <FileWarning className="h-4 w-4" aria-hidden /> : <CheckCircle2 className="h-4 w-4" aria-hidden />}
        {run.status === 'failed' ? 'Import refused: the files with errors wrote nothing.' : 'Import finished.'}
      </p>
      <Table aria-label="Import result per file">
        <thead>
          <tr>
            <Th>File</Th>
            <Th>Kind</Th>
            <Th className="text-right">Rows</Th>
            <Th className="text-right">Created</Th>
            <Th className="text-right">Updated</Th>
            <Th className="text-right">Unchanged</Th>
            <Th>Result</Th>
          </tr>
        </thead>
        <tbody>
          {run.files.map((f) => (
            <tr key={f.name}>
              <Td className="font-mono text-xs">{f.name}</Td>
              <Td>{f.kind ? (KIND_LABEL[f.kind] ?? f.kind) : '—'}</Td>
              {(['rows', 'created', 'updated', 'unchanged'] as const).map((k) => (
                <Td key={k} className="text-right tabular-nums">
                  {f[k].toLocaleString('en-US')}
                </Td>
              ))}
              <Td>
                {f.errors.length ? (
                  <Badge variant="destructive">
                    {f.errors.length} error{f.errors.length === 1 ? '' : 's'}
                  </Badge>
                ) : (
                  <Badge variant="success">Imported</Badge>
                )}
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      {errors.length > 0 && (
        <Table aria-label="Row errors">
          <thead>
            <tr>
              <Th>File</Th>
              <Th>Line</Th>
              <Th>Field</Th>
              <Th>Reason</Th>
            </tr>
          </thead>
          <tbody>
            {errors.map((e, i) => (
              <tr key={i}>
                <Td className="font-mono text-xs">{e.file}</Td>
                <Td className="tabular-nums">{e.line || '—'}</Td>
                <Td>{e.field}</Td>
                <Td className="text-red-700">{e.reason}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}
