import { lazy, Suspense, useDeferredValue, useMemo, useState } from 'react';
import { Search, X } from 'lucide-react';
import { PERMISSIONS, type Order } from '@portal/contracts';
import { useSession } from '@/lib/session';
import { useOpenedOnce } from '@/lib/use-opened-once';
import { useSelection } from '@/lib/selection';
import { Button } from '@/components/ui/button';
import { EmptyState, Skeleton } from '@/components/ui/feedback';
import { Input } from '@/components/ui/input';
import { Tabs, TabsList, TabsPanel, TabsTrigger, tabPanelId, tabTriggerId } from '@/components/ui/tabs';
import { useOrders } from '../api/get-orders';
import type { LiveStatus } from '../api/live-orders';
import { useLiveOrders, useLiveRefreshInterval } from '../api/use-live-orders';
import { LiveIndicator } from './live-indicator';
import { cancelOrder, completeOrder } from '../api/order-lifecycle';
import { matchesSearch } from '../lib/order-text';
import { STORE_ORDERS_MESSAGES } from '../lib/store-orders-messages';
import { useNoticesSettled } from '../lib/use-notices-settled';
import { useStoreOrderActions } from '../lib/use-store-order-actions';
import { StoreOrderCard } from './store-order-card';
import { TomorrowsDeliveries } from './tomorrows-deliveries';
import { StorePaymentWarning } from './store-payment-warning';
import { NeedsAttention } from './needs-attention';

/** The details dialog (with its claims form) loads when an order is first opened, not with the list (issue 26). */
const loadStoreOrderDetailsDialog = () => import('./store-order-details-dialog');
const StoreOrderDetailsDialog = lazy(async () => ({ default: (await loadStoreOrderDetailsDialog()).StoreOrderDetailsDialog }));
/** The cancel form (react-hook-form) likewise loads when Cancel is first pressed. */
const CancelOrderDialog = lazy(async () => ({ default: (await import('./cancel-order-dialog')).CancelOrderDialog }));

export { STORE_ORDERS_MESSAGES } from '../lib/store-orders-messages';

type Tab = 'reserved' | 'ready' | 'completed' | 'all';
const TABS: Array<{ value: Tab; label: string }> = [
  { value: 'reserved', label: 'New' },
  { value: 'ready', label: 'Ready' },
  { value: 'completed', label: 'Completed' },
  { value: 'all', label: 'All' },
];
/** New orders show up live (GET /me/events); while the stream is down the list refreshes every minute. */
const REFRESH_MS = 60_000;

/**
 * /orders, Store Orders (spec 001 §2): heading and subtitle by scope, tabs New / Ready / Completed / All
 * with counts, the search on the All tab, order cards with Mark Ready and View Details, and the details dialog.
 */
