import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

/** A data table that scrolls sideways on narrow screens instead of breaking the layout (relative: screen-reader-only cells stay inside). */
export const Table = ({ className, ...p }: HTMLAttributes<HTMLTableElement>) => (
  <div className="relative w-full overflow-x-auto rounded-lg border border-stone-200 bg-white [contain:inline-size]">
    <table className={cn('w-full min-w-[36rem] text-left text-sm', className)} {...p} />
  </div>
);
export const Th = ({ className, ...p }: ThHTMLAttributes<HTMLTableCellElement>) => (
  <th
    scope="col"
    className={cn(
      'border-b border-stone-200 bg-stone-50 px-3 py-2 text-xs font-semibold uppercase tracking-wide text-stone-600',
      className,
    )}
    {...p}
  />
);
export const Td = ({ className, ...p }: TdHTMLAttributes<HTMLTableCellElement>) => (
  <td className={cn('border-b border-stone-100 px-3 py-2 align-middle text-stone-800', className)} {...p} />
);
