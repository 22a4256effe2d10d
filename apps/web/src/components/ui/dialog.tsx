import { useRef, type ReactNode } from 'react';
import * as D from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { cn } from '@/lib/cn';

/**
 * Modal dialog on Radix (focus trapped, Escape closes, focus returns to the trigger).
 * Controlled with `open`/`onOpenChange`; `title` is required for screen readers. Without a Radix trigger,
 * focus goes back to whatever had it when the dialog opened.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  className,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
}) {
  const returnTo = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);
  // Captured while rendering the opening, before Radix moves focus into the dialog.
  if (open && !wasOpen.current && typeof document !== 'undefined') returnTo.current = document.activeElement as HTMLElement | null;
  wasOpen.current = open;
  const restoreFocus = (e: Event) => {
    const el = returnTo.current;
    if (el && el !== document.body && document.contains(el)) {
      e.preventDefault();
      el.focus();
    }
  };
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-50 bg-stone-950/50 data-[state=open]:animate-in" />
        <D.Content
          className={cn(
            // The strip under the header where toasts show (components/ui/toaster.tsx) stays free at every width, so
            // no toast covers the close button: the dialog sits a little below the middle and is at most 100dvh - 13rem.
            'fixed left-1/2 top-[calc(50%+3.5rem)] z-50 flex max-h-[calc(100dvh-13rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col rounded-lg bg-white shadow-xl focus:outline-none',
            className,
          )}
          onCloseAutoFocus={restoreFocus}
        >
          <div className="flex items-start justify-between gap-4 border-b border-stone-100 p-5">
            <div className="space-y-1">
              <D.Title className="text-lg font-semibold text-stone-900">{title}</D.Title>
              {description ? (
                <D.Description className="text-sm text-stone-500">{description}</D.Description>
              ) : (
                <D.Description className="sr-only">{title}</D.Description>
              )}
            </div>
            <D.Close className="rounded-md p-1 text-stone-500 hover:bg-stone-100 hover:text-stone-900 cursor-pointer" aria-label="Close">
              <X className="h-5 w-5" aria-hidden />
            </D.Close>
          </div>
          <div className="overflow-y-auto p-5">{children}</div>
          {footer && <div className="flex flex-wrap justify-end gap-2 border-t border-stone-100 p-4">{footer}</div>}
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}
