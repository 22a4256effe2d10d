import { useEffect, useRef, useState } from 'react';
import { Upload } from 'lucide-react';
import type { ImportRun } from '@portal/contracts';
import { toApiError } from '@/lib/api';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { notify } from '@/components/ui/toaster';
import { getImportRun, uploadImport } from '../api/imports';
import { RunResult } from './run-result';
import { formatCount } from '@/lib/format';

const POLL_MS = 700;

/** Upload then follow one import run (polled every 700 ms until it succeeds or fails); `onDone` after a finished run. */
function useImportUpload(onDone: () => void) {
  const [uploadPct, setUploadPct] = useState<number | null>(null);
  const [run, setRun] = useState<ImportRun | null>(null);
  // Set on every mount, not only at creation: StrictMode (a development build, as the journeys run) unmounts
  // and mounts again once, and a ref left false would stop following the run after its first answer.
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  const start = async (files: File[]) => {
    setRun(null);
    setUploadPct(0);
    try {
      const id = await uploadImport(files, setUploadPct);
      setUploadPct(100);
      for (;;) {
        const r = await getImportRun(id);
        if (!alive.current) return;
        setRun(r);
        if (r.status === 'succeeded' || r.status === 'failed') break;
        await new Promise((ok) => setTimeout(ok, POLL_MS));
      }
      setUploadPct(null);
      onDone();
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
  return { uploadPct, run, start };
}

function ImportProgress({ run, uploadPct }: { run: ImportRun | null; uploadPct: number | null }) {
  const pct = run && run.status !== 'queued' ? run.progress.percent : (uploadPct ?? 0);
  return (
    <div className="space-y-1">
      <div className="flex justify-between text-xs text-stone-600">
        <span>
          {!run
            ? `Uploading… ${uploadPct ?? 0}%`
            : run.status === 'queued'
              ? 'Queued…'
              : `${run.status === 'running' ? 'Importing' : run.status === 'failed' ? 'Refused' : 'Done'}: ${formatCount(run.progress.rowsRead)} of ${formatCount(run.progress.rowsTotal)} rows`}
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
        <div className={`h-full transition-all ${run?.status === 'failed' ? 'bg-red-500' : 'bg-brand-700'}`} style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

/**
 * Import files (issue 13 §6): one or more CSV files of the shapes db:import knows, a progress bar (upload,
 * then rows read of total) and the result per file with the row errors; `onImported` after a finished run.
 */
export function ImportFilesCard({ onImported }: { onImported: () => void }) {
  const [files, setFiles] = useState<File[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const { uploadPct, run, start } = useImportUpload(() => {
    setFiles([]);
    if (input.current) input.current.value = '';
    onImported();
  });
  const busy = uploadPct !== null;
  return (
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
          <Button onClick={() => files.length && void start(files)} disabled={!files.length} loading={busy}>
            <Upload className="h-4 w-4" aria-hidden />
            {busy ? 'Importing...' : 'Upload and import'}
          </Button>
        </div>
        {(busy || run) && <ImportProgress run={run} uploadPct={uploadPct} />}
        {run && (run.status === 'succeeded' || run.status === 'failed') && <RunResult run={run} />}
      </CardContent>
    </Card>
  );
}