export function StoreOrders() {
  const { hasPermission } = useSession();
  const canManage = hasPermission(PERMISSIONS.ordersStoreManage);
  const { store, outlet, loading: selecting } = useSelection();
  const list = useOrders({ storeId: store?.id }, !selecting, { refreshInterval: useLiveRefreshInterval(REFRESH_MS) });
  const [tab, setTab] = useState<Tab>('reserved');
  const [search, setSearch] = useState('');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const { marking, cancelling, setCancelling, markReady, act } = useStoreOrderActions(list.mutate);
  // The page and its orders replace the skeleton in a deferred (transition) render, which React renders in slices;
  // an SWR answer alone re-renders synchronously, the whole page in one long task (issue 26: total blocking time).
  const settled = useDeferredValue(useNoticesSettled(store?.id, canManage, selecting));
  const listData = useDeferredValue(list.data);
  // The live connection opens once the orders and the notices are on screen (after the page's first content and its
  // largest paint, the payment notice or the list, not alongside them).
  const live = useLiveOrders(listData !== undefined && settled);

  const items = useMemo(() => listData?.items ?? [], [listData]);
  const scope = listData?.scope ?? (canManage ? 'store' : hasPermission(PERMISSIONS.ordersOutletManage) ? 'outlet' : 'own');
  const counts = listData?.counts;
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
  const detailsUsed = useOpenedOnce(selectedId !== null);
  const cancelUsed = useOpenedOnce(cancelling !== null);

  function onSearch(value: string) {
    setSearch(value);
    if (value.trim()) setTab('all');
  }

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
      <StoreOrdersHeader scope={scope} storeName={store?.name} outletName={outlet?.outletName} live={live.status} />
      {/* The notices, the search and the tabs appear together once the notices have answered (no shift). */}
      {!settled ? (
        <OrdersSkeleton />
      ) : (
        <>
          {canManage && <StorePaymentWarning storeId={store?.id} />}
          {canManage && !selecting && <NeedsAttention storeId={store?.id} hideWhenEmpty />}
          {canManage && !selecting && store && <TomorrowsDeliveries storeId={store.id} onView={setSelectedId} />}
          <OrderSearch value={search} onChange={onSearch} onClear={() => setSearch('')} />
        </>
      )}

      <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)} className={settled ? undefined : 'hidden'}>
        <TabsList aria-label="Order status" className="flex w-full flex-nowrap gap-0.5 overflow-x-auto sm:inline-flex sm:w-auto sm:gap-1">
          {TABS.map((t) => (
            <TabsTrigger
              key={t.value}
              value={t.value}
              id={tabTriggerId('store-orders', t.value)}
              aria-controls={tabPanelId('store-orders')}
              className="flex-auto justify-center gap-1.5 px-2 sm:flex-none sm:gap-2 sm:px-3"
            >
              {t.label}
              <span className="rounded-full bg-stone-200 px-1.5 text-xs tabular-nums text-stone-700">
                {listData ? count(t.value) : '–'}
              </span>
            </TabsTrigger>
          ))}
        </TabsList>
        {/* One panel: the list of the chosen tab (TabsPanel: no forced style calculation as the page mounts). */}
        <TabsPanel name="store-orders" value={tab}>
          <OrdersPanel
            key={tab}
            loading={selecting || (!listData && !list.error)}
            failed={Boolean(list.error && !listData)}
            onRetry={() => list.mutate()}
            orders={byTab[tab]}
            emptyText={tab === 'all' && search.trim() ? STORE_ORDERS_MESSAGES.noMatch : STORE_ORDERS_MESSAGES.empty}
            canManage={canManage}
            marking={marking}
            onMarkReady={markReady}
            onView={setSelectedId}
            onComplete={(o) => act(o, () => completeOrder(o.id), STORE_ORDERS_MESSAGES.completedTitle)}
            onCancel={setCancelling}
          />
        </TabsPanel>
      </Tabs>

      {cancelUsed && (
        <Suspense fallback={null}>
          <CancelOrderDialog
            order={cancelling}
            busy={marking === cancelling?.id}
            onClose={() => setCancelling(null)}
            onConfirm={(reason) =>
              cancelling && act(cancelling, () => cancelOrder(cancelling.id, reason), STORE_ORDERS_MESSAGES.cancelledTitle)
            }
          />
        </Suspense>
      )}
      {detailsUsed && (
        <Suspense fallback={null}>
          <StoreOrderDetailsDialog
            order={selected}
            canMarkReady={canManage}
            marking={marking === selected?.id}
            onMarkReady={markReady}
            onClose={() => setSelectedId(null)}
          />
        </Suspense>
      )}
    </div>
  );
}

