import { memo } from 'react';
import { CheckCircle2, Trash2, TriangleAlert } from 'lucide-react';
import type { Product } from '@portal/contracts';
import { inputClass } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import type { QuickLine } from '../hooks/use-quick-order';
import { ItemCombobox } from './item-combobox';

export interface QuickRowProps {
  line: QuickLine;
  index: number;
  storeId: number | null;
  onUpdate: (key: number, patch: Partial<QuickLine>) => void;
  onRemove: (key: number) => void;
  /** Enter in the row's last box: focus the next line's code. */
  onNext: (index: number) => void;
}

/** Ids of a line's boxes, so the page can move the focus between lines. */
export const codeId = (key: number) => `qo-code-${key}`;
export const qtyId = (key: number) => `qo-qty-${key}`;

/**
 * One quick order line: code (autocomplete), product, quantity, its result (added, or the refusal with the
 * nearest valid quantity to take), remove. Memoised: typing in one line re-renders only that line.
 */
export const QuickOrderRow = memo(function QuickOrderRow({ line, index, storeId, onUpdate, onRemove, onNext }: QuickRowProps) {
  const msgId = `qo-msg-${line.key}`;
  const refused = line.status === 'refused';
  const focusQty = () => document.getElementById(qtyId(line.key))?.focus();
  return (
    <li
      className={cn(
        'grid grid-cols-[2rem_minmax(0,1fr)_5.5rem_2.5rem] items-start gap-x-2 gap-y-1 border-b border-stone-100 px-2 py-2 sm:grid-cols-[2.5rem_11rem_minmax(0,1fr)_6rem_2.5rem] sm:px-3',
        refused && 'bg-red-50/60',
        line.status === 'added' && 'bg-emerald-50/60',
      )}
    >
      <span className="pt-2 text-right text-xs tabular-nums text-stone-500" aria-hidden>
        {index + 1}
      </span>
      <div>
        <label htmlFor={codeId(line.key)} className="mb-0.5 block text-xs font-medium text-stone-600 sm:sr-only">
          Item code<span className="sr-only">, line {index + 1}</span>
        </label>
        <ItemCombobox
          id={codeId(line.key)}
          storeId={storeId}
          value={line.itemCode}
          invalid={refused}
          aria-describedby={line.message ? msgId : undefined}
          onChange={(text) => onUpdate(line.key, { itemCode: text, name: null })}
          onPick={(p: Product) => {
            onUpdate(line.key, { itemCode: p.code, name: p.name });
            focusQty();
          }}
          onEnter={focusQty}
        />
      </div>
      <div className="col-span-4 col-start-2 row-start-2 min-w-0 text-sm sm:col-span-1 sm:col-start-3 sm:row-start-1 sm:pt-2">
        {line.name && <p className="truncate font-medium text-stone-900">{line.name}</p>}
        {line.status === 'added' && (
          <p className="flex items-center gap-1 text-xs font-medium text-emerald-800">
            <CheckCircle2 className="h-3.5 w-3.5" aria-hidden /> Added to cart
          </p>
        )}
        {line.message && (
          <p id={msgId} className="flex flex-wrap items-center gap-x-2 text-xs font-medium text-red-800">
            <TriangleAlert className="h-3.5 w-3.5" aria-hidden />
            {line.message}
            {line.nearestValid != null && (
              <button
                type="button"
                className="rounded px-1 text-brand-800 underline underline-offset-2 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600 cursor-pointer"
                onClick={() => onUpdate(line.key, { quantity: String(line.nearestValid) })}
              >
                Use {line.nearestValid}
              </button>
            )}
          </p>
        )}
      </div>
      <div>
        <label htmlFor={qtyId(line.key)} className="mb-0.5 block text-xs font-medium text-stone-600 sm:sr-only">
          Quantity<span className="sr-only">, line {index + 1}</span>
        </label>
        <input
          id={qtyId(line.key)}
          inputMode="numeric"
          autoComplete="off"
          maxLength={3}
          value={line.quantity}
          aria-invalid={refused || undefined}
          onChange={(e) => /^\d{0,3}$/.test(e.target.value) && onUpdate(line.key, { quantity: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              onNext(index);
            }
          }}
          className={cn(inputClass, 'h-9 text-right tabular-nums')}
        />
      </div>
      <button
        type="button"
        onClick={() => onRemove(line.key)}
        aria-label={`Remove line ${index + 1}`}
        disabled={line.itemCode === '' && line.quantity === ''}
        className="mt-[1.125rem] flex h-9 w-9 items-center justify-center rounded-md text-stone-500 hover:bg-red-50 hover:text-red-700 disabled:invisible cursor-pointer focus-visible:outline-2 focus-visible:outline-brand-600 sm:mt-0"
      >
        <Trash2 className="h-4 w-4" aria-hidden />
      </button>
    </li>
  );
});
