import { useState } from 'react';
import { Controller, useForm, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { APP_CODES, CREDENTIAL_ENVIRONMENTS, CREDENTIAL_TYPES, type PaymentCredential } from '@portal/contracts';
import { toApiError } from '@/lib/api';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { FormDialog } from '@/components/admin/form-dialog';
import { Field, describedBy } from '@/components/ui/field';
import { Input, PasswordInput } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { notify } from '@/components/ui/toaster';
import { saveCredential, useCredentialStoreOptions } from '../api/credentials';
import { credentialFormSchema, toCredentialDraft, type CredentialDraft, type CredentialFormBody } from './credential-form';

/** The store of a credential: a search box (300 ms debounce) narrowing the store select; on edit the current store stays listed. */
function StorePicker({ control, cred }: { control: Control<CredentialDraft, unknown, CredentialFormBody>; cred?: PaymentCredential }) {
  const [storeSearch, setStoreSearch] = useState('');
  const stores = useCredentialStoreOptions(useDebouncedValue(storeSearch.trim(), 300));
  return (
    <>
      <Field id="cred-store-search" label="Find store" className="sm:col-span-2">
        <Input
          id="cred-store-search"
          type="search"
          placeholder="Name, city or number"
          value={storeSearch}
          onChange={(e) => setStoreSearch(e.target.value)}
        />
      </Field>
      <Field id="cred-store" label="Store *" className="sm:col-span-2">
        {/* Controlled: the options change with the search, the choice stays. */}
        <Controller
          control={control}
          name="storeId"
          render={({ field }) => (
            <Select id="cred-store" {...field}>
              <option value="">Select a store</option>
              {cred && !stores.data?.items.some((s) => s.id === cred.storeId) && (
                <option value={cred.storeId}>
                  {cred.storeName} (#{cred.storeId})
                </option>
              )}
              {stores.data?.items.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} (#{s.id})
                </option>
              ))}
            </Select>
          )}
        />
      </Field>
    </>
  );
}

/**
 * Add or edit a store's payment credentials (spec 002 §5): store (searchable), app, environment, type,
 * secret name and the gateway's secret fields, which the server encrypts; on edit, empty secret fields
 * keep the stored ones. Validated with the contracts' schema (credential-form.ts); one problem line.
 */
export function CredentialDialog({ cred, onClose, onSaved }: { cred?: PaymentCredential; onClose: () => void; onSaved: () => void }) {
  const {
    register,
    control,
    handleSubmit,
    watch,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CredentialDraft, unknown, CredentialFormBody>({
    resolver: zodResolver(credentialFormSchema(Boolean(cred))),
    defaultValues: toCredentialDraft(cred),
    reValidateMode: 'onSubmit',
  });
  const monetra = watch('credentialType') === 'Monetra';
  const problem = errors.root?.message;
  const save = handleSubmit(async (body) => {
    try {
      await saveCredential(cred?.id ?? null, body);
      notify({
        title: cred ? 'Credentials updated' : 'Credentials added',
        description: 'Stored encrypted (AES-256-GCM).',
        variant: 'success',
      });
      onSaved();
    } catch (err) {
      const a = toApiError(err);
      setError('root', { message: a.message });
      notify({ title: a.status === 0 ? 'Encryption Error' : 'Failed to add credentials', description: a.message, variant: 'destructive' });
    }
  });
  const options = (values: readonly string[]) => values.map((v) => <option key={v}>{v}</option>);
  return (
    <FormDialog
      title={cred ? 'Edit Credentials' : 'Add Credentials'}
      description={
        cred ? 'Leave the secret fields empty to keep the stored ones.' : 'The gateway fields are encrypted before they are stored.'
      }
      formId="credential-form"
      onSubmit={save}
      onClose={onClose}
      busy={isSubmitting}
      formClassName="grid gap-4 sm:grid-cols-2"
    >
      {problem && (
        <p role="alert" className="rounded-md bg-red-50 p-2 text-sm text-red-700 sm:col-span-2">
          {problem}
        </p>
      )}
      <StorePicker control={control} cred={cred} />
      <Field id="cred-app" label="App *">
        <Select id="cred-app" {...register('appCode')}>
          {options(APP_CODES)}
        </Select>
      </Field>
      <Field id="cred-env" label="Environment *">
        <Select id="cred-env" {...register('environment')}>
          {options(CREDENTIAL_ENVIRONMENTS)}
        </Select>
      </Field>
      <Field id="cred-type" label="Type *">
        <Select id="cred-type" {...register('credentialType')}>
          {options(CREDENTIAL_TYPES)}
        </Select>
      </Field>
      <Field id="cred-dek" label="Secret name *">
        <Input {...describedBy('cred-dek')} placeholder="portal-payment-credentials-v1" {...register('dekSecretName')} />
      </Field>
      {monetra ? (
        <>
          <Field id="cred-user" label={`Merchant username${cred ? '' : ' *'}`}>
            <Input id="cred-user" autoComplete="off" {...register('username')} />
          </Field>
          <Field id="cred-pass" label={`Merchant password${cred ? '' : ' *'}`}>
            <PasswordInput id="cred-pass" autoComplete="new-password" {...register('password')} />
          </Field>
        </>
      ) : (
        <Field id="cred-json" label={`Gateway fields (JSON)${cred ? '' : ' *'}`} className="sm:col-span-2">
          <textarea
            id="cred-json"
            rows={4}
            className="w-full rounded-md border border-stone-300 p-2 font-mono text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
            placeholder='{"key": "sk_live_…"}'
            {...register('json')}
          />
        </Field>
      )}
    </FormDialog>
  );
}
