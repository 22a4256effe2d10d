import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { CheckCircle2, XCircle } from 'lucide-react';
import { BULK_INVITE_TEMPLATE, type BulkInviteResult } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Label } from '@/components/ui/field';
import { notify } from '@/components/ui/toaster';
import { toApiError } from '@/lib/api';
import { inviteFromCsv } from '../api/invitations';

/** How many accepted rows are listed by name (the problems are always all listed). */
const OK_SHOWN = 50;
const TEMPLATE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(`${BULK_INVITE_TEMPLATE}ann@example.com,Ann,Lee,outlet_buyer,DEMO-DSM-01;DEMO-AMS-01\n`)}`;

/** A chosen file's text (FileReader: every browser the portal supports). */
const readText = (file: File) =>
  new Promise<string>((ok, ko) => {
    const r = new FileReader();
    r.onload = () => ok(String(r.result ?? ''));
    r.onerror = () => ko(r.error);
    r.readAsText(file);
  });

type Step = { kind: 'input' } | { kind: 'checked'; result: BulkInviteResult } | { kind: 'sent'; result: BulkInviteResult };

/**
 * Invite from CSV (issue 26 §3): a file or pasted rows (header email, first name, last name, role code, outlet codes
 * or store numbers), checked first by a dry run that lists each row's outcome by line number, then "Send N
 * invitations" sends the valid rows and lists what happened; a toast says how many went out.
 */
export function InviteCsvDialog({
  open,
  onOpenChange,
  onInvited,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  onInvited?: () => void;
}) {
  const { mutate } = useSWRConfig();
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'input' });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const close = (o: boolean) => {
    if (busy) return;
    if (!o) {
      setCsv('');
      setFileName(null);
      setStep({ kind: 'input' });
      setProblem(null);
    }
    onOpenChange(o);
  };
  const run = async (dryRun: boolean) => {
    setBusy(true);
    setProblem(null);
    try {
      const result = await inviteFromCsv(csv, dryRun);
      setStep({ kind: dryRun ? 'checked' : 'sent', result });
      if (!dryRun) {
        notify({
          title: 'Invitations sent',
          description: `${result.okCount} of ${result.results.length} invitations sent${result.failedCount ? `; ${result.failedCount} refused` : ''}.`,
          variant: result.okCount ? 'success' : 'destructive',
        });
        onInvited?.();
        void mutate((key) => typeof key === 'string' && key.startsWith('/admin/invitations'));
      }
    } catch (e) {
      setProblem(toApiError(e).message);
    } finally {
      setBusy(false);
    }
  };
  const ready = step.kind === 'checked' ? step.result.okCount : 0;
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Invite from CSV"
      className="max-w-2xl"
      description="One person per row. Check the file first: nothing is sent until you confirm."
      footer={
        step.kind === 'input' ? (
          <>
            <Button variant="outline" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button onClick={() => void run(true)} loading={busy} disabled={!csv.trim()}>
              {busy ? 'Checking...' : 'Check file'}
            </Button>
          </>
        ) : step.kind === 'checked' ? (
          <>
            <Button variant="outline" onClick={() => setStep({ kind: 'input' })} disabled={busy}>
              Back
            </Button>
            <Button onClick={() => void run(false)} loading={busy} disabled={!ready}>
              {busy ? 'Sending...' : `Send ${ready} invitation${ready === 1 ? '' : 's'}`}
            </Button>
          </>
        ) : (
          <Button onClick={() => close(false)}>Done</Button>
        )
      }
    >
      {step.kind === 'input' ? (
        <CsvInput csv={csv} setCsv={setCsv} fileName={fileName} setFileName={setFileName} />
      ) : (
        <RowResults result={step.result} sent={step.kind === 'sent'} />
      )}
      {problem && (
        <p role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {problem}
        </p>
      )}
    </Dialog>
  );
}

/** The file picker, the paste box (either fills the CSV) and the expected header with a template to download. */
function CsvInput({
  csv,
  setCsv,
  fileName,
  setFileName,
}: {
  csv: string;
  setCsv: (s: string) => void;
  fileName: string | null;
  setFileName: (s: string | null) => void;
}) {
  return (
    <div className="space-y-4">
      <p className="text-sm text-stone-600">
        Columns: <code className="rounded bg-stone-100 px-1">{BULK_INVITE_TEMPLATE.trim()}</code> — outlet codes separated by &quot;;&quot;,
        or a <code className="rounded bg-stone-100 px-1">store numbers</code> column for store roles.{' '}
        <a href={TEMPLATE_HREF} download="invitations.csv" className="font-medium text-brand-700 underline underline-offset-2">
          Download a template
        </a>
      </p>
      <div className="space-y-1.5">
        <Label htmlFor="invite-csv-file">CSV file</Label>
        <input
          id="invite-csv-file"
          type="file"
          accept=".csv,text/csv"
          className="block w-full text-sm text-stone-700 file:mr-3 file:rounded-md file:border file:border-stone-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium focus-visible:outline-2 focus-visible:outline-brand-600"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            setFileName(file.name);
            setCsv(await readText(file));
          }}
        />
        {fileName && <p className="text-xs text-stone-500">Read {fileName}</p>}
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="invite-csv-text">Or paste the rows</Label>
        <textarea
          id="invite-csv-text"
          rows={6}
          value={csv}
          onChange={(e) => setCsv(e.target.value)}
          placeholder={BULK_INVITE_TEMPLATE}
          className="block w-full rounded-md border border-stone-300 px-3 py-2 font-mono text-xs focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600"
        />
      </div>
    </div>
  );
}

/** Each row's outcome: the refused ones by line with their message, then the accepted ones (the first 50 by email). */
function RowResults({ result, sent }: { result: BulkInviteResult; sent: boolean }) {
  const bad = result.results.filter((r) => !r.ok);
  const good = result.results.filter((r) => r.ok);
  return (
    <div className="space-y-4">
      <p className="text-sm font-medium text-stone-900" aria-live="polite">
        {sent
          ? `${result.okCount} invitation${result.okCount === 1 ? '' : 's'} sent, ${result.failedCount} refused.`
          : `${result.okCount} row${result.okCount === 1 ? '' : 's'} ready to send, ${result.failedCount} with problems.`}
      </p>
      {bad.length > 0 && (
        <ul aria-label="Rows with problems" className="divide-y divide-red-100 rounded-md border border-red-200">
          {bad.map((r) => (
            <li key={r.row} className="flex items-start gap-2 px-3 py-2 text-sm">
              <XCircle className="mt-0.5 h-4 w-4 shrink-0 text-red-600" aria-hidden />
              <span className="min-w-0">
                <span className="font-medium">Line {r.row}</span>
                {r.email && <span className="break-all text-stone-600"> · {r.email}</span>}
                <span className="block text-red-800">{r.message}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
      {good.length > 0 && (
        <ul aria-label={sent ? 'Invitations sent' : 'Rows ready'} className="divide-y divide-stone-100 rounded-md border border-stone-200">
          {good.slice(0, OK_SHOWN).map((r) => (
            <li key={r.row} className="flex items-center gap-2 px-3 py-1.5 text-sm">
              <CheckCircle2 className="h-4 w-4 shrink-0 text-green-600" aria-hidden />
              <span className="font-medium">Line {r.row}</span>
              <span className="min-w-0 break-all text-stone-600">{r.email}</span>
            </li>
          ))}
          {good.length > OK_SHOWN && <li className="px-3 py-1.5 text-sm text-stone-500">and {good.length - OK_SHOWN} more</li>}
        </ul>
      )}
    </div>
  );
}
