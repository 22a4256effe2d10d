import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { BookPlus, Lightbulb, ShoppingCart } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState, PageSpinner, Skeleton } from '@/components/ui/feedback';
import { inputClass } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { notify } from '@/components/ui/toaster';
import { toApiError } from '@/lib/api';
import { cn } from '@/lib/cn';
import { useSelection } from '@/lib/selection';
import { addBulkLines, currentCartId, useReloadCarts, useSuggestedOrder } from '../api/ordering';
import type { SuggestedLine } from '../api/schemas';
import { NewGuideDialog } from './order-guides-page';

/** Weeks of history the buyer can choose (default 8). */
export const WEEK_CHOICES = [4, 8, 12, 26, 52] as const;

/** The editable quantities of a suggestion: item code → text, reset when the suggestion changes. */
function useQuantities(lines: SuggestedLine[] | undefined) {
  const [q, setQ] = useState<Record<string, string>>({});
  useEffect(() => {
    setQ(Object.fromEntries((lines ?? []).map((l) => [l.itemCode, String(Math.max(0, Math.round(l.suggested)))])));
  }, [lines]);
  const chosen = (lines ?? [])
    .map((l) => ({ itemCode: l.itemCode, quantity: Number(q[l.itemCode] ?? 0) }))
    .filter((l) => Number.isInteger(l.quantity) && l.quantity > 0);
  return { q, set: (code: string, text: string) => setQ((m) => ({ ...m, [code]: text })), chosen };
}

/** One suggested line: item, basis ("≈ 6 a week over 8 weeks"), the quantity box. */
function SuggestedRow({ line, value, onChange }: { line: SuggestedLine; value: string; onChange: (t: string) => void }) {
  const id = `sug-${line.itemCode}`;
  return (
    <li className="flex items-center gap-3 border-b border-stone-100 px-3 py-2.5 sm:px-4">
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium text-stone-900">{line.name}</p>
        <p className="text-xs text-stone-500">
          <span className="font-mono">#{line.itemCode}</span> · <span>{line.basis}</span>
        </p>
      </div>
      <label htmlFor={id} className="sr-only">
        Quantity of {line.name}
      </label>
      <input
        id={id}
        inputMode="numeric"
        maxLength={3}
        value={value}
        onChange={(e) => /^\d{0,3}$/.test(e.target.value) && onChange(e.target.value)}
        className={cn(inputClass, 'h-9 w-20 text-right tabular-nums')}
      />
    </li>
  );
}

/**
 * Suggested order (issue 27 §5): for the current outlet and store, from the outlet's own past orders over the
 * chosen weeks (or the store's history for a new outlet); each line says its basis; quantities are editable;
 * "Add to cart" sends them as one bulk add, "Save as guide" makes a guide with them as pars.
 */
export function SuggestedOrderPage() {
  const { outlet, store, loading } = useSelection();
  const navigate = useNavigate();
  const [weeks, setWeeks] = useState(8);
  const sug = useSuggestedOrder(outlet?.outletId ?? null, store?.id ?? null, weeks);
  const qty = useQuantities(sug.data?.lines);
  const reloadCarts = useReloadCarts();
  const [busy, setBusy] = useState(false);
  const [saving, setSaving] = useState(false);

  const addToCart = async () => {
    if (!outlet || !store) return;
    setBusy(true);
    try {
      const results = await addBulkLines(await currentCartId(outlet.outletId, store.id), qty.chosen);
      const bad = results.filter((r) => !r.ok);
      notify({
        title: `${results.length - bad.length} line${results.length - bad.length === 1 ? '' : 's'} added to the cart`,
        description: bad.length ? bad.map((r) => `#${r.itemCode}: ${r.message ?? r.code ?? 'refused'}`).join('; ') : undefined,
        variant: bad.length ? 'destructive' : 'success',
        action: { label: 'View Cart', onClick: () => navigate('/cart') },
      });
      await reloadCarts();
    } catch (e) {
      notify({ title: 'Failed to add to the cart', description: toApiError(e).message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  if (loading) return <PageSpinner text="Loading..." />;
  if (!outlet || !store)
    return <EmptyState title="Choose an outlet and store" description="Suggestions are made for an outlet at a store." />;
  const lines = sug.data?.lines ?? [];
  return (
    <div className="mx-auto max-w-4xl space-y-4 px-3 py-6 sm:px-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold text-stone-900">Suggested order</h1>
          <p className="text-sm text-stone-600">
            {outlet.outletName} at {store.name}, from what this outlet ordered.
          </p>
        </div>
        <div>
          <label htmlFor="sug-weeks" className="mb-1 block text-sm font-medium text-stone-800">
            Based on the last
          </label>
          <Select id="sug-weeks" value={String(weeks)} onChange={(e) => setWeeks(Number(e.target.value))} className="w-40">
            {WEEK_CHOICES.map((w) => (
              <option key={w} value={w}>
                {w} weeks
              </option>
            ))}
          </Select>
        </div>
      </header>
      {sug.error ? (
        <EmptyState
          title="Failed to load the suggestion"
          description={sug.error.message}
          action={
            <Button variant="outline" onClick={() => void sug.mutate()}>
              Try again
            </Button>
          }
        />
      ) : sug.isLoading ? (
        <div className="space-y-2" aria-busy>
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-12 w-full" />
          ))}
        </div>
      ) : lines.length === 0 ? (
        <EmptyState
          icon={<Lightbulb className="h-8 w-8" />}
          title="Nothing to suggest yet"
          description="Once this outlet has orders at this store, the suggestion follows what it sells."
        />
      ) : (
        <section aria-label="Suggested lines" className="rounded-lg border border-stone-200 bg-white shadow-sm">
          <ul>
            {lines.map((l) => (
              <SuggestedRow key={l.itemCode} line={l} value={qty.q[l.itemCode] ?? ''} onChange={(t) => qty.set(l.itemCode, t)} />
            ))}
          </ul>
          <div className="flex flex-wrap items-center justify-end gap-2 px-3 py-3 sm:px-4">
            <Button variant="outline" onClick={() => setSaving(true)} disabled={qty.chosen.length === 0}>
              <BookPlus className="h-4 w-4" aria-hidden /> Save as guide
            </Button>
            <Button onClick={() => void addToCart()} loading={busy} disabled={qty.chosen.length === 0}>
              <ShoppingCart className="h-4 w-4" aria-hidden /> Add to cart ({qty.chosen.length})
            </Button>
          </div>
        </section>
      )}
      {saving && (
        <NewGuideDialog
          outletId={outlet.outletId}
          storeId={store.id}
          lines={qty.chosen.map((l) => ({ itemCode: l.itemCode, parQuantity: l.quantity }))}
          onClose={() => setSaving(false)}
          onCreated={(g) => navigate(`/order-guides?guide=${g.id}`)}
        />
      )}
    </div>
  );
}
