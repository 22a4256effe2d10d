import { useMemo, useState } from 'react';
import { Search, X } from 'lucide-react';
import { PERMISSIONS, type Order } from '@portal/contracts';
import { useSession } from '@/lib/session';
import { useSelection } from '@/lib/selection';
import { Button } from '@/components/ui/button';
import { EmptyState, Skeleton } from '@/components/ui/feedback';
import { Input } from '@/components/ui/input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { notify } from '@/components/ui/toaster';
import { useOrders } from '../api/get-orders';
import { markOrderReady } from '../api/mark-order-ready';
import { cancelOrder, completeOrder } from '../api/order-lifecycle';
import { ApiError } from '@/lib/api';
import { CancelOrderDialog } from './cancel-order-dialog';
import { matchesSearch } from '../lib/order-text';
import { StoreOrderCard } from './store-order-card';
import { StoreOrderDetailsDialog } from './store-order-details-dialog';
import { StorePaymentWarning } from './store-payment-warning';
import { NeedsAttention } from './needs-attention';

export const STORE_ORDERS_MESSAGES = {
  searchPlaceholder: 'Search by order number, customer name, or email...',
  empty: 'No orders found.',
  noMatch: 'No orders match your search.',
  markedTitle: 'Order marked as ready',
  markedDescription: 'The order status has been updated to ready for pickup.',
  markFailed: 'Failed to mark order as ready. Please try again.',
  loadFailed: 'Failed to load orders. Please try again.',
  completedTitle: 'Order marked as completed',
  cancelledTitle: 'Order cancelled',
  actionFailed: 'The order could not be updated. Please try again.',
} as const;

type Tab = 'reserved' | 'ready' | 'completed' | 'all';
const TABS: Array<{ value: Tab; label: string }> = [
  { value: 'reserved', label: 'New' },
  { value: 'ready', label: 'Ready' },
  { value: 'completed', label: 'Completed' },
  { value: 'all', label: 'All' },
];
/** New orders should show up without a reload: the list refreshes every minute. */
const REFRESH_MS = 60_000;

/**
 * /orders, Store Orders (spec 001 §2): heading and subtitle by scope, tabs New / Ready / Completed / All
 * with counts, the search on the All tab, order cards with Mark Ready and View Details, and the details dialog.
 */
