import type { ReactNode } from 'react';
import { Plus, Search, type LucideIcon } from 'lucide-react';
import type { ApiError } from '@/lib/api';
import { Button } from '@/components/ui/button';
import { EmptyState, Skeleton } from '@/components/ui/feedback';
import { Input } from '@/components/ui/input';

/** The part of an SWR answer for a list (`{ items }`) that a ResourcePanel reads. */
export interface ListQuery {
  data?: { items: readonly unknown[] };
  error?: ApiError | null;
  isLoading: boolean;
  mutate: () => Promise<unknown>;
}

/**
 * One admin resource on a tab (bulletproof-react's list + Table<Entry>): a section titled `title` (its h2
 * labels the section) with an actions slot (or the "+ `addLabel`" button calling `onAdd`), an optional
 * toolbar (search, filters), then, from the SWR `query` of the list (`{ items }`), exactly one of the error
 * state (`errorTitle`, the problem's message, "Try again" revalidates), the loading skeleton (while there
 * is no data yet), the `empty` state (no items), or the children (usually a DataTable). Dialogs go in `overlays`.
 */
export function ResourcePanel({
  id,
  title,
  actions,
  addLabel,
  onAdd,
  toolbar,
  query,
  errorTitle,
  loadingClassName = 'h-24 w-full',
  loadingFallback,
  empty,
  overlays,
  children,
}: {
  /** Prefix of the element ids: the heading is `${id}-title`. */
  id: string;
  title: ReactNode;
  actions?: ReactNode;
  addLabel?: string;
  onAdd?: () => void;
  toolbar?: ReactNode;
  query: ListQuery;
  errorTitle: string;
  /** Size of the loading skeleton (Tailwind classes). */
  loadingClassName?: string;
  /** Shown while loading instead of the one skeleton (e.g. skeleton rows). */
  loadingFallback?: ReactNode;
  /** The EmptyState shown when the list has no rows: its icon, title and description. */
  empty: { icon?: LucideIcon; title: string; description?: string };
  overlays?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-stone-900">
          {title}
        </h2>
        {actions}
        {addLabel && (
          <Button onClick={onAdd}>
            <Plus className="h-4 w-4" aria-hidden />
            {addLabel}
          </Button>
        )}
      </div>
      {toolbar}
      {query.error ? (
        <EmptyState
          title={errorTitle}
          description={query.error.message}
          action={
            <Button variant="outline" onClick={() => void query.mutate()}>
              Try again
            </Button>
          }
        />
      ) : query.isLoading && !query.data ? (
        (loadingFallback ?? <Skeleton className={loadingClassName} />)
      ) : !query.data?.items.length ? (
        <EmptyState icon={empty.icon && <empty.icon className="h-8 w-8" />} title={empty.title} description={empty.description} />
      ) : (
        children
      )}
      {overlays}
    </section>
  );
}

/** The search box of an admin list: a labelled search input with the magnifier icon. */
export function SearchField({
  id,
  label,
  placeholder,
  value,
  onChange,
  className = 'relative',
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-stone-400" aria-hidden />
      <Input id={id} type="search" className="pl-9" placeholder={placeholder} value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}
