import { lazy, Suspense, type ReactNode } from 'react';

/**
 * sonner loads just after the first render instead of with the page (issue 15 §4): <Toaster /> is lazy, and
 * notify() waits for the same module (already there by the time anyone acts on the page).
 */
const loadSonner = () => import('sonner');
const Sonner = lazy(async () => ({ default: (await loadSonner()).Toaster }));

/**
 * Toasts (spec 000 §9): one shown at a time, 4000 ms, variants default, destructive and success.
 * Mount <Toaster /> once (app providers).
 */
export function Toaster() {
  // Bottom-right, away from the sticky header and centred dialog titles; full width at the bottom on phones.
  return (
    <Suspense fallback={null}>
      <Sonner
        visibleToasts={1}
        duration={4000}
        position="bottom-right"
        richColors
        closeButton
        offset={24}
        mobileOffset={{ bottom: 12, left: 12, right: 12 }}
        toastOptions={{ className: 'text-sm' }}
      />
    </Suspense>
  );
}

export type ToastVariant = 'default' | 'destructive' | 'success';
/** Shows a toast: title, optional description, variant and action (e.g. { label: 'View Cart', onClick }). */
export function notify({
  title,
  description,
  variant = 'default',
  action,
}: {
  title: string;
  description?: ReactNode;
  variant?: ToastVariant;
  action?: { label: string; onClick: () => void };
}): void {
  void loadSonner().then(({ toast: sonner }) => {
    sonner.dismiss();
    const opts = { description, action };
    if (variant === 'destructive') sonner.error(title, opts);
    else if (variant === 'success') sonner.success(title, opts);
    else sonner(title, opts);
  });
}
