import { useState } from 'react';
import { CheckCircle2, Plus, TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import type { ToCartResult } from '../api/schemas';
import { parOf, type DraftLine } from '../hooks/use-guide-draft';
import { searchProducts } from '../api/ordering';
import { ItemCombobox } from './item-combobox';

/** Why a guide line was not put in the cart, in a person's words. */
export function skipReasonText(reason: string): string {
  if (reason === 'not_carried') return 'No longer carried at this store';
  if (reason === 'inactive') return 'No longer sold online';
  if (reason === 'nothing_needed') return 'Shelf already at par';
  return reason.replace(/_/g, ' ');
}

/** Add a line: item (autocomplete by code or name) and its par; Enter in the par adds. */
export function AddGuideLine({ storeId, onAdd }: { storeId: number; onAdd: (code: string, name: string | null, par: number) => void }) {
  const [code, setCode] = useState('');
  const [name, setName] = useState<string | null>(null);
  const [par, setPar] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ok = code.trim() !== '' && parOf(par) !== null && !busy;
  const submit = async () => {
    if (!ok) return;
    const wanted = code.trim();
    let itemName = name;
    if (!itemName) {
      // A typed code: look it up so the line shows its product, and refuse a code the store does not sell.
      setBusy(true);
      const found = await searchProducts(storeId, wanted, 5).catch(() => []);
      setBusy(false);
      itemName = found.find((p) => p.code.toLowerCase() === wanted.toLowerCase())?.name ?? null;
      if (!itemName) {
        setError(`No product with the code ${wanted} at this store`);
        document.getElementById('guide-add-code')?.focus();
        return;
      }
    }
    onAdd(wanted, itemName, parOf(par)!);
    setCode('');
    setName(null);
    setPar('');
    setError(null);
    document.getElementById('guide-add-code')?.focus();
  };
  return (
    <div className="flex flex-wrap items-end gap-2 print:hidden">
      <div className="min-w-[12rem] flex-1">
        <label htmlFor="guide-add-code" className="mb-1 block text-sm font-medium text-stone-800">
          Add item (code or name)
        </label>
        <ItemCombobox
          id="guide-add-code"
          storeId={storeId}
          value={code}
          invalid={Boolean(error)}
          aria-describedby={error ? 'guide-add-error' : undefined}
          onChange={(t) => {
            setCode(t);
            setName(null);
            setError(null);
          }}
          onPick={(p) => {
            setCode(p.code);
            setName(p.name);
            document.getElementById('guide-add-par')?.focus();
          }}
          onEnter={() => document.getElementById('guide-add-par')?.focus()}
        />
        {name && <p className="mt-1 truncate text-xs text-stone-600">{name}</p>}
        {error && (
          <p id="guide-add-error" role="alert" className="mt-1 text-xs font-medium text-red-700">
            {error}
          </p>
        )}
      </div>
      <div>
        <label htmlFor="guide-add-par" className="mb-1 block text-sm font-medium text-stone-800">
          Par (bottles)
        </label>
        <input
          id="guide-add-par"
          inputMode="numeric"
          value={par}
          maxLength={4}
          onChange={(e) => /^\d{0,4}$/.test(e.target.value) && setPar(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void submit();
            }
          }}
          className={cn(inputClass, 'h-9 w-24 text-right tabular-nums')}
        />
      </div>
      <Button variant="outline" className="h-9" onClick={() => void submit()} disabled={!ok} loading={busy}>
        <Plus className="h-4 w-4" aria-hidden /> Add line
      </Button>
    </div>
  );
}

/** What filling the cart did: lines added with their bottles, and every skipped line with its reason. */
export function FillResultPanel({ result, names }: { result: ToCartResult; names: Map<string, string> }) {
  const label = (code: string, name?: string | null) => name ?? names.get(code) ?? `#${code}`;
  return (
    <section aria-label="Fill result" className="grid gap-3 rounded-lg border border-stone-200 bg-stone-50 p-4 sm:grid-cols-2">
      <p role="status" className="sr-only">
        {result.added.length} lines added, {result.skipped.length} skipped.
      </p>
      <div>
        <h3 className="flex items-center gap-1.5 text-sm font-semibold text-emerald-800">
          <CheckCircle2 className="h-4 w-4" aria-hidden /> Added to the cart ({result.added.length})
        </h3>
        <ul className="mt-1 space-y-0.5 text-sm text-stone-800">
          {result.added.map((a) => (
            <li key={a.itemCode}>
              <span className="tabular-nums font-medium">{a.quantity}</span> × {label(a.itemCode, a.name)}
            </li>
          ))}
          {result.added.length === 0 && <li className="text-stone-500">Nothing was needed.</li>}
        </ul>
      </div>
      <div>
        <h3 className="flex items-center gap-1.5 text-sm font-semibold text-amber-900">
          <TriangleAlert className="h-4 w-4" aria-hidden /> Skipped ({result.skipped.length})
        </h3>
        <ul className="mt-1 space-y-0.5 text-sm text-stone-800">
          {result.skipped.map((s) => (
            <li key={s.itemCode}>
              {label(s.itemCode, s.name)}: <span className="font-medium">{skipReasonText(s.reason)}</span>
            </li>
          ))}
          {result.skipped.length === 0 && <li className="text-stone-500">None.</li>}
        </ul>
      </div>
    </section>
  );
}

/** The printable guide: a clean table (code, item, par, blank shelf and order columns), shown only in print. */
export function PrintableGuide({ title, subtitle, lines }: { title: string; subtitle: string; lines: DraftLine[] }) {
  return (
    <div className="hidden print:block" aria-hidden data-print-only>
      <h1 className="text-xl font-semibold">{title}</h1>
      <p className="mb-3 text-sm">{subtitle}</p>
      <table className="w-full border-collapse text-sm">
        <thead>
          <tr>
            {['#', 'Code', 'Item', 'Par', 'On shelf', 'Order'].map((h) => (
              <th key={h} className="border border-stone-400 px-2 py-1 text-left">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {lines.map((l, i) => (
            <tr key={l.key}>
              <td className="border border-stone-400 px-2 py-1">{i + 1}</td>
              <td className="border border-stone-400 px-2 py-1 font-mono">{l.itemCode}</td>
              <td className="border border-stone-400 px-2 py-1">{l.name ?? ''}</td>
              <td className="border border-stone-400 px-2 py-1 text-right">{l.par}</td>
              <td className="w-24 border border-stone-400 px-2 py-1" />
              <td className="w-24 border border-stone-400 px-2 py-1" />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
