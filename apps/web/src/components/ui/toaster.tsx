import { lazy, Suspense, type ReactNode } from 'react';

/**
 * sonner loads just after the first render instead of with the page (issue 15 §4): <Toaster /> is lazy, and
 * notify() waits for the same module (already there by the time anyone acts on the page).
 */
const loadSonner = () => import('sonner');
const Sonner = lazy(async () => ({ default: (await loadSonner()).Toaster }));

/** Pixels from the top of the viewport: below the sticky 64 px app header. */
export const TOAST_TOP_OFFSET = 72;

/**
 * Toasts (spec 000 §9): one shown at a time, 4000 ms, variants default, destructive and success.
 * Mount <Toaster /> once (app providers).
 */
export function Toaster() {
  // Toasts never cover an action button (issue 26 §5): forms keep their action bars at the bottom (sticky Save
  // bars, dialog footers), so toasts sit at the top, just below the 64 px header: top-right on desktops (over the
  // pages' right column, index.css), full width under the header on phones. Dialogs leave that strip free
  // (components/ui/dialog.tsx), so no toast covers their close button either.
  return (
    <Suspense fallback={null}>
      <Sonner
        visibleToasts={1}
        duration={4000}
        position="top-right"
        richColors
        closeButton
        offset={{ top: TOAST_TOP_OFFSET, right: 16 }}
        mobileOffset={{ top: TOAST_TOP_OFFSET, left: 12, right: 12 }}
        toastOptions={{ className: 'text-sm' }}
      />
    </Suspense>
  );
}

export type ToastVariant = 'default' | 'destructive' | 'success';
/** Shows a toast: title, optional description, variant, action (e.g. { label: 'View Cart', onClick }) and duration. */
export function notify({
  title,
  description,
  variant = 'default',
  action,
  duration,
}: {
  title: string;
  description?: ReactNode;
  variant?: ToastVariant;
  action?: { label: string; onClick: () => void };
  /** How long it stays, ms (default 4000; an Undo toast stays longer). */
  duration?: number;
}): void {
  void loadSonner().then(({ toast: sonner }) => {
    sonner.dismiss();
    const opts = { description, action, ...(duration ? { duration } : {}) };
    if (variant === 'destructive') sonner.error(title, opts);
    else if (variant === 'success') sonner.success(title, opts);
    else sonner(title, opts);
  });
}
