import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';

/**
 * A secret shown only once (a webhook's signing secret, a new API key): read-only and selected on focus,
 * closed with Done; with `copyable` a Copy button puts it on the clipboard ("Key copied").
 */
export function ShownOnceDialog({
  value,
  onClose,
  title,
  description,
  inputId,
  inputLabel,
  copyable = false,
}: {
  value: string | null;
  onClose: () => void;
  title: string;
  description: string;
  inputId: string;
  inputLabel: string;
  copyable?: boolean;
}) {
  return (
    <Dialog
      open={!!value}
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      title={title}
      description={description}
      footer={
        <>
          {copyable && (
            <Button
              variant="outline"
              onClick={() => {
                void navigator.clipboard?.writeText(value ?? '');
                notify({ title: 'Key copied', variant: 'success' });
              }}
            >
              Copy
            </Button>
          )}
          <Button onClick={onClose}>Done</Button>
        </>
      }
    >
      <label htmlFor={inputId} className="sr-only">
        {inputLabel}
      </label>
      <Input id={inputId} readOnly value={value ?? ''} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
    </Dialog>
  );
}
