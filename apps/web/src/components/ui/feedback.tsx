import type { ReactNode } from 'react';
import { Loader2 } from 'lucide-react';
import { cn } from '@/lib/cn';

/** Inline spinner with an accessible label. */
export function Spinner({ label = 'Loading', className }: { label?: string; className?: string }) {
  return (
    <span role="status" className={cn('inline-flex items-center gap-2 text-stone-500', className)}>
      <Loader2 className="h-5 w-5 animate-spin" aria-hidden />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** Centered spinner for a whole page or panel, with optional visible text (e.g. 'Loading cart...'). */
export function PageSpinner({ text }: { text?: string }) {
  return (
    <div className="flex min-h-[40vh] flex-col items-center justify-center gap-3 text-stone-500" role="status" aria-live="polite">
      <Loader2 className="h-8 w-8 animate-spin text-brand-700" aria-hidden />
      <span className={text ? 'text-sm' : 'sr-only'}>{text ?? 'Loading'}</span>
    </div>
  );
}

/** Empty or error state: icon, title, description and an optional action. */
export function EmptyState({
  icon,
  title,
  description,
  action,
  className,
}: {
  icon?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        'flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed border-stone-300 bg-white px-6 py-12 text-center',
        className,
      )}
    >
      {icon && (
        <div className="mb-1 text-stone-400" aria-hidden>
          {icon}
        </div>
      )}
      <h2 className="text-base font-semibold text-stone-900">{title}</h2>
      {description && <p className="max-w-md text-sm text-stone-500">{description}</p>}
      {action && <div className="mt-3">{action}</div>}
    </div>
  );
}

const badgeVariants = {
  default: 'bg-stone-100 text-stone-800 border-transparent',
  success: 'bg-emerald-100 text-emerald-800 border-transparent',
  warning: 'bg-amber-100 text-amber-900 border-transparent',
  destructive: 'bg-red-100 text-red-800 border-transparent',
  outline: 'bg-white text-stone-700 border-stone-300',
} as const;
/** Status badge (spec 001 §4: reserved warning, ready success, completed outline). */
export function Badge({
  variant = 'default',
  children,
  className,
}: {
  variant?: keyof typeof badgeVariants;
  children: ReactNode;
  className?: string;
}) {
  return (
    <span
      className={cn('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-medium', badgeVariants[variant], className)}
    >
      {children}
    </span>
  );
}

export function Skeleton({ className }: { className?: string }) {
  return <div className={cn('animate-pulse rounded-md bg-stone-200', className)} aria-hidden />;
}
