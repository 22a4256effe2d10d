import { useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import { ListPlus, ShoppingCart } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState, PageSpinner } from '@/components/ui/feedback';
import { notify } from '@/components/ui/toaster';
import { toApiError } from '@/lib/api';
import { useSelection } from '@/lib/selection';
import { addBulkLines, currentCartId, useReloadCarts } from '../api/ordering';
import { sendable, useQuickOrder } from '../hooks/use-quick-order';
import { PastePanel } from './paste-panel';
import { QuickOrderRow } from './quick-order-row';

/**
 * Quick order (issue 27 §2): a grid of item code + quantity lines (autocomplete, Enter to the next line), filled
 * by typing, pasting a list or uploading a CSV; "Add all valid lines" sends them in one POST /carts/{id}/lines/bulk
 * and shows every line's result (added, unknown code, not carried, case rule with the nearest valid quantity).
 */
export function QuickOrderPage() {
  const { outlet, store, loading } = useSelection();
  const q = useQuickOrder();
  const reloadCarts = useReloadCarts();
  const [busy, setBusy] = useState(false);
  const { lines } = q;

  const onNext = useCallback((index: number) => {
    // The next line's code box; the blank line at the end always exists.
    const next = document.querySelectorAll<HTMLInputElement>('[data-qo-grid] input[role="combobox"]')[index + 1];
    next?.focus();
  }, []);

  const addAll = async () => {
    if (!outlet || !store) return;
    const sent = lines.filter(sendable);
    if (sent.length === 0) return;
    setBusy(true);
    try {
      const cartId = await currentCartId(outlet.outletId, store.id);
      const results = await addBulkLines(
        cartId,
        sent.map((l) => ({ itemCode: l.itemCode.trim(), quantity: Number(l.quantity) })),
      );
      q.applyResults(sent, results);
      const ok = results.filter((r) => r.ok).length;
      const bad = results.length - ok;
      notify({
        title: ok ? `${ok} line${ok === 1 ? '' : 's'} added to the cart` : 'No lines added',
        description: bad ? `${bad} line${bad === 1 ? ' needs' : 's need'} attention.` : undefined,
        variant: ok ? 'success' : 'destructive',
      });
      await reloadCarts();
    } catch (e) {
      notify({ title: 'Failed to add lines', description: toApiError(e).message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  if (loading) return <PageSpinner text="Loading..." />;
  if (!outlet || !store)
    return <EmptyState title="Choose an outlet and store" description="Quick order adds to the cart of your current outlet and store." />;
  return (
    <div className="mx-auto max-w-5xl space-y-4 px-3 py-6 sm:px-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold text-stone-900">Quick order</h1>
          <p className="text-sm text-stone-600">
            Type item codes or names, or paste a list, for {outlet.outletName} at {store.name}.
          </p>
        </div>
        <Button asChild variant="outline">
          <Link to="/cart">
            <ShoppingCart className="h-4 w-4" aria-hidden /> View cart
          </Link>
        </Button>
      </header>
      <PastePanel onLines={q.append} />
      <section aria-labelledby="qo-grid-title" className="rounded-lg border border-stone-200 bg-white shadow-sm">
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-stone-200 px-3 py-3 sm:px-4">
          <h2 id="qo-grid-title" className="text-base font-semibold text-stone-900">
            Lines <span className="text-sm font-normal text-stone-500">({q.counts.filled})</span>
          </h2>
          <p role="status" className="text-sm text-stone-600">
            {q.counts.added > 0 && <span className="text-emerald-800">{q.counts.added} added. </span>}
            {q.counts.refused > 0 && <span className="text-red-800">{q.counts.refused} need attention.</span>}
          </p>
        </div>
        <div
          aria-hidden
          className="hidden grid-cols-[2.5rem_11rem_minmax(0,1fr)_6rem_2.5rem] gap-x-2 border-b border-stone-200 px-3 py-2 text-xs font-semibold uppercase tracking-wide text-stone-500 sm:grid"
        >
          <span className="text-right">#</span>
          <span>Item code</span>
          <span>Product / result</span>
          <span className="text-right">Quantity</span>
          <span />
        </div>
        <ol data-qo-grid aria-label="Quick order lines">
          {lines.map((l, i) => (
            <QuickOrderRow key={l.key} line={l} index={i} storeId={store.id} onUpdate={q.update} onRemove={q.remove} onNext={onNext} />
          ))}
        </ol>
        <div className="sticky bottom-0 flex flex-wrap items-center justify-end gap-2 border-t border-stone-200 bg-white/95 px-3 py-3 sm:px-4">
          {q.counts.added > 0 && (
            <Button variant="ghost" onClick={q.clearAdded}>
              Clear added lines
            </Button>
          )}
          {q.counts.filled > 0 && (
            <Button variant="outline" onClick={q.clearAll}>
              Start over
            </Button>
          )}
          <Button onClick={() => void addAll()} loading={busy} disabled={q.counts.sendable === 0}>
            <ListPlus className="h-4 w-4" aria-hidden /> Add all valid lines ({q.counts.sendable})
          </Button>
        </div>
      </section>
      <p className="text-xs text-stone-500">
        Tip: Enter in a quantity goes to the next line; ↓ and Enter pick a suggestion. Lines are checked against the store when you add
        them.
      </p>
    </div>
  );
}
