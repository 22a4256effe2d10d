import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/**
 * A form's action bar that stays in view (issue 26 §4): stuck to the bottom of the viewport while the form scrolls,
 * full width on phones, with a short status ("Unsaved changes") on the left and the actions on the right. Toasts
 * sit at the top (components/ui/toaster), so none covers it.
 */
export function StickySaveBar({ status, children, className }: { status?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <div
      role="region"
      aria-label="Save bar"
      className={cn(
        'sticky bottom-0 z-30 -mx-4 flex items-center justify-between gap-3 border-t border-stone-200 bg-white/95 px-4 py-3 shadow-[0_-4px_12px_-8px_rgba(0,0,0,0.25)] backdrop-blur sm:mx-0 sm:rounded-t-lg sm:border-x',
        className,
      )}
    >
      <p className="min-w-0 truncate text-sm text-stone-600" aria-live="polite">
        {status}
      </p>
      <div className="flex shrink-0 items-center gap-2">{children}</div>
    </div>
  );
}
