import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { cancelOrderBodySchema, type CancelOrderBody, type Order } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

/**
 * Cancel an order (issue 14 §1): the store's reason (required, ≤ 500 characters), shown to the buyer in
 * My Orders and the cancellation mail. A card payment is refunded before the order is cancelled.
 */
export function CancelOrderDialog({
  order,
  busy,
  onConfirm,
  onClose,
}: {
  order: Order | null;
  busy: boolean;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}) {
  const form = useForm<CancelOrderBody>({ resolver: zodResolver(cancelOrderBodySchema), defaultValues: { reason: '' } });
  const error = form.formState.errors.reason?.message;
  return (
    <Dialog
      open={!!order}
      onOpenChange={(o) => {
        if (!o) {
          form.reset();
          onClose();
        }
      }}
      title={`Cancel order ${order?.orderNumber ?? ''}`}
      description={
        order?.paymentMethod === 'card'
          ? 'The card payment will be refunded. The customer is told the reason.'
          : 'The customer is told the reason.'
      }
      footer={
        <>
          <Button
            variant="outline"
            onClick={() => {
              form.reset();
              onClose();
            }}
          >
            Keep order
          </Button>
          <Button variant="destructive" form="cancel-order-form" type="submit" loading={busy}>
            Cancel order
          </Button>
        </>
      }
    >
      <form id="cancel-order-form" noValidate onSubmit={form.handleSubmit((v) => onConfirm(v.reason))}>
        <Field id="cancel-reason" label="Reason" error={error}>
          <Input
            {...describedBy('cancel-reason', error)}
            {...form.register('reason')}
            maxLength={500}
            autoFocus
            placeholder="e.g. Out of stock"
          />
        </Field>
      </form>
    </Dialog>
  );
}
