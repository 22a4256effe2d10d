import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Plus, RotateCw, Trash2, Webhook as WebhookIcon } from 'lucide-react';
import {
  ORDER_EVENT_TYPES,
  createWebhookBodySchema,
  createdWebhookSchema,
  webhookDeliveryListSchema,
  webhookListSchema,
  type Webhook,
} from '@portal/contracts';
import { api, toApiError, useApi } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Badge, EmptyState, Skeleton } from '@/components/ui/feedback';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { Table, Td, Th } from '@/components/ui/table';
import { notify } from '@/components/ui/toaster';

type FormIn = z.input<typeof createWebhookBodySchema>;
type FormOut = z.output<typeof createWebhookBodySchema>;

/**
 * The Webhooks tab (issue 14 §5): endpoints per store with their event types; register (the signing
 * secret is shown once), switch on/off (applies at once, reverts on failure), remove, and the delivery
 * log with redeliver.
 */
export function WebhooksTab() {
  const { data, error, isLoading, mutate } = useApi('/admin/webhooks', webhookListSchema);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [log, setLog] = useState<Webhook | null>(null);
  async function toggle(w: Webhook, active: boolean) {
    await mutate({ items: (data?.items ?? []).map((x) => (x.id === w.id ? { ...x, active } : x)) }, { revalidate: false });
    try {
      await api.patch(`/admin/webhooks/${w.id}`, { active });
      notify({ title: active ? 'Webhook on' : 'Webhook off', description: w.url, variant: 'success' });
    } catch (e) {
      notify({ title: 'Failed to update the webhook', description: toApiError(e).message, variant: 'destructive' });
    }
    void mutate();
  }
  async function remove(w: Webhook) {
    try {
      await api.delete(`/admin/webhooks/${w.id}`);
      notify({ title: 'Webhook removed', description: w.url, variant: 'success' });
      void mutate();
    } catch (e) {
      notify({ title: 'Failed to remove the webhook', description: toApiError(e).message, variant: 'destructive' });
    }
  }
  return (
    <section aria-labelledby="webhooks-title" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="webhooks-title" className="text-lg font-semibold text-stone-900">
          Webhooks
        </h2>
        <Button onClick={() => setCreating(true)}>
          <Plus className="h-4 w-4" aria-hidden />
          Add webhook
        </Button>
      </div>
      {error ? (
        <EmptyState
          title="Failed to fetch webhooks"
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
          icon={<WebhookIcon className="h-8 w-8" />}
          title="No webhooks yet"
          description="Register an endpoint to be told of new and changed orders."
        />
      ) : (
        <div className="overflow-x-auto">
          <Table aria-label="Webhooks">
            <thead>
              <tr>
                <Th>URL</Th>
                <Th>Scope</Th>
                <Th>Events</Th>
                <Th>Active</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((w) => (
                <tr key={w.id}>
                  <Td className="max-w-xs break-all font-mono text-xs">{w.url}</Td>
                  <Td>{w.storeId ? `Store ${w.storeId}` : `Board ${w.boardId}`}</Td>
                  <Td className="text-xs">{w.events.join(', ')}</Td>
                  <Td>
                    <Switch checked={w.active} onCheckedChange={(v) => toggle(w, v)} aria-label={`Active: ${w.url}`} />
                  </Td>
                  <Td className="whitespace-nowrap">
                    <Button variant="ghost" size="sm" onClick={() => setLog(w)}>
                      Deliveries
                    </Button>
                    <Button variant="ghost" size="sm" onClick={() => remove(w)} aria-label={`Remove ${w.url}`}>
                      <Trash2 className="h-4 w-4" aria-hidden />
                    </Button>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
      {creating && (
        <CreateWebhookDialog
          onClose={() => setCreating(false)}
          onCreated={(s) => {
            setCreating(false);
            setSecret(s);
            void mutate();
          }}
        />
      )}
      <Dialog
        open={!!secret}
        onOpenChange={(o) => {
          if (!o) setSecret(null);
        }}
        title="Copy the signing secret now"
        description="Verify each delivery's Portal-Signature header with it. It is shown only this once."
        footer={<Button onClick={() => setSecret(null)}>Done</Button>}
      >
        <label htmlFor="webhook-secret" className="sr-only">
          Signing secret
        </label>
        <Input id="webhook-secret" readOnly value={secret ?? ''} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
      </Dialog>
      {log && <DeliveriesDialog webhook={log} onClose={() => setLog(null)} />}
    </section>
  );
}

function DeliveriesDialog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const { data, error, isLoading, mutate } = useApi(`/admin/webhooks/${webhook.id}/deliveries`, webhookDeliveryListSchema);
  async function redeliver(id: string) {
    try {
      await api.post(`/admin/webhooks/${webhook.id}/deliveries/${id}/redeliver`);
      notify({ title: 'Delivery queued again', variant: 'success' });
      void mutate();
    } catch (e) {
      notify({ title: 'Failed to redeliver', description: toApiError(e).message, variant: 'destructive' });
    }
  }
  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      title="Deliveries"
      description={webhook.url}
      className="max-w-3xl"
    >
      {error ? (
        <EmptyState title="Failed to fetch deliveries" description={error.message} />
      ) : isLoading ? (
        <Skeleton className="h-24 w-full" />
      ) : !data?.items.length ? (
        <EmptyState title="No deliveries yet" />
      ) : (
        <div className="overflow-x-auto">
          <Table aria-label="Deliveries">
            <thead>
              <tr>
                <Th>When</Th>
                <Th>Event</Th>
                <Th>Status</Th>
                <Th className="text-right">Attempts</Th>
                <Th className="text-right">Last answer</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((d) => (
                <tr key={d.id}>
                  <Td className="whitespace-nowrap">{formatDateTime(d.createdAt)}</Td>
                  <Td>
                    {d.type} #{d.seq}
                  </Td>
                  <Td>
                    <Badge variant={d.status === 'delivered' ? 'success' : d.status === 'failed' ? 'destructive' : 'warning'}>
                      {d.status}
                    </Badge>
                  </Td>
                  <Td className="text-right tabular-nums">{d.attempts}</Td>
                  <Td className="text-right tabular-nums">
                    {d.lastStatusCode ?? '–'}
                    {d.lastDurationMs !== null ? ` · ${d.lastDurationMs} ms` : ''}
                    {d.lastError ? (
                      <span className="block max-w-xs truncate text-left text-xs text-muted-foreground" title={d.lastError}>
                        {d.lastError}
                      </span>
                    ) : null}
                  </Td>
                  <Td>
                    <Button variant="ghost" size="sm" onClick={() => redeliver(d.id)} aria-label={`Redeliver ${d.type} #${d.seq}`}>
                      <RotateCw className="h-4 w-4" aria-hidden />
                      Redeliver
                    </Button>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
    </Dialog>
  );
}

function CreateWebhookDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (secret: string) => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(createWebhookBodySchema),
    defaultValues: { url: '', storeId: undefined, events: [...ORDER_EVENT_TYPES] },
  });
  const submit = handleSubmit(async (body) => {
    try {
      const res = createdWebhookSchema.parse((await api.post('/admin/webhooks', body)).data);
      notify({ title: 'Webhook registered', description: body.url, variant: 'success' });
      onCreated(res.secret);
    } catch (e) {
      notify({ title: 'Failed to register the webhook', description: toApiError(e).message, variant: 'destructive' });
    }
  });
  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      title="Add webhook"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="webhook-form" loading={isSubmitting}>
            Add
          </Button>
        </>
      }
    >
      <form id="webhook-form" onSubmit={submit} noValidate className="space-y-4">
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
        <fieldset className="space-y-1.5">
          <legend className="text-sm font-medium text-stone-800">Events *</legend>
          {ORDER_EVENT_TYPES.map((t) => (
            <label key={t} htmlFor={`event-${t}`} className="flex items-center gap-2 text-sm text-stone-800">
              <input id={`event-${t}`} type="checkbox" value={t} className="h-4 w-4 accent-brand-700" {...register('events')} /> {t}
            </label>
          ))}
          {errors.events && (
            <p role="alert" className="text-sm text-red-600">
              {errors.events.message}
            </p>
          )}
        </fieldset>
      </form>
    </Dialog>
  );
}
