import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { AlertTriangle, LayoutGrid, List, PackageSearch, Search, Store, Wine, X } from 'lucide-react';
import { CATALOG_LIMITS } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { EmptyState, PageSpinner, Skeleton } from '@/components/ui/feedback';
import { notify } from '@/components/ui/toaster';
import { CLEAR_FILTERS_EVENT, useSelection } from '@/lib/selection';
import { cn } from '@/lib/cn';
import { useProducts } from '../api/get-products';
import { useBottleSizes } from '../api/get-bottle-sizes';
import { useShopView, type ViewMode } from '../hooks/use-shop-view';
import { Pagination } from './pagination';
import { ProductCard } from './product-card';
import { ProductRow } from './product-row';
import type { ProductHandlers } from './product-actions';

/** Texts of the shop page (spec 001 §2 and §8), verbatim. */
export const SHOP_TEXTS = {
  noStore: 'No store selected',
  noStoreHint: 'Please select an outlet from your profile menu to start shopping.',
  /** Spec 000 §8 'No outlets'. */
  noOutlets: 'No outlets assigned to your account. Please contact support.',
  requestOutlets: 'Request Outlets',
  searchPlaceholder: 'Search by name or item code...',
  allSizes: 'All Sizes',
  clearAll: 'Clear All',
  noResults: 'No products found',
  noResultsLine1: 'No products found matching your criteria.',
  noResultsLine2: 'Try adjusting your search criteria or size filter.',
  welcome: 'Ready to start ordering?',
  browseAll: 'Browse all products',
  loadError: 'Failed to load store inventory. Please try again.',
  noViewPermission: "You don't have permission to view items. Please contact your administrator.",
} as const;

