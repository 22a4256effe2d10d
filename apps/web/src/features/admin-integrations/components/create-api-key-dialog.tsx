import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { API_KEY_SCOPES, createApiKeyBodySchema } from '@portal/contracts';
import { toApiError } from '@/lib/api';
import { CheckboxFieldset } from '@/components/admin/checkbox-fieldset';
import { FormDialog } from '@/components/admin/form-dialog';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { createApiKey } from '../api/api-keys';

/** Create an API key (name, store number, scopes; contracts' createApiKeyBodySchema); `onCreated` gets the whole key. */
export function CreateApiKeyDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (key: string) => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof createApiKeyBodySchema>, unknown, z.output<typeof createApiKeyBodySchema>>({
    resolver: zodResolver(createApiKeyBodySchema),
    defaultValues: { name: '', storeId: undefined, scopes: ['inventory:write', 'orders:read'] },
  });
  const submit = handleSubmit(async (body) => {
    try {
      const key = await createApiKey(body);
      notify({ title: 'API key created', description: body.name, variant: 'success' });
      onCreated(key);
    } catch (e) {
      notify({ title: 'Failed to create the key', description: toApiError(e).message, variant: 'destructive' });
    }
  });
  return (
    <FormDialog
      title="Create API key"
      formId="api-key-form"
      onSubmit={submit}
      onClose={onClose}
      busy={isSubmitting}
      submitLabel="Create"
      busyLabel="Create"
    >
      <Field id="api-key-name" label="Name *" error={errors.name?.message}>
        <Input {...describedBy('api-key-name', errors.name?.message)} {...register('name')} />
      </Field>
      <Field
        id="api-key-store"
        label="Store number *"
        error={errors.storeId?.message}
        hint="The warehouse's store number the key may reach"
      >
        <Input {...describedBy('api-key-store', errors.storeId?.message, true)} inputMode="numeric" {...register('storeId')} />
      </Field>
      <CheckboxFieldset
        legend="Scopes *"
        idPrefix="scope"
        options={API_KEY_SCOPES}
        registration={register('scopes')}
        error={errors.scopes?.message}
      />
    </FormDialog>
  );
}
