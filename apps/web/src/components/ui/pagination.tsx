import { useEffect, useId, useState, type FormEvent } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './button';
import { formatCount } from '@/lib/format';

/** "Go to page" box: a number within 1..pages, applied on Enter or the Go button. */
function PageJump({ page, pages, onPage }: { page: number; pages: number; onPage: (p: number) => void }) {
  const id = useId();
  const [value, setValue] = useState(String(page));
  useEffect(() => setValue(String(page)), [page]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = Math.min(pages, Math.max(1, Math.trunc(Number(value)) || 1));
    setValue(String(n));
    if (n !== page) onPage(n);
  };
  return (
    <form onSubmit={submit} className="flex items-center gap-1">
      <label htmlFor={id} className="whitespace-nowrap">
        Go to page
      </label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={1}
        max={pages}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        className="h-8 w-16 rounded-md border border-stone-300 px-2 text-sm tabular-nums focus-visible:outline-2 focus-visible:outline-brand-600"
      />
      <Button type="submit" variant="outline" size="sm">
        Go
      </Button>
    </form>
  );
}

/**
 * "x–y of n" with previous / next buttons for server-side paged lists (`{ page, pageSize, total }`); with
 * `onPageSize` a rows-per-page select (`pageSizes`), and a "Go to page" box when there is more than one page.
 */
export function Pagination({
  page,
  pageSize,
  total,
  onPage,
  label = 'rows',
  onPageSize,
  pageSizes = [25, 50, 100],
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (p: number) => void;
  label?: string;
  onPageSize?: (n: number) => void;
  pageSizes?: readonly number[];
}) {
  const sizeId = useId();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total ? (page - 1) * pageSize + 1 : 0;
  const to = Math.min(total, page * pageSize);
  return (
    <nav className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 pt-3 text-sm text-stone-600" aria-label="Pagination">
      <span>
        {formatCount(from)}–{formatCount(to)} of {formatCount(total)} {label}
      </span>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        {onPageSize && (
          <div className="flex items-center gap-1">
            <label htmlFor={sizeId} className="whitespace-nowrap">
              Rows per page
            </label>
            <select
              id={sizeId}
              value={pageSize}
              onChange={(e) => onPageSize(Number(e.target.value))}
              className="h-8 cursor-pointer rounded-md border border-stone-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              {[...new Set([...pageSizes, pageSize])]
                .sort((a, b) => a - b)
                .map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
            </select>
          </div>
        )}
        {pages > 1 && onPageSize && <PageJump page={page} pages={pages} onPage={onPage} />}
        <div className="flex items-center gap-2">
          <Button variant="outline" size="sm" onClick={() => onPage(page - 1)} disabled={page <= 1} aria-label="Previous page">
            <ChevronLeft className="h-4 w-4" aria-hidden />
          </Button>
          <span aria-live="polite" className="whitespace-nowrap">
            Page {formatCount(page)} of {formatCount(pages)}
          </span>
          <Button variant="outline" size="sm" onClick={() => onPage(page + 1)} disabled={page >= pages} aria-label="Next page">
            <ChevronRight className="h-4 w-4" aria-hidden />
          </Button>
        </div>
      </div>
    </nav>
  );
}
