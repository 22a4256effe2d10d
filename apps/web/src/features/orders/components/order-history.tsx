import { lazy, Suspense, useDeferredValue, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { ChevronRight, Package, Store } from 'lucide-react';
import type { Order } from '@portal/contracts';
import { useSelection } from '@/lib/selection';
import { useOpenedOnce } from '@/lib/use-opened-once';
import { formatDate, formatMoney } from '@/lib/format';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState, Skeleton } from '@/components/ui/feedback';
import { notify } from '@/components/ui/toaster';
import { useOrders } from '../api/get-orders';
import { useLiveOrders, useLiveRefreshInterval } from '../api/use-live-orders';
import { DESKTOP_QUERY, useMediaQuery } from '../lib/use-media-query';
import { itemsText } from '../lib/order-text';
import { LiveIndicator } from './live-indicator';
import { OrderStatusBadge } from './order-status-badge';
import { RefundNote } from './refund-note';
import { StatementDownload } from './statement-download';

/** The details dialog (with its claims form) loads when an order is first opened, not with the list (issue 26). */
const loadOrderHistoryDetailsDialog = () => import('./order-history-details-dialog');
const OrderHistoryDetailsDialog = lazy(async () => ({ default: (await loadOrderHistoryDetailsDialog()).OrderHistoryDetailsDialog }));

export const HISTORY_MESSAGES = {
  empty: 'No orders found. Start shopping to see your order history!',
  loadFailed: 'Failed to load order history. Please try again.',
  selectStore: 'Select a store to view your order history',
} as const;

