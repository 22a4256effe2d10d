import { useState } from 'react';
import { ADMIN_ORG_MESSAGES } from '@portal/contracts';
import { AlertDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { toApiError } from '@/lib/api';
import { bulkUpdateStores } from '../api/stores';
import { formatCount } from '@/lib/format';

type Change = 'on' | 'off' | 'charge' | 'cc' | 'minimum' | 'cutoff';
const TITLES: Record<Change, string> = {
  on: 'Turn delivery on',
  off: 'Turn delivery off',
  charge: 'Set delivery charge',
  cc: 'Set order confirmation CC emails',
  minimum: 'Set delivery minimum',
  cutoff: 'Set order cut-off',
};
/** The value field of the changes that take one: label, input mode, placeholder and hint. */
const VALUE_FIELDS: Partial<Record<Change, { label: string; mode: 'decimal' | 'email' | 'text'; placeholder: string; hint: string }>> = {
  charge: { label: 'Delivery charge ($)', mode: 'decimal', placeholder: '5.00', hint: ADMIN_ORG_MESSAGES.amountInvalid },
  cc: {
    label: 'CC emails (comma-separated)',
    mode: 'email',
    placeholder: 'orders@example.com',
    hint: 'Leave empty to remove the CC emails.',
  },
  minimum: {
    label: 'Delivery minimum (litres)',
    mode: 'decimal',
    placeholder: '9',
    hint: 'Leave empty for no minimum. Pickup never has one.',
  },
  cutoff: {
    label: 'Cut-off (store time, HH:MM)',
    mode: 'text',
    placeholder: '14:00',
    hint: 'Orders placed after it are delivered one order day later.',
  },
};

/** The PATCH body of a change (issue 26 delivery settings; issue 28 minimum and cut-off). */
function patchOf(change: Change, value: string) {
  const v = value.trim();
  if (change === 'on' || change === 'off') return { deliveryEnabled: change === 'on' };
  if (change === 'charge') return { deliveryCharge: v };
  if (change === 'cc') return { orderconfCcemails: v || null };
  if (change === 'minimum') return { deliveryMinimumMl: v ? Math.round(Number(v) * 1000) : null };
  return { cutoffLocalTime: v };
}
const plural = (n: number) => `${formatCount(n)} store${n === 1 ? '' : 's'}`;

/**
 * The Stores tab's bulk edit (ARCHITECTURE §5 "Administration at scale"): delivery on/off, delivery charge,
 * order confirmation CC emails, delivery minimum or order cut-off (issue 28 §5) for the selected stores, confirmed in a dialog that states the count; each
 * store is checked and audited as a single edit on the server, and the outcome per store is summarised
 * ("12 updated, 1 skipped: #9001 (Store not found or access denied)") and toasted.
 */
export function StoresBulkBar({
  storeIds,
  total,
  onSelectAll,
  onClear,
  onDone,
}: {
  storeIds: number[];
  total: number;
  onSelectAll: () => void;
  onClear: () => void;
  onDone: () => void;
}) {
  const [change, setChange] = useState<Change | null>(null);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [summary, setSummary] = useState<string | null>(null);
  const n = storeIds.length;
  const run = async () => {
    if (!change) return;
    setBusy(true);
    try {
      const results = await bulkUpdateStores({ storeIds, ...patchOf(change, value) });
      const skipped = results.filter((r) => !r.ok);
      const head = `${results.length - skipped.length} updated`;
      const text = skipped.length
        ? `${head}, ${skipped.length} skipped: ${skipped
            .slice(0, 5)
            .map((r) => `#${r.storeId} (${r.message ?? r.code})`)
            .join(', ')}`
        : head;
      setSummary(text);
      notify({ title: text.split(':')[0], variant: skipped.length ? 'default' : 'success' });
      setChange(null);
      setValue('');
      onDone();
    } catch (e) {
      const err = toApiError(e);
      notify({ title: 'The bulk edit failed', description: err.message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  const field = change ? VALUE_FIELDS[change] : undefined;
  return (
    <>
      {summary && (
        <div role="status" className="flex items-start justify-between gap-2 rounded-md border border-stone-200 bg-stone-50 p-3 text-sm">
          <span>{summary}</span>
          <Button variant="ghost" size="sm" onClick={() => setSummary(null)}>
            Dismiss
          </Button>
        </div>
      )}
      {n > 0 && (
        <div
          role="region"
          aria-label="Bulk actions"
          className="sticky bottom-2 z-10 flex flex-wrap items-center gap-2 rounded-lg border border-brand-200 bg-white p-3 shadow-md"
        >
          <span className="text-sm font-medium text-stone-900">{plural(n)} selected</span>
          {n < total && (
            <Button variant="link" size="sm" onClick={onSelectAll}>
              Select all {formatCount(total)} matching
            </Button>
          )}
          <Button variant="ghost" size="sm" onClick={onClear}>
            Clear
          </Button>
          <div className="flex flex-wrap gap-2 sm:ml-auto">
            {(Object.keys(TITLES) as Change[]).map((c) => (
              <Button key={c} size="sm" variant="outline" onClick={() => setChange(c)}>
                {TITLES[c]}
              </Button>
            ))}
          </div>
        </div>
      )}
      <AlertDialog
        open={change !== null}
        onOpenChange={(o) => !o && !busy && setChange(null)}
        title={change ? `${TITLES[change]} for ${plural(n)}?` : ''}
        description={
          <>
            <p>Each store is saved as if edited alone: stores you may not edit are skipped and listed.</p>
            {field && (
              <div className="mt-3 text-left">
                <Label htmlFor="stores-bulk-value">{field.label}</Label>
                <Input
                  id="stores-bulk-value"
                  value={value}
                  inputMode={field.mode}
                  placeholder={field.placeholder}
                  onChange={(e) => setValue(e.target.value)}
                  aria-describedby="stores-bulk-hint"
                />
                <p id="stores-bulk-hint" className="mt-1 text-xs text-stone-500">
                  {field.hint}
                </p>
              </div>
            )}
          </>
        }
        action={
          <Button onClick={() => void run()} loading={busy} disabled={(change === 'charge' || change === 'cutoff') && !value.trim()}>
            {change ? `Update ${plural(n)}` : ''}
          </Button>
        }
      />
    </>
  );
}
