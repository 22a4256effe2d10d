import type { ReactNode } from 'react';
import * as A from '@radix-ui/react-alert-dialog';
import { cn } from '@/lib/cn';

/**
 * A confirmation dialog on Radix AlertDialog (focus trapped, starts on Cancel, Escape cancels; clicking
 * outside does not close it). `action` is the confirming button (e.g. a destructive <Button>); it is
 * rendered as is, so the caller decides whether the dialog closes (keep `open` while the action runs).
 */
export function AlertDialog({
  open,
  onOpenChange,
  title,
  description,
  cancelLabel = 'Cancel',
  action,
  className,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  cancelLabel?: string;
  action: ReactNode;
  className?: string;
}) {
  return (
    <A.Root open={open} onOpenChange={onOpenChange}>
      <A.Portal>
        <A.Overlay className="fixed inset-0 z-50 bg-stone-950/50" />
        <A.Content
          className={cn(
            'fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-5 shadow-xl focus:outline-none',
            className,
          )}
        >
          <A.Title className="text-lg font-semibold text-stone-900">{title}</A.Title>
          <A.Description asChild>
            <div className="mt-2 text-sm text-stone-600">{description}</div>
          </A.Description>
          <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <A.Cancel className="inline-flex h-10 items-center justify-center rounded-md border border-stone-300 bg-white px-4 text-sm font-medium text-stone-900 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 cursor-pointer">
              {cancelLabel}
            </A.Cancel>
            {action}
          </div>
        </A.Content>
      </A.Portal>
    </A.Root>
  );
}
