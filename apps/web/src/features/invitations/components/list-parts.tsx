import type { ReactNode } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState, Skeleton } from '@/components/ui/feedback';
import { cn } from '@/lib/cn';

/** A row of filter buttons (aria-pressed), e.g. Pending / Approved / Rejected / All. */
export function FilterButtons<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (v: T) => void;
}) {
  return (
    <div role="group" aria-label={label} className="inline-flex flex-wrap gap-1 rounded-lg bg-stone-100 p-1">
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          aria-pressed={value === o.value}
          onClick={() => onChange(o.value)}
          className={cn(
            'rounded-md px-3 py-1.5 text-sm font-medium text-stone-600 cursor-pointer hover:text-stone-900',
            'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600',
            value === o.value && 'bg-white text-stone-900 shadow-sm',
          )}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

/** Server-side pagination: "Page N of M" with previous / next buttons (hidden with a single page). */
export function Pager({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (p: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav aria-label="Pagination" className="flex items-center justify-between gap-2 pt-2 text-sm text-stone-600">
      <Button type="button" variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <ChevronLeft className="h-4 w-4" aria-hidden />
        Previous
      </Button>
      <span aria-live="polite">
        Page {page} of {pages}
      </span>
      <Button type="button" variant="outline" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
        <ChevronRight className="h-4 w-4" aria-hidden />
      </Button>
    </nav>
  );
}

/** A list item card with a title line, details and actions that wrap under the text on phones. */
export function ListCard({
  title,
  badge,
  children,
  actions,
}: {
  title: ReactNode;
  badge?: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="break-words font-medium text-stone-900">{title}</span>
          {badge}
        </div>
        <div className="space-y-0.5 text-sm text-stone-600">{children}</div>
      </div>
      {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
    </li>
  );
}

/**
 * A list's loading and error states: three skeletons (a status named `loadingLabel`) while the first page loads,
 * then a load error as `errorTitle` with its message and Try again; null when the list has loaded.
 */
export function listState({
  loading,
  error,
  loadingLabel,
  errorTitle,
  onRetry,
}: {
  loading: boolean;
  error: { message: string } | undefined;
  loadingLabel: string;
  errorTitle: string;
  onRetry: () => void;
}): ReactNode | null {
  if (loading) {
    return (
      <div className="space-y-2" role="status" aria-label={loadingLabel}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-20 w-full" />
        ))}
      </div>
    );
  }
  if (error) {
    return (
      <EmptyState
        title={errorTitle}
        description={error.message}
        action={
          <Button type="button" variant="outline" onClick={onRetry}>
            Try again
          </Button>
        }
      />
    );
  }
  return null;
}
