import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { KeyRound, Plus, Trash2 } from 'lucide-react';
import { API_KEY_SCOPES, apiKeyListSchema, createApiKeyBodySchema, createdApiKeySchema, type ApiKey } from '@portal/contracts';
import { api, toApiError, useApi } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Badge, EmptyState, Skeleton } from '@/components/ui/feedback';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Table, Td, Th } from '@/components/ui/table';
import { notify } from '@/components/ui/toaster';

type FormIn = z.input<typeof createApiKeyBodySchema>;
type FormOut = z.output<typeof createApiKeyBodySchema>;

/**
 * The API Keys tab (issue 14 §2): keys of the caller's stores and boards with prefix, scopes and last use;
 * create (the whole key is shown once), revoke at once.
 */
export function ApiKeysTab() {
  const { data, error, isLoading, mutate } = useApi('/admin/api-keys', apiKeyListSchema);
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  async function revoke(k: ApiKey) {
    try {
      await api.delete(`/admin/api-keys/${k.id}`);
      notify({ title: 'API key revoked', description: k.name, variant: 'success' });
      setRevoking(null);
      void mutate();
    } catch (e) {
      notify({ title: 'Failed to revoke the key', description: toApiError(e).message, variant: 'destructive' });
    }
  }
  return (
    <section aria-labelledby="api-keys-title" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="api-keys-title" className="text-lg font-semibold text-stone-900">
          API Keys
        </h2>
        <Button onClick={() => setCreating(true)}>
          <Plus className="h-4 w-4" aria-hidden />
          Create API key
        </Button>
      </div>
      {error ? (
        <EmptyState
          title="Failed to fetch API keys"
          description={error.message}
          action={
            <Button variant="outline" onClick={() => mutate()}>
              Try again
            </Button>
          }
        />
      ) : isLoading ? (
        <Skeleton className="h-24 w-full" />
      ) : !data?.items.length ? (
        <EmptyState
          icon={<KeyRound className="h-8 w-8" />}
          title="No API keys yet"
          description="Create a key for a store's warehouse system."
        />
      ) : (
        <div className="overflow-x-auto">
          <Table aria-label="API keys">
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Prefix</Th>
                <Th>Scope</Th>
                <Th>Scopes</Th>
                <Th>Last used</Th>
                <Th>Status</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((k) => (
                <tr key={k.id}>
                  <Td className="font-medium">{k.name}</Td>
                  <Td>
                    <code>bcc_{k.prefix}_…</code>
                  </Td>
                  <Td>{k.storeId ? `Store ${k.storeId}` : `Board ${k.boardId}`}</Td>
                  <Td className="text-xs">{k.scopes.join(', ')}</Td>
                  <Td>{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : 'Never'}</Td>
                  <Td>{k.revokedAt ? <Badge variant="destructive">Revoked</Badge> : <Badge variant="success">Active</Badge>}</Td>
                  <Td>
                    {!k.revokedAt && (
                      <Button variant="ghost" size="sm" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                        <Trash2 className="h-4 w-4" aria-hidden />
                        Revoke
                      </Button>
                    )}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
      {creating && (
        <CreateKeyDialog
          onClose={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false);
            setShown(key);
            void mutate();
          }}
        />
      )}
      <Dialog
        open={!!shown}
        onOpenChange={(o) => {
          if (!o) setShown(null);
        }}
        title="Copy your API key now"
        description="This is the only time the whole key is shown. Store it in the warehouse system's secret store."
        footer={
          <>
            <Button
              variant="outline"
              onClick={() => {
                void navigator.clipboard?.writeText(shown ?? '');
                notify({ title: 'Key copied', variant: 'success' });
              }}
            >
              Copy
            </Button>
            <Button onClick={() => setShown(null)}>Done</Button>
          </>
        }
      >
        <label htmlFor="new-api-key" className="sr-only">
          API key
        </label>
        <Input id="new-api-key" readOnly value={shown ?? ''} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
      </Dialog>
      <Dialog
        open={!!revoking}
        onOpenChange={(o) => {
          if (!o) setRevoking(null);
        }}
        title={`Revoke ${revoking?.name ?? ''}?`}
        description="Calls with this key are refused at once. This cannot be undone."
        footer={
          <>
            <Button variant="outline" onClick={() => setRevoking(null)}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => revoking && revoke(revoking)}>
              Revoke
            </Button>
          </>
        }
      />
    </section>
  );
}

function CreateKeyDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (key: string) => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(createApiKeyBodySchema),
    defaultValues: { name: '', storeId: undefined, scopes: ['inventory:write', 'orders:read'] },
  });
  const submit = handleSubmit(async (body) => {
    try {
      const res = createdApiKeySchema.parse((await api.post('/admin/api-keys', body)).data);
      notify({ title: 'API key created', description: body.name, variant: 'success' });
      onCreated(res.key);
    } catch (e) {
      notify({ title: 'Failed to create the key', description: toApiError(e).message, variant: 'destructive' });
    }
  });
  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      title="Create API key"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="api-key-form" loading={isSubmitting}>
            Create
          </Button>
        </>
      }
    >
      <form id="api-key-form" onSubmit={submit} noValidate className="space-y-4">
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
        <fieldset className="space-y-1.5">
          <legend className="text-sm font-medium text-stone-800">Scopes *</legend>
          {API_KEY_SCOPES.map((s) => (
            <label key={s} htmlFor={`scope-${s}`} className="flex items-center gap-2 text-sm text-stone-800">
              <input id={`scope-${s}`} type="checkbox" value={s} className="h-4 w-4 accent-brand-700" {...register('scopes')} /> {s}
            </label>
          ))}
          {errors.scopes && (
            <p role="alert" className="text-sm text-red-600">
              {errors.scopes.message}
            </p>
          )}
        </fieldset>
      </form>
    </Dialog>
  );
}
