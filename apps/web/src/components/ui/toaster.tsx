import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';

/**
 * sonner loads with the first toast, not with the page (issue 15 §4, issue 26: no script work while a page loads
 * that nothing shows): <Toaster /> mounts its lazy region when notify() is first called, and notify() waits until
 * the region is there, so no toast is lost.
 */
const loadSonner = () => import('sonner');
const Sonner = lazy(async () => ({ default: (await loadSonner()).Toaster }));
/** Mounts the toast region now (set while a <Toaster /> is rendered). */
let mountToaster: (() => void) | null = null;
let regionMounted: () => void = () => undefined;
/** Resolves once a toast region has mounted and listens for toasts. */
const regionReady = new Promise<void>((ok) => {
  regionMounted = ok;
});
/** Rendered after sonner's region (same Suspense boundary): its effect runs once the region listens. */
function RegionMounted() {
  useEffect(() => regionMounted(), []);
  return null;
}

/** Pixels from the top of the viewport: below the sticky 64 px app header. */
export const TOAST_TOP_OFFSET = 72;

/**
 * Toasts (spec 000 §9): one shown at a time, 4000 ms, variants default, destructive and success.
 * Mount <Toaster /> once (app providers).
 */
export function Toaster() {
  const [on, setOn] = useState(false);
  useEffect(() => {
    const mount = () => setOn(true);
    mountToaster = mount;
    return () => {
      if (mountToaster === mount) mountToaster = null;
    };
  }, []);
  if (!on) return null;
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
      <RegionMounted />
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
  mountToaster?.();
  void Promise.all([loadSonner(), regionReady]).then(([{ toast: sonner }]) => {
    sonner.dismiss();
    const opts = { description, action, ...(duration ? { duration } : {}) };
    if (variant === 'destructive') sonner.error(title, opts);
    else if (variant === 'success') sonner.success(title, opts);
    else sonner(title, opts);
  });
}
