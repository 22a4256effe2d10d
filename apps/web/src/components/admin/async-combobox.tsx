import { useEffect, useId, useState, type ReactNode } from 'react';
import * as Popover from '@radix-ui/react-popover';
import { Command } from 'cmdk';
import { Check, ChevronsUpDown, Loader2, X } from 'lucide-react';
import { Label } from '@/components/ui/field';
import { Switch } from '@/components/ui/switch';
import { cn } from '@/lib/cn';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { formatCount } from '@/lib/format';

/** One choice of an AsyncCombobox: a unique `value`, its text, a hint (code, city) and why it cannot be changed. */
export interface ComboOption {
  value: string;
  label: string;
  hint?: string;
  /** Cannot be picked or removed by this viewer (e.g. an outlet out of reach); `disabledHint` says why. */
  disabled?: boolean;
  disabledHint?: string;
}

/** A page of matches for a search: the first items and how many match in all (for "20 of 1,505"). */
export interface ComboPage {
  items: ComboOption[];
  total?: number;
}

export interface AsyncComboboxProps {
  /** Visible label of the picker (bound to its trigger button). */
  label: string;
  description?: string;
  /** What the trigger says, e.g. 'Add outlets…'. */
  placeholder: string;
  searchPlaceholder?: string;
  /** What is chosen: shown as removable chips, and ticked in the list. */
  selected: ComboOption[];
  /** Picks an option not chosen yet, or takes a chosen one away (choosing it again). */
  onToggle: (option: ComboOption, on: boolean) => void;
  /** Loads the matches of `search` from the server (paged there; the first page is shown). */
  load: (search: string, signal: AbortSignal) => Promise<ComboPage>;
  /** The "assigned only" switch's label: the list then shows only the chosen options (filtered by the search). */
  assignedOnlyLabel?: string;
  emptyText?: string;
  disabled?: boolean;
  /**
   * Render the list in a portal on <body> (default). Inside a modal Dialog pass false: the list then stays in the
   * dialog's focus trap and scroll lock.
   */
  portal?: boolean;
}

/** "Select Outlets (optional)" → "outlets": what the picker holds, for the search box's and the chips' names. */
const nounOf = (label: string) =>
  label
    .replace(/^Select\s+/i, '')
    .replace(/\s*\(.*\)$/, '')
    .toLowerCase();

const matches = (o: ComboOption, q: string) => `${o.label} ${o.hint ?? ''}`.toLowerCase().includes(q.trim().toLowerCase());

/** The server's matches for the search while the popover is open (debounced 250 ms; stale answers are dropped). */
function useMatches(open: boolean, search: string, load: AsyncComboboxProps['load']) {
  const q = useDebouncedValue(search, 250);
  const [state, setState] = useState<{ page?: ComboPage; loading: boolean; error?: string }>({ loading: false });
  useEffect(() => {
    if (!open) return;
    const ctl = new AbortController();
    setState((s) => ({ ...s, loading: true, error: undefined }));
    load(q.trim(), ctl.signal).then(
      (page) => !ctl.signal.aborted && setState({ page, loading: false }),
      (e: unknown) => !ctl.signal.aborted && setState({ loading: false, error: e instanceof Error ? e.message : 'Failed to load' }),
    );
    return () => ctl.abort();
  }, [open, q, load]);
  return state;
}

/**
 * A searchable picker for thousands of rows (issue 26 §4): a trigger opens a Radix Popover with a cmdk list fed by
 * the server's search (`load`), an optional "assigned only" switch, and the chosen rows as removable chips below.
 * Keyboard: the trigger opens with Enter/Space/↓, arrows move, Enter toggles, Escape closes and focus returns to
 * the trigger. Disabled options stay listed with their hint. `load` should be stable (useCallback).
 */
export function AsyncCombobox(props: AsyncComboboxProps) {
  const { label, description, placeholder, selected, onToggle, disabled } = props;
  const id = useId();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [assignedOnly, setAssignedOnly] = useState(false);
  const remote = useMatches(open && !assignedOnly, search, props.load);
  const chosen = new Set(selected.map((o) => o.value));
  const items = assignedOnly ? selected.filter((o) => matches(o, search)) : (remote.page?.items ?? []);
  const total = assignedOnly ? items.length : remote.page?.total;

  return (
    <div className="space-y-2">
      <Label htmlFor={`${id}-trigger`}>{label}</Label>
      {description && <p className="text-sm text-stone-500">{description}</p>}
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Trigger
          id={`${id}-trigger`}
          disabled={disabled}
          aria-haspopup="listbox"
          className="flex h-10 w-full items-center justify-between gap-2 rounded-md border border-stone-300 bg-white px-3 text-left text-sm text-stone-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-50"
        >
          <span className="truncate">{placeholder}</span>
          <span className="flex items-center gap-2 text-xs text-stone-500">
            {selected.length} selected
            <ChevronsUpDown className="h-4 w-4" aria-hidden />
          </span>
        </Popover.Trigger>
        <MaybePortal portal={props.portal ?? true}>
          <Popover.Content
            align="start"
            sideOffset={4}
            collisionPadding={8}
            className="z-50 w-[min(28rem,calc(100vw-1rem))] rounded-md border border-stone-200 bg-white p-2 shadow-lg"
          >
            <ComboList
              {...props}
              id={id}
              search={search}
              setSearch={setSearch}
              items={items}
              total={total}
              chosen={chosen}
              loading={!assignedOnly && remote.loading}
              error={assignedOnly ? undefined : remote.error}
              assignedOnly={assignedOnly}
              setAssignedOnly={setAssignedOnly}
            />
          </Popover.Content>
        </MaybePortal>
      </Popover.Root>
      <Chips label={label} selected={selected} onRemove={(o) => onToggle(o, false)} />
    </div>
  );
}

