import { useState } from 'react';
import { Trash2, Webhook as WebhookIcon } from 'lucide-react';
import type { Webhook } from '@portal/contracts';
import { toApiError } from '@/lib/api';
import { DataTable, RowAction, actionsHeader, type Column } from '@/components/admin/data-table';
import { ResourcePanel } from '@/components/admin/resource-panel';
import { Button } from '@/components/ui/button';
import { Switch } from '@/components/ui/switch';
import { notify } from '@/components/ui/toaster';
import { deleteWebhook, setWebhookActive, useWebhooks } from './api/webhooks';
import { CreateWebhookDialog } from './components/create-webhook-dialog';
import { DeliveriesDialog } from './components/deliveries-dialog';
import { ShownOnceDialog } from './components/shown-once-dialog';

/**
 * The Webhooks tab (issue 14 §5): endpoints per store with their event types; register (the signing
 * secret is shown once), switch on/off (applies at once, reverts on failure), remove, and the delivery
 * log with redeliver.
 */
export function WebhooksTab() {
  const webhooks = useWebhooks();
  const { data, mutate } = webhooks;
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [log, setLog] = useState<Webhook | null>(null);
  async function toggle(w: Webhook, active: boolean) {
    await mutate({ items: (data?.items ?? []).map((x) => (x.id === w.id ? { ...x, active } : x)) }, { revalidate: false });
    try {
      await setWebhookActive(w.id, active);
      notify({ title: active ? 'Webhook on' : 'Webhook off', description: w.url, variant: 'success' });
    } catch (e) {
      notify({ title: 'Failed to update the webhook', description: toApiError(e).message, variant: 'destructive' });
    }
    void mutate();
  }
  async function remove(w: Webhook) {
    try {
      await deleteWebhook(w.id);
      notify({ title: 'Webhook removed', description: w.url, variant: 'success' });
      void mutate();
    } catch (e) {
      notify({ title: 'Failed to remove the webhook', description: toApiError(e).message, variant: 'destructive' });
    }
  }
  const columns: Column<Webhook>[] = [
    { header: 'URL', field: 'url', sortKey: 'url', className: 'max-w-xs break-all font-mono text-xs' },
    { header: 'Scope', cell: (w) => (w.storeId ? `Store ${w.storeId}` : `Board ${w.boardId}`) },
    { header: 'Events', cell: (w) => w.events.join(', '), className: 'text-xs' },
    { header: 'Active', cell: (w) => <Switch checked={w.active} onCheckedChange={(v) => toggle(w, v)} aria-label={`Active: ${w.url}`} /> },
    {
      header: actionsHeader,
      className: 'whitespace-nowrap',
      cell: (w) => (
        <>
          <Button variant="ghost" size="sm" onClick={() => setLog(w)}>
            Deliveries
          </Button>
          <RowAction icon={Trash2} label={`Remove ${w.url}`} onClick={() => remove(w)} />
        </>
      ),
    },
  ];
  return (
    <ResourcePanel
      id="webhooks"
      title="Webhooks"
      addLabel="Add webhook"
      onAdd={() => setCreating(true)}
      query={webhooks}
      errorTitle="Failed to fetch webhooks"
      empty={{ icon: WebhookIcon, title: 'No webhooks yet', description: 'Register an endpoint to be told of new and changed orders.' }}
      overlays={
        <>
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
          <ShownOnceDialog
            value={secret}
            onClose={() => setSecret(null)}
            title="Copy the signing secret now"
            description="Verify each delivery's Portal-Signature header with it. It is shown only this once."
            inputId="webhook-secret"
            inputLabel="Signing secret"
          />
          {log && <DeliveriesDialog webhook={log} onClose={() => setLog(null)} />}
        </>
      }
    >
      <DataTable label="Webhooks" rows={data?.items ?? []} columns={columns} rowKey={(w) => w.id} />
    </ResourcePanel>
  );
}
