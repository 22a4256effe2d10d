import { ChevronLeft, ChevronRight } from 'lucide-react';
import { cn } from '@/lib/cn';

export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

/**
 * Page numbers to show (spec 001 §2): every page when there are 5 or fewer; otherwise the first, the
 * last, the current page and its neighbours, with an ellipsis for each gap (a gap of one page shows it).
 */
export function pageItems(current: number, totalPages: number): PageItem[] {
  if (totalPages <= 5) return Array.from({ length: totalPages }, (_, i) => i + 1);
  const shown = [...new Set([1, current - 1, current, current + 1, totalPages])]
    .filter((p) => p >= 1 && p <= totalPages)
    .sort((a, b) => a - b);
  const items: PageItem[] = [];
  shown.forEach((p, i) => {
    const prev = shown[i - 1];
    if (prev !== undefined) {
      if (p - prev === 2) items.push(prev + 1);
      else if (p - prev > 2) items.push(items.length <= 1 ? 'ellipsis-start' : 'ellipsis-end');
    }
    items.push(p);
  });
  return items;
}

/** 'Showing a-b of n items' for a 1-based page. */
export function showingText(page: number, pageSize: number, total: number): string {
  if (total === 0) return 'Showing 0 of 0 items';
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return `Showing ${from}-${to} of ${total} items`;
}

const pageBtn =
  'inline-flex h-9 min-w-9 items-center justify-center rounded-md px-2 text-sm font-medium cursor-pointer transition-colors disabled:pointer-events-none disabled:opacity-40';

/** The result count and page navigation (previous, numbers with ellipses, next). */
export function Pagination({
  page,
  pageSize,
  total,
  onPageChange,
  className,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  className?: string;
}) {
  const totalPages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className={cn('flex flex-col items-center gap-3 sm:flex-row sm:justify-between', className)}>
      <p className="text-sm text-stone-600" aria-live="polite">
        {showingText(page, pageSize, total)}
      </p>
      {totalPages > 1 && (
        <nav aria-label="Pagination" className="flex items-center gap-1">
          <button
            type="button"
            className={cn(pageBtn, 'gap-1 text-stone-700 hover:bg-stone-100')}
            onClick={() => onPageChange(page - 1)}
            disabled={page <= 1}
            aria-label="Previous page"
          >
            <ChevronLeft className="h-4 w-4" aria-hidden />
            <span className="hidden sm:inline">Previous</span>
          </button>
          {pageItems(page, totalPages).map((item) =>
            typeof item === 'number' ? (
              <button
                key={item}
                type="button"
                className={cn(pageBtn, item === page ? 'bg-brand-700 text-white shadow-sm' : 'text-stone-700 hover:bg-stone-100')}
                onClick={() => onPageChange(item)}
                aria-label={`Page ${item}`}
                aria-current={item === page ? 'page' : undefined}
              >
                {item}
              </button>
            ) : (
              <span key={item} className="inline-flex h-9 w-7 items-end justify-center pb-2 text-stone-400" aria-hidden>
                …
              </span>
            ),
          )}
          <button
            type="button"
            className={cn(pageBtn, 'gap-1 text-stone-700 hover:bg-stone-100')}
            onClick={() => onPageChange(page + 1)}
            disabled={page >= totalPages}
            aria-label="Next page"
          >
            <span className="hidden sm:inline">Next</span>
            <ChevronRight className="h-4 w-4" aria-hidden />
          </button>
        </nav>
      )}
    </div>
  );
}
