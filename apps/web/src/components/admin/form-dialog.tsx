import type { FormEventHandler, ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

/**
 * An admin create/edit dialog: the form `formId` as the body, Cancel and the submit button in the footer
 * (`submitLabel`, "Saving..." while `busy` unless `busyLabel` says otherwise). Closing the dialog calls `onClose`.
 */
export function FormDialog({
  title,
  description,
  formId,
  onSubmit,
  onClose,
  busy,
  submitLabel = 'Save',
  busyLabel = 'Saving...',
  formClassName = 'space-y-4',
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  formId: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  onClose: () => void;
  busy: boolean;
  submitLabel?: string;
  busyLabel?: string;
  formClassName?: string;
  children: ReactNode;
}) {
  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={busy}>
            {busy ? busyLabel : submitLabel}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className={formClassName}>
        {children}
      </form>
    </Dialog>
  );
}
