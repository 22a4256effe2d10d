import { RotateCw } from 'lucide-react';
import type { Webhook, WebhookDelivery } from '@portal/contracts';
import { toApiError } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { DataTable, RowAction, actionsHeader, type Column } from '@/components/admin/data-table';
import { Dialog } from '@/components/ui/dialog';
import { Badge, EmptyState, Skeleton } from '@/components/ui/feedback';
import { notify } from '@/components/ui/toaster';
import { redeliver, useWebhookDeliveries } from '../api/webhooks';

const statusVariant = (s: WebhookDelivery['status']) => (s === 'delivered' ? 'success' : s === 'failed' ? 'destructive' : 'warning');

/** A webhook's delivery log (issue 14 §5): when, event, status, attempts, the last answer; Redeliver queues one again. */
export function DeliveriesDialog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const { data, error, isLoading, mutate } = useWebhookDeliveries(webhook.id);
  async function again(d: WebhookDelivery) {
    try {
      await redeliver(webhook.id, d.id);
      notify({ title: 'Delivery queued again', variant: 'success' });
      void mutate();
    } catch (e) {
      notify({ title: 'Failed to redeliver', description: toApiError(e).message, variant: 'destructive' });
    }
  }
  const columns: Column<WebhookDelivery>[] = [
    { header: 'When', cell: (d) => formatDateTime(d.createdAt), className: 'whitespace-nowrap' },
    { header: 'Event', cell: (d) => `${d.type} #${d.seq}` },
    { header: 'Status', cell: (d) => <Badge variant={statusVariant(d.status)}>{d.status}</Badge> },
    { header: 'Attempts', field: 'attempts', className: 'text-right tabular-nums', headerClassName: 'text-right' },
    {
      header: 'Last answer',
      className: 'text-right tabular-nums',
      headerClassName: 'text-right',
      cell: (d) => (
        <>
          {d.lastStatusCode ?? '–'}
          {d.lastDurationMs !== null ? ` · ${d.lastDurationMs} ms` : ''}
          {d.lastError ? (
            <span className="block max-w-xs truncate text-left text-xs text-muted-foreground" title={d.lastError}>
              {d.lastError}
            </span>
          ) : null}
        </>
      ),
    },
    {
      header: actionsHeader,
      cell: (d) => <RowAction icon={RotateCw} text="Redeliver" label={`Redeliver ${d.type} #${d.seq}`} onClick={() => again(d)} />,
    },
  ];
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
        <DataTable label="Deliveries" rows={data.items} columns={columns} rowKey={(d) => d.id} />
      )}
    </Dialog>
  );
}
