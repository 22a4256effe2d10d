import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { ORDER_EVENT_TYPES, createWebhookBodySchema } from '@portal/contracts';
import { toApiError } from '@/lib/api';
import { CheckboxFieldset } from '@/components/admin/checkbox-fieldset';
import { FormDialog } from '@/components/admin/form-dialog';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { createWebhook } from '../api/webhooks';

/** Register a webhook endpoint (URL, store number, event types; contracts' createWebhookBodySchema); `onCreated` gets the signing secret. */
export function CreateWebhookDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (secret: string) => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof createWebhookBodySchema>, unknown, z.output<typeof createWebhookBodySchema>>({
    resolver: zodResolver(createWebhookBodySchema),
    defaultValues: { url: '', storeId: undefined, events: [...ORDER_EVENT_TYPES] },
  });
  const submit = handleSubmit(async (body) => {
    try {
      const secret = await createWebhook(body);
      notify({ title: 'Webhook registered', description: body.url, variant: 'success' });
      onCreated(secret);
    } catch (e) {
      notify({ title: 'Failed to register the webhook', description: toApiError(e).message, variant: 'destructive' });
    }
  });
  return (
    <FormDialog
      title="Add webhook"
      formId="webhook-form"
      onSubmit={submit}
      onClose={onClose}
      busy={isSubmitting}
      submitLabel="Add"
      busyLabel="Add"
    >
      <Field id="webhook-url" label="URL *" error={errors.url?.message}>
        <Input
          {...describedBy('webhook-url', errors.url?.message)}
          type="url"
          placeholder="https://wms.example.com/portal-hook"
          {...register('url')}
        />
      </Field>
      <Field id="webhook-store" label="Store number *" error={errors.storeId?.message}>
        <Input {...describedBy('webhook-store', errors.storeId?.message)} inputMode="numeric" {...register('storeId')} />
      </Field>
      <CheckboxFieldset
        legend="Events *"
        idPrefix="event"
        options={ORDER_EVENT_TYPES}
        registration={register('events')}
        error={errors.events?.message}
      />
    </FormDialog>
  );
}