export function StoreOrders() {
  const { hasPermission } = useSession();
  const canManage = hasPermission(PERMISSIONS.ordersStoreManage);
  const { store, outlet, loading: selecting } = useSelection();
  const list = useOrders({ storeId: store?.id }, !selecting, { refreshInterval: REFRESH_MS });
  const [tab, setTab] = useState<Tab>('reserved');
  const [search, setSearch] = useState('');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [marking, setMarking] = useState<number | null>(null);
  const [cancelling, setCancelling] = useState<Order | null>(null);

  const items = useMemo(() => list.data?.items ?? [], [list.data]);
  const scope = list.data?.scope ?? (canManage ? 'store' : hasPermission(PERMISSIONS.ordersOutletManage) ? 'outlet' : 'own');
  const counts = list.data?.counts;
  const byTab = useMemo(
    () => ({
      reserved: items.filter((o) => o.status === 'reserved'),
      ready: items.filter((o) => o.status === 'ready'),
      completed: items.filter((o) => o.status === 'completed'),
      all: items.filter((o) => matchesSearch(o, search)),
    }),
    [items, search],
  );
  const count = (t: Tab) => (counts && !(t === 'all' && search.trim()) ? counts[t] : byTab[t].length);
  const selected = items.find((o) => o.id === selectedId) ?? null;

  const label = scope === 'store' ? (store?.name ?? 'All Stores') : scope === 'outlet' ? (outlet?.outletName ?? 'Outlet') : 'Your Orders';
  const subtitle =
    scope === 'store'
      ? `Showing all orders for Store: ${store?.name ?? 'all your stores'}`
      : scope === 'outlet'
        ? `Showing all orders for Outlet: ${outlet?.outletName ?? ''}`
        : 'Showing your orders';

  async function markReady(order: Order) {
    setMarking(order.id);
    try {
      await markOrderReady(order.id);
      notify({ title: STORE_ORDERS_MESSAGES.markedTitle, description: STORE_ORDERS_MESSAGES.markedDescription, variant: 'success' });
      await list.mutate();
    } catch {
      notify({ title: 'Error', description: STORE_ORDERS_MESSAGES.markFailed, variant: 'destructive' });
    } finally {
      setMarking(null);
    }
  }

  /** Mark Completed / Cancel (issue 14 §1): a toast either way; a refused refund leaves the order "Refund pending". */
  async function act(order: Order, run: () => Promise<unknown>, title: string) {
    setMarking(order.id);
    try {
      await run();
      notify({ title, description: `Order ${order.orderNumber}`, variant: 'success' });
      setCancelling(null);
    } catch (e) {
      notify({
        title: 'Error',
        description: e instanceof ApiError ? e.message : STORE_ORDERS_MESSAGES.actionFailed,
        variant: 'destructive',
      });
    } finally {
      setMarking(null);
      await list.mutate();
    }
  }

  function onSearch(value: string) {
    setSearch(value);
    if (value.trim()) setTab('all');
  }

  function panel(t: Tab) {
    if (list.isLoading || selecting) {
      return (
        <div className="grid gap-4 lg:grid-cols-2" role="status" aria-label="Loading orders">
          {[0, 1].map((i) => (
            <Skeleton key={i} className="h-56" />
          ))}
        </div>
      );
    }
    if (list.error && !list.data) {
      return (
        <EmptyState
          title="Could not load orders"
          description={STORE_ORDERS_MESSAGES.loadFailed}
          action={
            <Button variant="outline" onClick={() => list.mutate()}>
              Try again
            </Button>
          }
        />
      );
    }
    const shown = byTab[t];
    if (shown.length === 0) {
      return <EmptyState title={t === 'all' && search.trim() ? STORE_ORDERS_MESSAGES.noMatch : STORE_ORDERS_MESSAGES.empty} />;
    }
    return (
      <ul className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        {shown.map((o) => (
          <li key={o.id} className="min-w-0">
            <StoreOrderCard
              order={o}
              canMarkReady={canManage}
              marking={marking === o.id}
              onMarkReady={() => markReady(o)}
              onView={() => setSelectedId(o.id)}
              onComplete={() => act(o, () => completeOrder(o.id), STORE_ORDERS_MESSAGES.completedTitle)}
              onCancel={() => setCancelling(o)}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
      <header className="mb-5 space-y-1">
        <h1 className="text-2xl font-semibold text-stone-900">
          Store Orders{' '}
          <span className="font-normal text-stone-400" aria-hidden>
            |
          </span>{' '}
          <span className="font-medium text-stone-700">{label}</span>
        </h1>
        <p className="text-sm text-stone-500">{subtitle}</p>
      </header>
      {canManage && <StorePaymentWarning storeId={store?.id} />}
      {canManage && !selecting && <NeedsAttention storeId={store?.id} hideWhenEmpty />}

      <div className="relative mb-4 max-w-md">
        <label htmlFor="order-search" className="sr-only">
          Search orders
        </label>
        <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-stone-400" aria-hidden />
        <Input
          id="order-search"
          type="search"
          value={search}
          onChange={(e) => onSearch(e.target.value)}
          placeholder={STORE_ORDERS_MESSAGES.searchPlaceholder}
          className="px-9 [&::-webkit-search-cancel-button]:hidden"
        />
        {search && (
          <button
            type="button"
            onClick={() => setSearch('')}
            aria-label="Clear search"
            className="absolute right-2 top-1/2 -translate-y-1/2 rounded p-1 text-stone-500 hover:bg-stone-100 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-600 cursor-pointer"
          >
            <X className="h-4 w-4" aria-hidden />
          </button>
        )}
      </div>

      <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)}>
        <TabsList aria-label="Order status" className="flex w-full flex-nowrap gap-0.5 overflow-x-auto sm:inline-flex sm:w-auto sm:gap-1">
          {TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value} className="flex-auto justify-center gap-1.5 px-2 sm:flex-none sm:gap-2 sm:px-3">
              {t.label}
              <span className="rounded-full bg-stone-200 px-1.5 text-xs tabular-nums text-stone-700">
                {list.data ? count(t.value) : '–'}
              </span>
            </TabsTrigger>
          ))}
        </TabsList>
        {TABS.map((t) => (
          <TabsContent key={t.value} value={t.value}>
            {panel(t.value)}
          </TabsContent>
        ))}
      </Tabs>

      <CancelOrderDialog
        order={cancelling}
        busy={marking === cancelling?.id}
        onClose={() => setCancelling(null)}
        onConfirm={(reason) =>
          cancelling && act(cancelling, () => cancelOrder(cancelling.id, reason), STORE_ORDERS_MESSAGES.cancelledTitle)
        }
      />
      <StoreOrderDetailsDialog
        order={selected}
        canMarkReady={canManage}
        marking={marking === selected?.id}
        onMarkReady={markReady}
        onClose={() => setSelectedId(null)}
      />
    </div>
  );
}