/** The search box (the All tab's search): a visually hidden label and a Clear search button while text is in. */
function OrderSearch({ value, onChange, onClear }: { value: string; onChange: (value: string) => void; onClear: () => void }) {
  return (
    <div className="relative mb-4 max-w-md">
      <label htmlFor="order-search" className="sr-only">
        Search orders
      </label>
      <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-stone-400" aria-hidden />
      <Input
        id="order-search"
        type="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={STORE_ORDERS_MESSAGES.searchPlaceholder}
        className="px-9 [&::-webkit-search-cancel-button]:hidden"
      />
      {value && (
        <button
          type="button"
          onClick={onClear}
          aria-label="Clear search"
          className="absolute right-2 top-1/2 -translate-y-1/2 rounded p-1 text-stone-500 hover:bg-stone-100 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-600 cursor-pointer"
        >
          <X className="h-4 w-4" aria-hidden />
        </button>
      )}
    </div>
  );
}

/** One tab's panel: loading, the load error with Try again, the empty text, or the order cards. */
/** Two order cards' worth of placeholder while the list (or the notices above it) load. */
function OrdersSkeleton() {
  return (
    <div className="grid gap-4 lg:grid-cols-2" role="status" aria-label="Loading orders">
      {[0, 1].map((i) => (
        <Skeleton key={i} className="h-56" />
      ))}
    </div>
  );
}

function OrdersPanel({
  loading,
  failed,
  onRetry,
  orders,
  emptyText,
  canManage,
  marking,
  onMarkReady,
  onView,
  onComplete,
  onCancel,
}: {
  loading: boolean;
  failed: boolean;
  onRetry: () => unknown;
  orders: Order[];
  emptyText: string;
  canManage: boolean;
  /** The order an action is running on. */
  marking: number | null;
  onMarkReady: (order: Order) => unknown;
  onView: (orderId: number) => void;
  onComplete: (order: Order) => unknown;
  onCancel: (order: Order) => void;
}) {
  if (loading) return <OrdersSkeleton />;
  if (failed) {
    return (
      <EmptyState
        title="Could not load orders"
        description={STORE_ORDERS_MESSAGES.loadFailed}
        action={
          <Button variant="outline" onClick={onRetry}>
            Try again
          </Button>
        }
      />
    );
  }
  if (orders.length === 0) {
    return <EmptyState title={emptyText} />;
  }
  return (
    <ul className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      {orders.map((o) => (
        <li key={o.id} className="min-w-0">
          <StoreOrderCard
            order={o}
            canMarkReady={canManage}
            marking={marking === o.id}
            onMarkReady={() => onMarkReady(o)}
            onView={() => onView(o.id)}
            onComplete={() => onComplete(o)}
            onCancel={() => onCancel(o)}
          />
        </li>
      ))}
    </ul>
  );
}

/** "Store Orders | <store, outlet or Your Orders>" and whose orders are shown, by the list's scope. */
function StoreOrdersHeader({
  scope,
  storeName,
  outletName,
  live,
}: {
  scope: 'store' | 'outlet' | 'own';
  storeName: string | undefined;
  outletName: string | undefined;
  live: LiveStatus;
}) {
  const label = scope === 'store' ? (storeName ?? 'All Stores') : scope === 'outlet' ? (outletName ?? 'Outlet') : 'Your Orders';
  const subtitle =
    scope === 'store'
      ? `Showing all orders for Store: ${storeName ?? 'all your stores'}`
      : scope === 'outlet'
        ? `Showing all orders for Outlet: ${outletName ?? ''}`
        : 'Showing your orders';
  return (
    <header className="mb-5 space-y-1">
      {/* Phones: the label on a line of its own, one line long, so a store name arriving does not wrap the title. */}
      <h1 className="text-2xl font-semibold text-stone-900">
        Store Orders{' '}
        <span className="hidden font-normal text-stone-400 sm:inline" aria-hidden>
          |
        </span>{' '}
        <span className="block truncate font-medium text-stone-700 sm:inline">{label}</span>
      </h1>
      {/* One line at every width: the store's name arriving, or the live badge appearing, does not move the page. */}
      <div className="flex min-h-6 items-center gap-3">
        <p className="min-w-0 truncate text-sm text-stone-500" title={subtitle}>
          {subtitle}
        </p>
        <LiveIndicator status={live} />
      </div>
    </header>
  );
}
