import { ArrowDown, ArrowUp, GripVertical, Trash2 } from 'lucide-react';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { inputClass } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { lowStockText, normaliseRule, perCaseText, ruleText, toOrder } from '@/lib/quantity-rule';
import { parOf, type DraftLine } from '../hooks/use-guide-draft';

const iconBtn =
  'flex h-8 w-8 items-center justify-center rounded-md text-stone-500 hover:bg-stone-100 hover:text-stone-900 disabled:opacity-30 disabled:pointer-events-none cursor-pointer focus-visible:outline-2 focus-visible:outline-brand-600';

export interface GuideLineRowProps {
  line: DraftLine;
  index: number;
  count: number;
  /** Fill mode: the shelf count box and the bottles it will order. */
  fill: boolean;
  onHand: string;
  onOnHand: (key: string, text: string) => void;
  onPar: (key: string, text: string) => void;
  onMove: (from: number, to: number) => void;
  onRemove: (key: string) => void;
}

/** What a line would put in the cart for a shelf count ('' = 0), or null when the par is not a number. */
export function wouldOrder(line: DraftLine, onHand: string): number | null {
  const par = parOf(line.par);
  if (par === null) return null;
  return toOrder(par, Number(onHand) || 0, normaliseRule(line.source?.quantityRule));
}

/**
 * One guide line (issue 27 §1): drag handle (dnd-kit, pointer and keyboard), item, pack and low stock, par box,
 * in fill mode the shelf count and what will be ordered, move up/down buttons and remove.
 */
export function GuideLineRow({ line, index, count, fill, onHand, onOnHand, onPar, onMove, onRemove }: GuideLineRowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: line.key });
  const src = line.source;
  const rule = normaliseRule(src?.quantityRule);
  const order = wouldOrder(line, onHand);
  const low = lowStockText(src?.stock, order ?? parOf(line.par) ?? 0);
  const label = line.name ?? `#${line.itemCode}`;
  const notCarried = src?.carried === false;
  return (
    <tr
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={cn('border-b border-stone-100 bg-white align-top', isDragging && 'relative z-10 shadow-lg')}
    >
      <td className="py-2 pl-2">
        <button
          ref={setActivatorNodeRef}
          type="button"
          className={cn(iconBtn, 'cursor-grab')}
          aria-label={`Drag ${label}`}
          {...attributes}
          {...listeners}
        >
          <GripVertical className="h-4 w-4" aria-hidden />
        </button>
      </td>
      <td className="px-2 py-2">
        <p className="text-sm font-medium text-stone-900">{line.name ?? 'Item'}</p>
        <p className="text-xs text-stone-500">
          <span className="font-mono">#{line.itemCode}</span>
          {[perCaseText(src?.bottlesPerCase), ruleText(rule)].filter(Boolean).map((t) => (
            <span key={t}> · {t}</span>
          ))}
        </p>
        {notCarried && <p className="text-xs font-medium text-red-800">No longer carried at this store</p>}
        {low && !notCarried && <p className="text-xs font-medium text-amber-800">{low}</p>}
      </td>
      <td className="px-2 py-2">
        <label htmlFor={`par-${line.key}`} className="sr-only">
          Par for {label}
        </label>
        <input
          id={`par-${line.key}`}
          inputMode="numeric"
          value={line.par}
          maxLength={4}
          aria-invalid={parOf(line.par) === null || undefined}
          onChange={(e) => /^\d{0,4}$/.test(e.target.value) && onPar(line.key, e.target.value)}
          className={cn(inputClass, 'h-9 w-20 text-right tabular-nums')}
        />
      </td>
      {fill && (
        <>
          <td className="px-2 py-2">
            <label htmlFor={`onhand-${line.key}`} className="sr-only">
              On shelf: {label}
            </label>
            <input
              id={`onhand-${line.key}`}
              inputMode="numeric"
              value={onHand}
              maxLength={4}
              placeholder="0"
              onChange={(e) => /^\d{0,4}$/.test(e.target.value) && onOnHand(line.key, e.target.value)}
              className={cn(inputClass, 'h-9 w-20 text-right tabular-nums')}
            />
          </td>
          <td className="px-2 py-2 pt-4 text-right text-sm font-semibold tabular-nums text-stone-900">{order ?? '–'}</td>
        </>
      )}
      <td className="py-2 pr-2">
        <div className="flex justify-end gap-0.5">
          <button
            type="button"
            className={iconBtn}
            aria-label={`Move ${label} up`}
            disabled={index === 0}
            onClick={() => onMove(index, index - 1)}
          >
            <ArrowUp className="h-4 w-4" aria-hidden />
          </button>
          <button
            type="button"
            className={iconBtn}
            aria-label={`Move ${label} down`}
            disabled={index === count - 1}
            onClick={() => onMove(index, index + 1)}
          >
            <ArrowDown className="h-4 w-4" aria-hidden />
          </button>
          <button
            type="button"
            className={cn(iconBtn, 'hover:bg-red-50 hover:text-red-700')}
            aria-label={`Remove ${label}`}
            onClick={() => onRemove(line.key)}
          >
            <Trash2 className="h-4 w-4" aria-hidden />
          </button>
        </div>
      </td>
    </tr>
  );
}
