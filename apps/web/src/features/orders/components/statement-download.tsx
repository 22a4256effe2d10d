import { useId, useState } from 'react';
import { FileText } from 'lucide-react';
import { statementMonthSchema } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api';
import { downloadStatement } from '../api/order-documents';

/** This month as yyyy-mm in the browser's calendar. */
export function currentMonth(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}

/**
 * The outlet's monthly statement (issue 28 §3) on My Orders: a month picker (yyyy-mm, up to this month) and
 * "Download statement (PDF)": every order, refund and claim credit of the month with totals.
 */
export function StatementDownload({ outletId, outletName }: { outletId: number; outletName?: string }) {
  const id = useId();
  const max = currentMonth();
  const [month, setMonth] = useState(max);
  const [busy, setBusy] = useState(false);
  const valid = statementMonthSchema.safeParse(month).success && month <= max;
  async function download() {
    setBusy(true);
    try {
      await downloadStatement(outletId, month);
    } catch (e) {
      notify({
        title: 'Statement not downloaded',
        description: e instanceof ApiError ? e.message : 'The statement could not be downloaded. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  }
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mb-6 flex flex-wrap items-end gap-3 rounded-lg border border-stone-200 bg-white p-4"
    >
      <div className="min-w-0 flex-1 basis-56">
        <h2 id={`${id}-title`} className="flex items-center gap-2 text-sm font-semibold text-stone-900">
          <FileText className="h-4 w-4 text-stone-500" aria-hidden />
          Monthly statement
        </h2>
        <p className="text-sm text-stone-500">Every order, refund and claim credit of the month{outletName ? ` for ${outletName}` : ''}.</p>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-month`}>Month</Label>
        <Input
          id={`${id}-month`}
          type="month"
          value={month}
          max={max}
          onChange={(e) => setMonth(e.target.value)}
          aria-invalid={!valid || undefined}
          className="w-44"
        />
      </div>
      <Button variant="outline" onClick={() => void download()} loading={busy} disabled={!valid}>
        {!busy && <FileText className="h-4 w-4" aria-hidden />}
        Download statement (PDF)
      </Button>
    </section>
  );
}