function OrdersTable({ orders, onView }: { orders: Order[]; onView: (o: Order) => void }) {
  return (
    <Card className="overflow-hidden">
      <table className="w-full text-sm">
        <thead className="bg-stone-50 text-left text-xs uppercase tracking-wide text-stone-500">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">
              Order Number
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Date
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Items
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Status
            </th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Total
            </th>
            <th scope="col" className="px-4 py-3">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {orders.map((o) => (
            <tr key={o.id} className="hover:bg-stone-50">
              <td data-testid="order-number" className="whitespace-nowrap px-4 py-3 font-medium text-stone-900">
                {o.orderNumber}
              </td>
              <td className="px-4 py-3 text-stone-700">{formatDate(o.orderDate)}</td>
              <td className="px-4 py-3 text-stone-700">{itemsText(o.itemCount)}</td>
              <td className="px-4 py-3">
                <OrderStatusBadge status={o.status} paymentStatus={o.paymentStatus} />
              </td>
              <td className="px-4 py-3 text-right font-medium tabular-nums text-stone-900">
                {formatMoney(o.total)}
                <RefundNote order={o} className="flex justify-end text-xs" />
              </td>
              <td className="px-4 py-3 text-right">
                <Button variant="outline" size="sm" onClick={() => onView(o)} aria-label={`View Details of order ${o.orderNumber}`}>
                  View Details
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function OrdersCards({ orders, onView }: { orders: Order[]; onView: (o: Order) => void }) {
  return (
    <ul className="space-y-3">
      {orders.map((o) => (
        <li key={o.id}>
          <Card className="p-4">
            <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
              <div className="min-w-0">
                <div data-testid="order-number" className="font-semibold text-stone-900 [overflow-wrap:anywhere]">
                  {o.orderNumber}
                </div>
                <div className="text-sm text-stone-500">
                  {formatDate(o.orderDate)} · {itemsText(o.itemCount)}
                </div>
              </div>
              <OrderStatusBadge status={o.status} paymentStatus={o.paymentStatus} />
            </div>
            <div className="mt-3 flex items-center justify-between gap-3">
              <span className="flex flex-col">
                <span className="text-lg font-semibold tabular-nums text-stone-900">{formatMoney(o.total)}</span>
                <RefundNote order={o} />
              </span>
              <Button variant="outline" size="sm" onClick={() => onView(o)} aria-label={`View Details of order ${o.orderNumber}`}>
                View Details
                <ChevronRight className="h-4 w-4" aria-hidden />
              </Button>
            </div>
          </Card>
        </li>
      ))}
    </ul>
  );
}

function LoadingRows() {
  return (
    <div className="space-y-3" role="status" aria-label="Loading orders">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-16 w-full" />
      ))}
    </div>
  );
}

/**
 * /order-history, My Orders (spec 001 §2): the orders of the selected store, a table on desktop and cards
 * below 768 px, the empty text, an error toast, and the details dialog with re-order.
 */
export function OrderHistory() {
  const { outlet, store, loading: selecting } = useSelection();
  const desktop = useMediaQuery(DESKTOP_QUERY);
  // Live updates (GET /me/events) revalidate the list; while the stream is down it refreshes every minute.
  const orders = useOrders({ storeId: store?.id, mine: true }, Boolean(store), { refreshInterval: useLiveRefreshInterval(60_000) });
  const [selected, setSelected] = useState<Order | null>(null);
  // Loaded and mounted at the first opening (then kept, for its closing animation): no work for it while the page loads.
  const detailsUsed = useOpenedOnce(selected !== null);

  useEffect(() => {
    if (orders.error) notify({ title: 'Error', description: HISTORY_MESSAGES.loadFailed, variant: 'destructive' });
  }, [orders.error]);

  // My Orders asks for the caller's own orders (mine=true), also when the caller manages the store.
  // The orders replace the loading rows in a deferred (transition) render, which React renders in slices; an SWR
  // answer alone re-renders synchronously, the whole list in one long task (issue 26: total blocking time).
  const data = useDeferredValue(orders.data);
  // The live connection opens once the orders are on screen (after the page's first content, not alongside it).
  const live = useLiveOrders(data !== undefined);
  const items = data?.items ?? [];
  const heading = [outlet?.outletName, store?.name].filter(Boolean).join(' | ');
  const subtitle = store ? `View your past orders from ${store.name}` : selecting ? '' : HISTORY_MESSAGES.selectStore;

  const loading = selecting || Boolean(store && !data && !orders.error);
  let body;
  if (loading) body = <LoadingRows />;
  else if (!store)
    body = (
      <EmptyState
        icon={<Store className="h-8 w-8" />}
        title="No store selected"
        description="Choose an outlet and store from the profile menu to see its orders."
      />
    );
  else if (orders.error && !data) {
    body = (
      <EmptyState
        title="Could not load your orders"
        description={HISTORY_MESSAGES.loadFailed}
        action={
          <Button variant="outline" onClick={() => orders.mutate()}>
            Try again
          </Button>
        }
      />
    );
  } else if (items.length === 0) {
    body = (
      <EmptyState
        icon={<Package className="h-8 w-8" />}
        title={HISTORY_MESSAGES.empty}
        action={
          <Button asChild>
            <Link to="/shop">Start Shopping</Link>
          </Button>
        }
      />
    );
  } else body = desktop ? <OrdersTable orders={items} onView={setSelected} /> : <OrdersCards orders={items} onView={setSelected} />;

  return (
    <div className="mx-auto max-w-5xl px-4 py-6 sm:py-8">
      <header className="mb-6 space-y-1">
        <h1 className="text-2xl font-semibold text-stone-900">My Orders</h1>
        {/* One line each at every width, there while the selection loads: nothing below moves when it arrives. */}
        <p className="min-h-5 truncate text-sm font-medium text-stone-700" title={heading || undefined}>
          {heading}
        </p>
        <div className="flex min-h-6 items-center gap-3">
          <p className="min-w-0 truncate text-sm text-stone-500" title={subtitle || undefined}>
            {subtitle}
          </p>
          <LiveIndicator status={live.status} />
        </div>
      </header>
      {/* The statement shows with the list, not before it: appearing above the loading rows would push them down. */}
      {!loading && outlet && store && <StatementDownload outletId={outlet.outletId} outletName={outlet.outletName} />}
      {body}
      {detailsUsed && (
        <Suspense fallback={null}>
          <OrderHistoryDetailsDialog order={selected} onClose={() => setSelected(null)} />
        </Suspense>
      )}
    </div>
  );
}
