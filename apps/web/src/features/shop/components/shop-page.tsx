import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { AlertTriangle, Store } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState, PageSpinner } from '@/components/ui/feedback';
import { useSelection } from '@/lib/selection';
import { useStoreShop } from '../hooks/use-store-shop';
import type { ProductHandlers } from './product-actions';
import { ShopFilters } from './shop-filters';
import { Results } from './shop-results';
import { SHOP_TEXTS } from './shop-texts';
import { ViewToggle } from './view-toggle';

export { SHOP_TEXTS } from './shop-texts';

/**
 * The shop (spec 001 §2): the selected store's catalog with search (Enter or button), size filter,
 * Clear All, grid/list view, pagination and the four display states. The view is kept in local storage.
 * Cart actions, the cart summary and the cart panel come from the route (features do not import each other).
 */
export function ShopPage({
  handlers,
  cartSummary,
  cartPanel,
}: {
  handlers: ProductHandlers;
  cartSummary?: ReactNode;
  cartPanel?: ReactNode;
}) {
  const { store, outlets, outletsLoading, outletsError, problem, loading: selectionLoading } = useSelection();
  if (selectionLoading) return <PageSpinner />;
  if (!store && outletsError) {
    // Spec 000 §8 "Outlets fetch": the outlets call failed — say so, not "No store selected" (issue 26 §5).
    return (
      <div className="mx-auto max-w-7xl px-4 py-10" role="alert">
        <EmptyState
          icon={<AlertTriangle className="h-10 w-10 text-red-600" />}
          title={SHOP_TEXTS.outletsFailedTitle}
          description={problem ?? SHOP_TEXTS.outletsFailed(outletsError.message)}
        />
      </div>
    );
  }
  if (!outletsLoading && !outletsError && outlets !== undefined && outlets.length === 0) {
    // No outlets: say so in the spec's words and offer the request (issue 9 §4), not a loop to the menu.
    return (
      <div className="mx-auto max-w-7xl px-4 py-10">
        <EmptyState
          icon={<Store className="h-10 w-10" />}
          title="No outlets assigned"
          description={SHOP_TEXTS.noOutlets}
          action={
            <Button asChild>
              <Link to="/profile#my-outlets">{SHOP_TEXTS.requestOutlets}</Link>
            </Button>
          }
        />
      </div>
    );
  }
  if (!store) {
    return (
      <div className="mx-auto max-w-7xl px-4 py-10">
        <EmptyState icon={<Store className="h-10 w-10" />} title={SHOP_TEXTS.noStore} description={SHOP_TEXTS.noStoreHint} />
      </div>
    );
  }
  return (
    <StoreShop
      key={store.id}
      storeId={store.id}
      storeName={store.name}
      handlers={handlers}
      cartSummary={cartSummary}
      cartPanel={cartPanel}
    />
  );
}

function StoreShop({
  storeId,
  storeName,
  handlers,
  cartSummary,
  cartPanel,
}: {
  storeId: number;
  storeName: string;
  handlers: ProductHandlers;
  cartSummary?: ReactNode;
  cartPanel?: ReactNode;
}) {
  const shop = useStoreShop(storeId);
  const { view } = shop;
  return (
    <div ref={shop.top} className="mx-auto max-w-7xl scroll-mt-20 px-4 py-6 sm:py-8">
      <div className="mb-5 flex flex-wrap items-center justify-between gap-3">
        <h1 className="min-w-0 text-xl font-semibold text-stone-900 sm:text-2xl">
          Shop <span className="font-normal text-stone-400">|</span> <span className="break-words">{storeName}</span>
        </h1>
        <div className="flex items-center gap-2">
          <ViewToggle value={view.view} onChange={view.setView} />
          {cartSummary}
        </div>
      </div>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-5">
          <ShopFilters
            draft={shop.draft}
            onDraftChange={shop.setDraft}
            onSubmit={shop.submit}
            size={view.size}
            sizes={shop.sizes.data?.items}
            onSizeChange={view.setSize}
            filtered={shop.filtered}
            onClear={shop.clearAll}
          />

          <Results
            view={view.view}
            filtered={shop.filtered}
            browsing={shop.browsing}
            onBrowse={shop.browse}
            products={shop.products}
            handlers={handlers}
            onPageChange={shop.goToPage}
            onClear={shop.clearAll}
          />
        </div>

        {/* Sticky below the 4 rem sticky header (issue 9 §9). */}
        {cartPanel && (
          <aside className="hidden lg:block" aria-label="Cart">
            <div className="sticky top-20">{cartPanel}</div>
          </aside>
        )}
      </div>
    </div>
  );
}
