import { Trash2 } from 'lucide-react';
import type { CartLine } from '@portal/contracts';
import { ProductImage } from '@/components/ui/product-image';
import { formatMoney } from '@/lib/format';
import { CaseFacts } from '@/components/ui/case-facts';
import { caseFactsOf } from '@/lib/quantity-rule';
import { QuantityInput } from './quantity-input';

/** Bottle size name, or the volume in oz when unknown. */
function sizeText(l: CartLine) {
  if (l.bottleSize && l.bottleSize !== 'Unknown Size') return l.bottleSize;
  return l.volumeMl ? `${(l.volumeMl / 29.5735).toFixed(1)} oz` : l.bottleSize;
}

/** False when the API flags the line as no longer sold by the store (checkout refuses it). */
export function isLineAvailable(l: CartLine): boolean {
  return !('available' in l && l.available === false);
}

/** One cart line: image, name, code and size, unit price, the quantity box, the line total and remove. */
export function CartLineRow({ line, onQuantity, onRemove }: { line: CartLine; onQuantity: (q: number) => void; onRemove: () => void }) {
  return (
    <li className="grid grid-cols-[3rem_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-3 py-4 sm:grid-cols-[3.5rem_minmax(0,1fr)_auto_6rem_auto] sm:gap-x-4">
      <ProductImage category={line.category} name={line.name} className="row-span-2 h-16 w-12 self-start sm:row-span-1 sm:w-14" />
      <div className="min-w-0">
        <p className="text-sm font-semibold leading-snug text-stone-900">{line.name}</p>
        {!isLineAvailable(line) && (
          <p className="mt-0.5 inline-flex items-center gap-1 rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-800">
            No longer available
          </p>
        )}
        <p className="text-xs text-stone-500">
          <span className="sr-only">Item code </span>
          <span className="font-mono">#{line.itemCode}</span>
          <span aria-hidden> · </span>
          {sizeText(line)}
          <span aria-hidden> · </span>
          <span className="tabular-nums">{formatMoney(line.unitPrice)} each</span>
        </p>
        <CaseFacts item={line} wanted={line.quantity} className="mt-0.5" />
      </div>
      <button
        type="button"
        onClick={onRemove}
        aria-label={`Remove ${line.name}`}
        title="Remove"
        className="flex h-9 w-9 items-center justify-center justify-self-end rounded-md text-stone-500 hover:bg-red-50 hover:text-red-700 cursor-pointer sm:order-last"
      >
        <Trash2 className="h-4 w-4" aria-hidden />
      </button>
      <div className="col-span-2 flex items-center justify-between gap-3 sm:col-span-2 sm:contents">
        <QuantityInput quantity={line.quantity} onCommit={onQuantity} label={`Quantity of ${line.name}`} rule={caseFactsOf(line).rule} />
        <p className="text-right text-base font-semibold tabular-nums text-stone-900 sm:w-24">{formatMoney(line.lineTotal)}</p>
      </div>
    </li>
  );
}
