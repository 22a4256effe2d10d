import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { AlertTriangle, RefreshCw } from 'lucide-react';
import { PERMISSIONS, type AttentionOrder } from '@portal/contracts';
import { useSession } from '@/lib/session';
import { formatDateTime, formatMoney } from '@/lib/format';
import { Badge, EmptyState, Skeleton } from '@/components/ui/feedback';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { notify } from '@/components/ui/toaster';
import { checkOrderPayment, useAttentionOrders } from '../api/attention';
import { useLiveOrders, useLiveRefreshInterval } from '../api/use-live-orders';

export const ATTENTION_MESSAGES = {
  title: 'Needs attention',
  intro:
    'Card payments the gateway has not confirmed yet, and cancellations whose refund failed. Check again asks the gateway by the order number.',
  empty: 'Nothing needs attention. Every card payment is settled.',
  loadFailed: 'Failed to load the orders that need attention. Please try again.',
  checkFailed: 'Could not reach the payment service. Please try again.',
} as const;

const REASON: Record<AttentionOrder['reason'], string> = { payment_unconfirmed: 'Payment unconfirmed', cancel_pending: 'Refund pending' };
/** Unsettled payments are few and urgent: live updates (GET /me/events), else the list refreshes every 30 s. */
const REFRESH_MS = 30_000;

/**
 * Store Orders "Needs attention" (issue 8 §4): unsettled card payments and cancel_pending orders of the
 * selected store (every store for super administrators), each with its merchant reference (the order
 * number), the gateway's reference, the card's last 4 digits and a "Check again" action. Renders nothing
 * for people who do not manage store orders; with `hideWhenEmpty`, nothing until there is something to show.
 */
export function NeedsAttention({ storeId, hideWhenEmpty = false }: { storeId?: number | null; hideWhenEmpty?: boolean }) {
  const { hasPermission } = useSession();
  const canManage = hasPermission(PERMISSIONS.ordersStoreManage);
  const superAdmin = hasPermission(PERMISSIONS.usersSuperAdmin);
  const list = useAttentionOrders(superAdmin ? null : storeId, canManage, { refreshInterval: useLiveRefreshInterval(REFRESH_MS) });
  // The live connection opens once the list has answered (after the page's first content, not alongside it).
  useLiveOrders(canManage && list.data !== undefined);
  const [checking, setChecking] = useState<number | null>(null);
  const { mutate } = useSWRConfig();
  if (!canManage) return null;
  const items = list.data?.items ?? [];
  // Inside Store Orders it only appears when something needs attention (a failed load stays quiet: the list below reports its own).
  if (hideWhenEmpty && (list.isLoading || list.error || items.length === 0)) return null;

  async function checkAgain(o: AttentionOrder) {
    setChecking(o.id);
    try {
      const r = await checkOrderPayment(o.id);
      notify({
        title: `Order ${o.orderNumber}`,
        description: r.message,
        variant: r.outcome === 'paid' ? 'success' : r.outcome === 'pending' ? 'default' : 'destructive',
      });
      await list.mutate();
      // A settled order joins (or leaves) the store's order lists: reload them now, not at the next refresh.
      if (r.outcome !== 'pending') void mutate((key) => typeof key === 'string' && key.startsWith('/orders?'));
    } catch {
      notify({ title: 'Error', description: ATTENTION_MESSAGES.checkFailed, variant: 'destructive' });
    } finally {
      setChecking(null);
    }
  }

  let body;
  if (list.isLoading)
    body = (
      <div role="status" aria-label="Loading orders that need attention" className="space-y-2">
        <Skeleton className="h-20 w-full" />
      </div>
    );
  else if (list.error && !list.data) {
    body = (
      <EmptyState
        title={ATTENTION_MESSAGES.loadFailed}
        action={
          <Button variant="outline" onClick={() => list.mutate()}>
            Try again
          </Button>
        }
      />
    );
  } else if (items.length === 0) body = <p className="text-sm text-stone-500">{ATTENTION_MESSAGES.empty}</p>;
  else {
    body = (
      <ul className="space-y-3">
        {items.map((o) => (
          <li key={o.id}>
            <AttentionCard order={o} showStore={superAdmin} checking={checking === o.id} onCheckAgain={() => checkAgain(o)} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section aria-labelledby="needs-attention-heading" className="mb-6 rounded-lg border border-amber-200 bg-amber-50/60 p-4">
      <h2 id="needs-attention-heading" className="mb-1 flex items-center gap-2 text-base font-semibold text-stone-900">
        <AlertTriangle className="h-4 w-4 text-amber-600" aria-hidden />
        {ATTENTION_MESSAGES.title}
        {items.length > 0 && <span className="rounded-full bg-amber-200 px-2 text-xs tabular-nums text-amber-900">{items.length}</span>}
      </h2>
      <p className="mb-3 text-sm text-stone-600">{ATTENTION_MESSAGES.intro}</p>
      {body}
    </section>
  );
}

/** One order needing attention: number, customer, reason, total, date, store, references, card, last check; Check again. */
function AttentionCard({
  order: o,
  showStore,
  checking,
  onCheckAgain,
}: {
  order: AttentionOrder;
  showStore: boolean;
  checking: boolean;
  onCheckAgain: () => unknown;
}) {
  return (
    <Card className="p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <div className="font-semibold text-stone-900 [overflow-wrap:anywhere]">{o.orderNumber}</div>
          <div className="text-sm text-stone-600 [overflow-wrap:anywhere]">
            {o.customerName} · {o.customerEmail}
          </div>
        </div>
        <Badge variant="warning">{REASON[o.reason]}</Badge>
      </div>
      <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div className="flex gap-2">
          <dt className="text-stone-500">Total</dt>
          <dd className="font-medium tabular-nums">{formatMoney(o.total)}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-stone-500">Placed</dt>
          <dd>{formatDateTime(o.orderDate)}</dd>
        </div>
        {showStore && (
          <div className="flex gap-2">
            <dt className="text-stone-500">Store</dt>
            <dd>{o.storeName}</dd>
          </div>
        )}
        <div className="flex gap-2">
          <dt className="text-stone-500">Reference</dt>
          <dd className="font-mono [overflow-wrap:anywhere]">{o.merchantReference}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-stone-500">Gateway ref.</dt>
          <dd className="font-mono">
            {o.gatewayReference ?? '—'}
            {o.gateway ? ` (${o.gateway})` : ''}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-stone-500">Card</dt>
          <dd>{o.cardLast4 ? `ending ${o.cardLast4}` : '—'}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-stone-500">Last checked</dt>
          <dd>{o.lastCheckedAt ? formatDateTime(o.lastCheckedAt) : 'Never'}</dd>
        </div>
      </dl>
      {o.reason === 'payment_unconfirmed' && (
        <div className="mt-3 flex justify-end">
          <Button variant="outline" size="sm" loading={checking} onClick={onCheckAgain} aria-label={`Check again order ${o.orderNumber}`}>
            <RefreshCw className="h-4 w-4" aria-hidden />
            Check again
          </Button>
        </div>
      )}
    </Card>
  );
}
