import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './button';

/** "Page x of y" with previous / next buttons for server-side paged lists (`{ page, pageSize, total }`). */
export function Pagination({
  page,
  pageSize,
  total,
  onPage,
  label = 'rows',
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (p: number) => void;
  label?: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total ? (page - 1) * pageSize + 1 : 0;
  const to = Math.min(total, page * pageSize);
  return (
    <nav className="flex flex-wrap items-center justify-between gap-2 pt-3 text-sm text-stone-600" aria-label="Pagination">
      <span>
        {from}–{to} of {total.toLocaleString('en-US')} {label}
      </span>
      <div className="flex items-center gap-2">
        <Button variant="outline" size="sm" onClick={() => onPage(page - 1)} disabled={page <= 1} aria-label="Previous page">
          <ChevronLeft className="h-4 w-4" aria-hidden />
        </Button>
        <span aria-live="polite">
          Page {page} of {pages}
        </span>
        <Button variant="outline" size="sm" onClick={() => onPage(page + 1)} disabled={page >= pages} aria-label="Next page">
          <ChevronRight className="h-4 w-4" aria-hidden />
        </Button>
      </div>
    </nav>
  );
}
