import { useEffect, useRef, useState } from 'react';
import { Minus, Plus } from 'lucide-react';
import { CART_LIMITS } from '@portal/contracts';
import { cn } from '@/lib/cn';
import { NO_RULE, stepQuantity, type QuantityRule } from '@/lib/quantity-rule';

/** Typed quantities are pushed this long after the last keystroke (spec 001 §9). */
export const QUANTITY_COMMIT_MS = 800;

/** Spec 001 §5: only '' or 1–3 digits with a value of at most 999. */
export function isAcceptedQuantityText(text: string): boolean {
  return text === '' || (/^\d{1,3}$/.test(text) && Number(text) <= CART_LIMITS.maxQuantity);
}

/**
 * The quantity box's text (spec 001 §4–5, §9): `change` accepts '' or 1–3 digits and commits 800 ms after the
 * last keystroke, `commit` now (an empty box is 0; an unchanged value restores the text), `step` by ±1 within
 * 0–999 at once. Outside changes of `quantity` show unless the person is typing (`isDirty`).
 */
function useQuantityText(quantity: number, onCommit: (quantity: number) => void, rule: QuantityRule) {
  const [text, setText] = useState(String(quantity));
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const dirty = useRef(false);
  const latest = useRef({ quantity, onCommit });
  latest.current = { quantity, onCommit };

  // The cart changed elsewhere (server answer, another tab): show it unless the user is typing.
  useEffect(() => {
    if (!dirty.current) setText(String(quantity));
  }, [quantity]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const commit = (value: string) => {
    clearTimeout(timer.current);
    dirty.current = false;
    const next = value === '' ? 0 : Number(value);
    if (next !== latest.current.quantity) latest.current.onCommit(next);
    else setText(String(latest.current.quantity));
  };

  const change = (value: string) => {
    if (!isAcceptedQuantityText(value)) return;
    setText(value);
    dirty.current = true;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => commit(value), QUANTITY_COMMIT_MS);
  };

  const step = (delta: 1 | -1) => {
    clearTimeout(timer.current);
    dirty.current = false;
    const current = text === '' ? 0 : Number(text);
    const next = Math.min(CART_LIMITS.maxQuantity, Math.max(0, stepQuantity(current, delta, rule)));
    setText(String(next));
    if (next !== quantity) onCommit(next);
  };

  return { text, change, commit, step, isDirty: () => dirty.current };
}

/**
 * Quantity stepper with a text box (spec 001 §4–5): typing keeps a local text that is committed 800 ms
 * after the last change or on blur; an empty box commits 0 (the line is removed). The minus button at
 * quantity 1 removes the line; plus stops at 999. Outside changes of `quantity` resync the text.
 */
export function QuantityInput({
  quantity,
  onCommit,
  label,
  disabled,
  className,
  rule = NO_RULE,
}: {
  quantity: number;
  /** Called with the new quantity (0 = remove). */
  onCommit: (quantity: number) => void;
  /** Accessible name, e.g. 'Quantity of Tito's Handmade Vodka'. */
  label: string;
  disabled?: boolean;
  className?: string;
  /** The product's quantity rule: the buttons step by its increment within min and max (issue 27 §3). */
  rule?: QuantityRule;
}) {
  const { text, change, commit, step, isDirty } = useQuantityText(quantity, onCommit, rule);
  const stepText = rule.increment > 1 ? ` by ${rule.increment}` : '';

  const btn =
    'flex h-9 w-9 items-center justify-center text-stone-600 hover:bg-stone-100 hover:text-stone-900 disabled:opacity-40 disabled:pointer-events-none cursor-pointer focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-600';
  return (
    <div
      className={cn('inline-flex h-9 items-stretch overflow-hidden rounded-md border border-stone-300 bg-white', className)}
      role="group"
      aria-label={label}
    >
      <button
        type="button"
        className={cn(btn, 'border-r border-stone-300')}
        onClick={() => step(-1)}
        disabled={disabled}
        aria-label={stepQuantity(quantity, -1, rule) === 0 ? 'Decrease quantity (removes the item)' : `Decrease quantity${stepText}`}
      >
        <Minus className="h-4 w-4" aria-hidden />
      </button>
      <input
        type="text"
        inputMode="numeric"
        pattern="[0-9]*"
        autoComplete="off"
        aria-label={label}
        min={0}
        max={CART_LIMITS.maxQuantity}
        maxLength={3}
        value={text}
        disabled={disabled}
        onChange={(e) => change(e.target.value)}
        onBlur={() => {
          if (isDirty()) commit(text);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit(text);
          }
        }}
        className="w-12 border-0 bg-white text-center text-sm font-medium tabular-nums text-stone-900 focus:outline-2 focus:outline-offset-[-2px] focus:outline-brand-600 disabled:bg-stone-100"
      />
      <button
        type="button"
        className={cn(btn, 'border-l border-stone-300')}
        onClick={() => step(1)}
        disabled={disabled || stepQuantity(quantity, 1, rule) <= quantity}
        aria-label={`Increase quantity${stepText}`}
      >
        <Plus className="h-4 w-4" aria-hidden />
      </button>
    </div>
  );
}
