import type { ReactNode } from 'react';
import { Search } from 'lucide-react';
import type { ApiError } from '@/lib/api';
import { Button } from '@/components/ui/button';
import { EmptyState, Skeleton } from '@/components/ui/feedback';
import { Input } from '@/components/ui/input';

/**
 * One admin resource on a tab (bulletproof-react's list + Table<Entry>): a section titled `title` (its h2
 * labels the section) with an actions slot, an optional toolbar (search, filters), then exactly one of
 * the error state (`errorTitle`, the problem's message and "Try again" when `onRetry` is given), the
 * loading skeleton, the `empty` state, or the children (usually a DataTable). Dialogs go in `overlays`.
 */
export function ResourcePanel({
  id,
  title,
  actions,
  toolbar,
  error,
  errorTitle,
  onRetry,
  loading,
  loadingClassName = 'h-24 w-full',
  loadingFallback,
  empty,
  isEmpty,
  overlays,
  children,
}: {
  /** Prefix of the element ids: the heading is `${id}-title`. */
  id: string;
  title: ReactNode;
  actions?: ReactNode;
  toolbar?: ReactNode;
  error?: ApiError | null;
  errorTitle: string;
  onRetry?: () => void;
  loading: boolean;
  /** Size of the loading skeleton (Tailwind classes). */
  loadingClassName?: string;
  /** Shown while loading instead of the one skeleton (e.g. skeleton rows). */
  loadingFallback?: ReactNode;
  /** What shows when the list has no rows (an EmptyState). */
  empty: ReactNode;
  isEmpty: boolean;
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
      </div>
      {toolbar}
      {error ? (
        <EmptyState
          title={errorTitle}
          description={error.message}
          action={
            onRetry && (
              <Button variant="outline" onClick={onRetry}>
                Try again
              </Button>
            )
          }
        />
      ) : loading ? (
        (loadingFallback ?? <Skeleton className={loadingClassName} />)
      ) : isEmpty ? (
        empty
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