const MaybePortal = ({ portal, children }: { portal: boolean; children: ReactNode }) =>
  portal ? <Popover.Portal>{children}</Popover.Portal> : <>{children}</>;

type ListProps = AsyncComboboxProps & {
  id: string;
  search: string;
  setSearch: (s: string) => void;
  items: ComboOption[];
  total?: number;
  chosen: Set<string>;
  loading: boolean;
  error?: string;
  assignedOnly: boolean;
  setAssignedOnly: (on: boolean) => void;
};

/** The popover's body: search box, "assigned only" switch, the matches (ticked when chosen) and a count line. */
function ComboList(p: ListProps) {
  // The highlight follows the server's answers: the first enabled match once the current one is gone (so Enter
  // after typing picks what is shown, not a row of the previous answer).
  const [active, setActive] = useState('');
  const { items } = p;
  useEffect(() => {
    setActive((a) => (items.some((o) => o.value === a && !o.disabled) ? a : (items.find((o) => !o.disabled)?.value ?? '')));
  }, [items]);
  return (
    <Command shouldFilter={false} label={`Search ${nounOf(p.label)}`} loop value={active} onValueChange={setActive}>
      <Command.Input
        value={p.search}
        onValueChange={p.setSearch}
        placeholder={p.searchPlaceholder ?? 'Search…'}
        className="h-10 w-full rounded-md border border-stone-300 px-3 text-sm focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600"
      />
      {p.assignedOnlyLabel && (
        <div className="flex items-center gap-2 px-1 py-2">
          <Switch id={`${p.id}-assigned`} checked={p.assignedOnly} onCheckedChange={(c) => p.setAssignedOnly(c === true)} />
          <Label htmlFor={`${p.id}-assigned`} className="text-sm font-normal">
            {p.assignedOnlyLabel}
          </Label>
        </div>
      )}
      <Command.List className="mt-1 max-h-72 overflow-y-auto" aria-busy={p.loading}>
        {p.loading && !p.items.length && (
          <Command.Loading>
            <span className="flex items-center gap-2 px-2 py-3 text-sm text-stone-500">
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> Loading…
            </span>
          </Command.Loading>
        )}
        {p.error && (
          <p role="alert" className="px-2 py-3 text-sm text-red-700">
            {p.error}
          </p>
        )}
        {!p.loading && !p.error && !p.items.length && <p className="px-2 py-3 text-sm text-stone-500">{p.emptyText ?? 'No matches'}</p>}
        {p.items.map((o) => {
          const on = p.chosen.has(o.value);
          return (
            <Command.Item
              key={o.value}
              value={o.value}
              disabled={o.disabled}
              onSelect={() => p.onToggle(o, !on)}
              aria-checked={on}
              className="flex cursor-pointer items-start gap-2 rounded px-2 py-2 text-sm data-[disabled=true]:cursor-not-allowed data-[disabled=true]:text-stone-400 data-[selected=true]:bg-brand-50"
            >
              <Check className={cn('mt-0.5 h-4 w-4 shrink-0', on ? 'text-brand-700' : 'invisible')} aria-hidden />
              <span className="min-w-0">
                <span className="block truncate">{o.label}</span>
                {(o.hint || o.disabledHint) && (
                  <span className="block truncate text-xs text-stone-500">
                    {[o.hint, o.disabled ? o.disabledHint : undefined].filter(Boolean).join(' · ')}
                  </span>
                )}
              </span>
            </Command.Item>
          );
        })}
      </Command.List>
      <p className="border-t border-stone-100 px-2 pt-2 text-xs text-stone-500" aria-live="polite">
        {p.total !== undefined && p.total > p.items.length
          ? `Showing ${p.items.length} of ${formatCount(p.total)}: type to narrow`
          : `${p.items.length} shown`}
      </p>
    </Command>
  );
}

/** The chosen options as chips, each with its remove button (none on a disabled one, whose hint is shown). */
function Chips({ label, selected, onRemove }: { label: string; selected: ComboOption[]; onRemove: (o: ComboOption) => void }) {
  if (!selected.length) return <p className="text-sm text-stone-500">None selected</p>;
  const readOnlyHint = selected.find((o) => o.disabled && o.disabledHint)?.disabledHint;
  return (
    <>
      <ul aria-label={`Selected ${nounOf(label)}`} className="flex flex-wrap gap-2">
        {selected.map((o) => (
          <li
            key={o.value}
            title={o.disabled ? o.disabledHint : undefined}
            className={cn(
              'inline-flex max-w-full items-center gap-1 rounded-full border px-3 py-1 text-sm',
              o.disabled ? 'border-stone-200 bg-stone-50 text-stone-500' : 'border-brand-200 bg-brand-50 text-brand-900',
            )}
          >
            <span className="truncate">
              {o.label}
              {o.hint && <span className="ml-1 text-xs opacity-75">({o.hint})</span>}
              {o.disabled && <span className="ml-1 text-xs">(read-only)</span>}
            </span>
            {!o.disabled && (
              <button
                type="button"
                aria-label={`Remove ${o.label}`}
                onClick={() => onRemove(o)}
                className="-mr-1 rounded-full p-0.5 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <X className="h-3.5 w-3.5" aria-hidden />
              </button>
            )}
          </li>
        ))}
      </ul>
      {readOnlyHint && <p className="text-xs text-stone-500">(read-only): {readOnlyHint}</p>}
    </>
  );
}
