import type { ReactNode } from 'react';
import { Toaster as Sonner, toast as sonner } from 'sonner';

/**
 * Toasts (spec 000 §9): one shown at a time, 4000 ms, variants default, destructive and success.
 * Mount <Toaster /> once (app providers).
 */
export function Toaster() {
  // Bottom-right, away from the sticky header and centred dialog titles; full width at the bottom on phones.
  return (
    <Sonner
      visibleToasts={1} duration={4000} position="bottom-right" richColors closeButton
      offset={24} mobileOffset={{ bottom: 12, left: 12, right: 12 }}
      toastOptions={{ className: 'text-sm' }}
    />
  );
}

export type ToastVariant = 'default' | 'destructive' | 'success';
/** Shows a toast: title, optional description, variant and action (e.g. { label: 'View Cart', onClick }). */
export function notify({ title, description, variant = 'default', action }: { title: string; description?: ReactNode; variant?: ToastVariant; action?: { label: string; onClick: () => void } }) {
  sonner.dismiss();
  const opts = { description, action };
  if (variant === 'destructive') return sonner.error(title, opts);
  if (variant === 'success') return sonner.success(title, opts);
  return sonner(title, opts);
}
