import { forwardRef, useEffect, useId, useState, type KeyboardEvent } from 'react';
import type { Product } from '@portal/contracts';
import { inputClass } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { perCaseText } from '@/lib/quantity-rule';
import { searchProducts } from '../api/ordering';

/** Suggestions appear 250 ms after the last keystroke, from 2 characters. */
const SEARCH_MS = 250;

/** Matches of the store's catalog for `text` while `active` (the focused box only: 200 rows stay quiet). */
function useSuggestions(storeId: number | null, text: string, active: boolean) {
  const q = useDebouncedValue(text.trim(), SEARCH_MS);
  const [items, setItems] = useState<Product[]>([]);
  useEffect(() => {
    if (!active || !storeId || q.length < 2) {
      setItems([]);
      return;
    }
    let live = true;
    searchProducts(storeId, q)
      .then((found) => live && setItems(found))
      .catch(() => live && setItems([]));
    return () => {
      live = false;
    };
  }, [storeId, q, active]);
  return items;
}

export interface ItemComboboxProps {
  id: string;
  storeId: number | null;
  value: string;
  onChange: (text: string) => void;
  /** A suggestion was chosen (click or Enter on a highlighted one). */
  onPick: (product: Product) => void;
  /** Enter with no suggestion highlighted: the caller moves on. */
  onEnter?: () => void;
  invalid?: boolean;
  className?: string;
  'aria-describedby'?: string;
}

/**
 * An item code box with autocomplete by code or name (WAI-ARIA combobox with a listbox): ↓/↑ highlight,
 * Enter picks the highlighted product (else calls onEnter), Escape closes. The label is the caller's, bound by `id`.
 */
export const ItemCombobox = forwardRef<HTMLInputElement, ItemComboboxProps>(function ItemCombobox(
  { id, storeId, value, onChange, onPick, onEnter, invalid, className, ...aria },
  ref,
) {
  const listId = useId();
  const [focused, setFocused] = useState(false);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const items = useSuggestions(storeId, value, focused && open);
  const shown = open && items.length > 0;

  const pick = (p: Product) => {
    onPick(p);
    setOpen(false);
    setActive(-1);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' && shown) {
      e.preventDefault();
      setActive((a) => Math.min(items.length - 1, a + 1));
    } else if (e.key === 'ArrowUp' && shown) {
      e.preventDefault();
      setActive((a) => Math.max(-1, a - 1));
    } else if (e.key === 'Escape' && shown) {
      e.preventDefault();
      setOpen(false);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (shown && active >= 0) pick(items[active]);
      else {
        setOpen(false);
        onEnter?.();
      }
    }
  };

  return (
    <div className={cn('relative', className)}>
      <input
        ref={ref}
        id={id}
        role="combobox"
        aria-expanded={shown}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={shown && active >= 0 ? `${listId}-${active}` : undefined}
        aria-invalid={invalid || undefined}
        autoComplete="off"
        spellCheck={false}
        className={cn(inputClass, 'h-9 font-mono')}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setFocused(true)}
        onBlur={() => {
          setFocused(false);
          setOpen(false);
        }}
        onKeyDown={onKeyDown}
        {...aria}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Matching products"
        hidden={!shown}
        className="absolute left-0 z-30 mt-1 max-h-72 w-[min(28rem,calc(100vw-2rem))] overflow-auto rounded-md border border-stone-200 bg-white py-1 shadow-lg"
      >
        {items.map((p, i) => (
          <li
            key={p.code}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => {
              e.preventDefault();
              pick(p);
            }}
            className={cn(
              'cursor-pointer px-3 py-2 text-sm',
              i === active ? 'bg-brand-50 text-brand-900' : 'text-stone-800 hover:bg-stone-50',
            )}
          >
            <span className="font-mono text-xs text-stone-500">#{p.code}</span> <span className="font-medium">{p.name}</span>
            <span className="block text-xs text-stone-500">
              {[p.bottleSize, perCaseText(p.bottlesPerCase)].filter(Boolean).join(' · ')}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
});
