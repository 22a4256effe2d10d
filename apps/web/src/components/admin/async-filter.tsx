import { useId, useState, type KeyboardEvent } from 'react';
import { X } from 'lucide-react';
import type { z } from 'zod';
import { useApi } from '@/lib/api';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { Input } from '@/components/ui/input';

/** One choice of an AsyncFilter: its id (the filter's value) and what the list shows. */
export interface FilterChoice {
  id: string;
  label: string;
}

/**
 * A filter over thousands of places (outlets, stores): a labelled search box that asks the server
 * (`path(search)`, parsed with `schema`, mapped by `toChoices`) as one types and offers up to 8 matches in a
 * listbox (arrow keys and Enter, or a click); the chosen one shows as a chip with a clear button. `value`
 * is the chosen id ('' for none), `valueLabel` its name when known (else "#id"). Hidden when the caller
 * may not read the list (an error answer).
 */
export function AsyncFilter<S extends z.ZodTypeAny>({
  label,
  placeholder,
  value,
  valueLabel,
  onChange,
  path,
  schema,
  toChoices,
}: {
  label: string;
  placeholder: string;
  value: string;
  valueLabel?: string;
  onChange: (id: string, label: string) => void;
  path: (search: string) => string;
  schema: S;
  toChoices: (data: z.infer<S>) => FilterChoice[];
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const q = useDebouncedValue(text.trim(), 250);
  const res = useApi(q ? path(q) : null, schema, { keepPreviousData: true, shouldRetryOnError: false });
  const choices = q && res.data ? toChoices(res.data).slice(0, 8) : [];
  if (res.error) return null;
  const pick = (c: FilterChoice) => {
    onChange(c.id, c.label);
    setText('');
  };
  const onKey = (e: KeyboardEvent) => {
    if (!choices.length) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : choices.length - 1)) % choices.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      pick(choices[Math.min(active, choices.length - 1)]);
    } else if (e.key === 'Escape') setText('');
  };
  return (
    <div className="relative min-w-0">
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-stone-600">
        {label}
      </label>
      {value ? (
        <span className="inline-flex h-10 max-w-full items-center gap-1 rounded-md border border-brand-300 bg-brand-50 px-2 text-sm text-brand-900">
          <span className="truncate">{valueLabel || `#${value}`}</span>
          <button
            id={id}
            type="button"
            onClick={() => onChange('', '')}
            aria-label={`Clear ${label.toLowerCase()} filter`}
            className="rounded p-0.5 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600 cursor-pointer"
          >
            <X className="h-4 w-4" aria-hidden />
          </button>
        </span>
      ) : (
        <Input
          id={id}
          type="search"
          role="combobox"
          aria-expanded={choices.length > 0}
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={choices.length ? `${id}-opt-${Math.min(active, choices.length - 1)}` : undefined}
          placeholder={placeholder}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKey}
        />
      )}
      {!value && choices.length > 0 && (
        <ul
          id={`${id}-list`}
          role="listbox"
          aria-label={label}
          className="absolute z-20 mt-1 max-h-64 w-full min-w-[14rem] overflow-auto rounded-md border border-stone-200 bg-white py-1 shadow-lg"
        >
          {choices.map((c, i) => (
            <li
              key={c.id}
              id={`${id}-opt-${i}`}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(c);
              }}
              className={`cursor-pointer px-3 py-2 text-sm ${i === active ? 'bg-brand-50 text-brand-900' : 'text-stone-800'}`}
            >
              {c.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
