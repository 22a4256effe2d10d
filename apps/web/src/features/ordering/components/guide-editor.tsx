import { useState } from 'react';
import { ClipboardCheck, Printer, Save, ShoppingCart, Trash2, X } from 'lucide-react';
import { AlertDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/feedback';
import { Input } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { toApiError } from '@/lib/api';
import { deleteGuide, fillCartFromGuide, updateGuide, useReloadCarts } from '../api/ordering';
import type { OrderGuide, ToCartResult } from '../api/schemas';
import { useGuideDraft } from '../hooks/use-guide-draft';
import { GuideLinesTable } from './guide-lines-table';
import { AddGuideLine, FillResultPanel, PrintableGuide } from './guide-parts';
import { StickySaveBar } from '@/components/admin/sticky-save-bar';

/** Fill mode of a guide: shelf counts per line, the POST to-cart and what it answered. */
function useFill(guideId: number, onFilled: () => unknown) {
  const [on, setOn] = useState(false);
  const [onHand, setOnHandMap] = useState<Record<string, string>>({});
  const [result, setResult] = useState<ToCartResult | null>(null);
  const [busy, setBusy] = useState(false);
  const setOnHand = (key: string, text: string) => setOnHandMap((m) => ({ ...m, [key]: text }));
  const run = async (lines: { key: string; itemCode: string }[]) => {
    setBusy(true);
    try {
      const counts = lines
        .filter((l) => (onHand[l.key] ?? '') !== '')
        .map((l) => ({ itemCode: l.itemCode, onHand: Number(onHand[l.key]) }));
      const r = await fillCartFromGuide(guideId, counts);
      setResult(r);
      notify({
        title: `${r.added.length} line${r.added.length === 1 ? '' : 's'} added to the cart`,
        description: r.skipped.length ? `${r.skipped.length} skipped — see the list.` : undefined,
        variant: 'success',
      });
      await onFilled();
    } catch (e) {
      notify({ title: 'Failed to fill the cart', description: toApiError(e).message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  const toggle = () => {
    setOn((v) => !v);
    setResult(null);
  };
  return { on, toggle, onHand, setOnHand, result, busy, run };
}

/**
 * One order guide (issue 27 §1): rename, lines with par (add, reorder by drag or keyboard, remove), save,
 * delete, print (a clean table), and "Fill cart from guide" with a shelf count per line (blank allowed); the
 * answer lists the added lines and every skipped one with its reason.
 */
export function GuideEditor({
  guide,
  storeLabel,
  onChanged,
  onDeleted,
}: {
  guide: OrderGuide;
  storeLabel: string;
  onChanged: () => unknown;
  onDeleted: () => void;
}) {
  const draft = useGuideDraft(guide);
  const reloadCarts = useReloadCarts();
  const fill = useFill(guide.id, reloadCarts);
  const [saving, setSaving] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const names = new Map(draft.lines.map((l) => [l.itemCode, l.name ?? `#${l.itemCode}`]));

  const save = async () => {
    setSaving(true);
    try {
      await updateGuide(guide.id, draft.body());
      draft.markSaved();
      notify({ title: 'Guide saved', description: draft.name, variant: 'success' });
      await onChanged();
    } catch (e) {
      notify({ title: 'Failed to save the guide', description: toApiError(e).message, variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };
  const remove = async () => {
    try {
      await deleteGuide(guide.id);
      notify({ title: 'Guide deleted', description: guide.name });
      setConfirm(false);
      onDeleted();
    } catch (e) {
      notify({ title: 'Failed to delete the guide', description: toApiError(e).message, variant: 'destructive' });
    }
  };

  return (
    <section aria-label={`Guide ${guide.name}`} className="min-w-0 space-y-4">
      <div className="space-y-3 print:hidden">
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-[12rem] flex-1">
            <label htmlFor="guide-name" className="mb-1 block text-sm font-medium text-stone-800">
              Guide name
            </label>
            <Input
              id="guide-name"
              value={draft.name}
              maxLength={100}
              aria-invalid={draft.name.trim() === '' || undefined}
              onChange={(e) => draft.rename(e.target.value)}
            />
          </div>
        </div>
        <AddGuideLine storeId={guide.storeId} onAdd={(code, name, par) => draft.add(code, name, par)} />
        {draft.lines.length === 0 ? (
          <EmptyState title="No lines yet" description="Add the items you reorder with the par you want on the shelf." />
        ) : (
          <div className="rounded-lg border border-stone-200 bg-white shadow-sm">
            <GuideLinesTable draft={draft} fill={fill.on} onHand={fill.onHand} setOnHand={fill.setOnHand} />
          </div>
        )}
        <div className="flex flex-wrap items-center gap-2">
          <Button variant={fill.on ? 'ghost' : 'secondary'} onClick={fill.toggle} disabled={draft.lines.length === 0}>
            {fill.on ? <X className="h-4 w-4" aria-hidden /> : <ClipboardCheck className="h-4 w-4" aria-hidden />}
            {fill.on ? 'Close shelf count' : 'Fill cart from guide'}
          </Button>
          {fill.on && (
            <>
              <Button onClick={() => void fill.run(draft.lines)} loading={fill.busy} disabled={draft.dirty}>
                <ShoppingCart className="h-4 w-4" aria-hidden /> Add to cart
              </Button>
              <span className="text-sm text-stone-600">
                {draft.dirty
                  ? 'Save the guide first.'
                  : 'Enter what is on the shelf (blank = none); the cart gets par − shelf, rounded to the case rule.'}
              </span>
            </>
          )}
        </div>
        {fill.result && <FillResultPanel result={fill.result} names={names} />}
      </div>
      {/* The editor's actions stay in view at the bottom, where no toast sits (toasts are at the top; issue 26 §5). */}
      <StickySaveBar status={draft.dirty ? 'Unsaved changes' : 'All changes saved'} className="mx-0 print:hidden">
        <Button variant="ghost" onClick={() => setConfirm(true)} aria-label={`Delete guide ${guide.name}`}>
          <Trash2 className="h-4 w-4" aria-hidden /> <span className="hidden sm:inline">Delete</span>
        </Button>
        <Button variant="outline" onClick={() => window.print()} aria-label="Print">
          <Printer className="h-4 w-4" aria-hidden /> <span className="hidden sm:inline">Print</span>
        </Button>
        <Button
          variant={draft.dirty ? 'primary' : 'outline'}
          onClick={() => void save()}
          loading={saving}
          disabled={!draft.dirty || draft.invalid}
        >
          <Save className="h-4 w-4" aria-hidden /> {draft.dirty ? 'Save changes' : 'Saved'}
        </Button>
      </StickySaveBar>
      <PrintableGuide title={draft.name} subtitle={storeLabel} lines={draft.lines} />
      <AlertDialog
        open={confirm}
        onOpenChange={setConfirm}
        title="Delete this guide?"
        description={`"${guide.name}" and its ${draft.lines.length} lines will be deleted for everyone at this outlet.`}
        action={
          <Button variant="destructive" onClick={() => void remove()}>
            Delete guide
          </Button>
        }
      />
    </section>
  );
}