const PAGE_SIZE = CATALOG_LIMITS.defaultPageSize;

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
  const { store, outlets, outletsLoading, outletsError, loading: selectionLoading } = useSelection();
  if (selectionLoading) return <PageSpinner />;
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
  const view = useShopView();
  const [draft, setDraft] = useState(view.search);
  const searchId = useId();
  const sizeId = useId();
  const top = useRef<HTMLDivElement>(null);
  const products = useProducts(storeId, { search: view.search, size: view.size, page: view.page });
  const sizes = useBottleSizes(storeId);
  const filtered = Boolean(view.search || view.size);

  // The clear-filters event (or Clear All) empties the committed search: mirror it in the box.
  useEffect(() => {
    setDraft(view.search);
  }, [view.search]);

  // One toast per failing query, not one per SWR retry.
  const toastedFor = useRef<string | null>(null);
  const queryKey = `${view.search}|${view.size}|${view.page}`;
  useEffect(() => {
    if (!products.error) {
      if (products.data) toastedFor.current = null;
      return;
    }
    if (products.error.status !== 403 && toastedFor.current !== queryKey) {
      toastedFor.current = queryKey;
      notify({ title: 'Error', description: SHOP_TEXTS.loadError, variant: 'destructive' });
    }
  }, [products.error, products.data, queryKey]);

  // A restored page past the end (the catalog shrank): go to the last page.
  const data = products.data;
  const { page, setPage } = view;
  useEffect(() => {
    if (data && data.items.length === 0 && data.total > 0 && page > 1) setPage(Math.max(1, Math.ceil(data.total / PAGE_SIZE)));
  }, [data, page, setPage]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    view.setSearch(draft);
  };
  const goToPage = (page: number) => {
    view.setPage(page);
    top.current?.scrollIntoView?.({ block: 'start' });
    window.scrollTo?.({ top: 0, behavior: 'smooth' });
  };
  // Spec 001 §2 display states: without a search or size filter the shop shows the welcome, not the whole
  // catalogue under it (issue 9 §9); 'Browse all products' opens the unfiltered list. A restored page > 1 browses.
  const [browsing, setBrowsing] = useState(view.page > 1);
  useEffect(() => {
    const reset = () => setBrowsing(false);
    window.addEventListener(CLEAR_FILTERS_EVENT, reset);
    return () => window.removeEventListener(CLEAR_FILTERS_EVENT, reset);
  }, []);
  const clearAll = () => {
    setDraft('');
    setBrowsing(false);
    view.clearFilters();
  };

  return (
    <div ref={top} className="mx-auto max-w-7xl scroll-mt-20 px-4 py-6 sm:py-8">
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
          <div className="rounded-lg border border-stone-200 bg-white p-3 shadow-sm sm:p-4">
            <div className="flex flex-col gap-3 md:flex-row md:items-end">
              <form role="search" onSubmit={submit} className="flex min-w-0 flex-1 flex-col gap-1.5">
                <Label htmlFor={searchId}>Search products</Label>
                <div className="flex gap-2">
                  <div className="relative min-w-0 flex-1">
                    <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-stone-400" aria-hidden />
                    <Input
                      id={searchId}
                      type="search"
                      value={draft}
                      maxLength={CATALOG_LIMITS.maxSearchLength}
                      onChange={(e) => setDraft(e.target.value)}
                      placeholder={SHOP_TEXTS.searchPlaceholder}
                      className="pl-9"
                      enterKeyHint="search"
                    />
                  </div>
                  <Button type="submit" className="px-3 sm:px-4">
                    <Search className="h-4 w-4 sm:hidden" aria-hidden />
                    <span className="sr-only sm:not-sr-only">Search</span>
                  </Button>
                </div>
              </form>
              <div className="flex items-end gap-2">
                <div className="flex min-w-0 flex-1 flex-col gap-1.5 md:w-44 md:flex-none">
                  <Label htmlFor={sizeId}>Bottle size</Label>
                  <Select
                    id={sizeId}
                    value={view.size ?? ''}
                    onChange={(e) => view.setSize(e.target.value ? Number(e.target.value) : null)}
                  >
                    <option value="">{SHOP_TEXTS.allSizes}</option>
                    {(sizes.data?.items ?? []).map((s) => (
                      <option key={s.id} value={s.id}>
                        {s.name}
                      </option>
                    ))}
                    {view.size && !sizes.data?.items.some((s) => s.id === view.size) && (
                      <option value={view.size}>Size #{view.size}</option>
                    )}
                  </Select>
                </div>
                {filtered && (
                  <Button variant="ghost" onClick={clearAll} className="text-brand-800">
                    <X className="h-4 w-4" aria-hidden />
                    {SHOP_TEXTS.clearAll}
                  </Button>
                )}
              </div>
            </div>
          </div>

          <Results
            view={view.view}
            filtered={filtered}
            browsing={browsing}
            onBrowse={() => setBrowsing(true)}
            products={products}
            handlers={handlers}
            onPageChange={goToPage}
            onClear={clearAll}
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

function ViewToggle({ value, onChange }: { value: ViewMode; onChange: (v: ViewMode) => void }) {
  const item = (mode: ViewMode, label: string, icon: ReactNode) => (
    <button
      type="button"
      onClick={() => onChange(mode)}
      aria-pressed={value === mode}
      aria-label={label}
      title={label}
      className={cn(
        'flex h-9 w-9 items-center justify-center rounded-md cursor-pointer transition-colors',
        value === mode ? 'bg-white text-brand-800 shadow-sm' : 'text-stone-500 hover:text-stone-900',
      )}
    >
      {icon}
    </button>
  );
  return (
    <div className="flex rounded-lg bg-stone-100 p-0.5" role="group" aria-label="View">
      {item('grid', 'Grid view', <LayoutGrid className="h-4 w-4" aria-hidden />)}
      {item('list', 'List view', <List className="h-4 w-4" aria-hidden />)}
    </div>
  );
}

function Results({
  view,
  filtered,
  browsing,
  onBrowse,
  products,
  handlers,
  onPageChange,
  onClear,
}: {
  view: ViewMode;
  filtered: boolean;
  browsing: boolean;
  onBrowse: () => void;
  products: ReturnType<typeof useProducts>;
  handlers: ProductHandlers;
  onPageChange: (page: number) => void;
  onClear: () => void;
}) {
  const { data, error, isLoading, mutate } = products;
  if (error && !data) {
    const denied = error.status === 403;
    return (
      <EmptyState
        icon={<AlertTriangle className="h-10 w-10" />}
        title={denied ? 'Access Denied' : 'Error'}
        description={denied ? SHOP_TEXTS.noViewPermission : SHOP_TEXTS.loadError}
        action={
          denied ? undefined : (
            <Button variant="outline" onClick={() => mutate()}>
              Try again
            </Button>
          )
        }
      />
    );
  }
  if (isLoading || !data) return <ResultsSkeleton view={view} />;
  if (data.total === 0) {
    return (
      <EmptyState
        icon={<PackageSearch className="h-10 w-10" />}
        title={SHOP_TEXTS.noResults}
        description={
          <>
            {SHOP_TEXTS.noResultsLine1}
            <br />
            {SHOP_TEXTS.noResultsLine2}
          </>
        }
        action={
          filtered ? (
            <Button variant="outline" onClick={onClear}>
              {SHOP_TEXTS.clearAll}
            </Button>
          ) : undefined
        }
      />
    );
  }
  if (!filtered && !browsing) {
    return (
      <section
        aria-label="Welcome"
        className="flex flex-col items-center gap-3 rounded-lg border border-brand-200 bg-brand-50 px-6 py-10 text-center"
      >
        <Wine className="h-10 w-10 text-brand-700" aria-hidden />
        <h2 className="text-lg font-semibold text-brand-950">{SHOP_TEXTS.welcome}</h2>
        <p className="max-w-md text-sm text-brand-900">
          Search by name or item code, or filter by bottle size, to find what you need among this store's{' '}
          {data.total.toLocaleString('en-US')} products.
        </p>
        <Button variant="outline" onClick={onBrowse} className="mt-1">
          <List className="h-4 w-4" aria-hidden />
          {SHOP_TEXTS.browseAll} ({data.total.toLocaleString('en-US')})
        </Button>
      </section>
    );
  }
  return (
    <section aria-label="Products" className="space-y-4">
      {view === 'grid' ? (
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 xl:grid-cols-3">
          {data.items.map((p) => (
            <ProductCard key={p.code} product={p} handlers={handlers} />
          ))}
        </div>
      ) : (
        <ul className="divide-y divide-stone-100 overflow-hidden rounded-lg border border-stone-200 bg-white shadow-sm">
          {data.items.map((p) => (
            <ProductRow key={p.code} product={p} handlers={handlers} />
          ))}
        </ul>
      )}
      <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onPageChange={onPageChange} className="pt-2" />
    </section>
  );
}

function ResultsSkeleton({ view }: { view: ViewMode }) {
  return (
    <div role="status" aria-live="polite">
      <span className="sr-only">Loading products</span>
      {view === 'grid' ? (
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4">
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="overflow-hidden rounded-lg border border-stone-200 bg-white">
              <Skeleton className="h-28 rounded-none sm:h-36" />
              <div className="space-y-2 p-4">
                <Skeleton className="h-4 w-4/5" />
                <Skeleton className="h-3 w-1/2" />
                <Skeleton className="h-6 w-1/3" />
                <Skeleton className="h-8 w-full" />
              </div>
            </div>
          ))}
        </div>
      ) : (
        <div className="space-y-2">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-16 w-full" />
          ))}
        </div>
      )}
    </div>
  );
}
