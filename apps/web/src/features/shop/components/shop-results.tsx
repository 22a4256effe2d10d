import { AlertTriangle, List, PackageSearch, Wine } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState, Skeleton } from '@/components/ui/feedback';
import type { useProducts } from '../api/get-products';
import type { ViewMode } from '../hooks/use-shop-view';
import { Pagination } from './pagination';
import { ProductCard } from './product-card';
import { ProductRow } from './product-row';
import type { ProductHandlers } from './product-actions';
import { SHOP_TEXTS } from './shop-texts';
import { formatCount } from '@/lib/format';

/**
 * The shop's results (spec 001 §2 display states): the load error (Access Denied on 403, else Try again),
 * the skeleton, No products found, the welcome (no filter and not browsing) or the products with pagination.
 */
export function Results({
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
  // The welcome needs no products: it shows at once (the count fills in when the first page answers), unless the
  // store turns out to have none (issue 26: the screen's largest text is there before its data).
  if (!filtered && !browsing && !(data && data.total === 0)) return <Welcome total={data?.total ?? null} onBrowse={onBrowse} />;
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

/**
 * Without a search or size filter the shop welcomes instead of listing the whole catalogue (issue 9 §9); `total` is
 * the store's product count, null while the first page is on its way (a placeholder of the count's width shows).
 */
function Welcome({ total, onBrowse }: { total: number | null; onBrowse: () => void }) {
  const count =
    total === null ? (
      <>
        <span className="inline-block h-4 w-9 animate-pulse rounded bg-brand-100 align-middle" aria-hidden />
        <span className="sr-only">…</span>
      </>
    ) : (
      formatCount(total)
    );
  return (
    <section
      aria-label="Welcome"
      className="flex flex-col items-center gap-3 rounded-lg border border-brand-200 bg-brand-50 px-6 py-10 text-center"
    >
      <Wine className="h-10 w-10 text-brand-700" aria-hidden />
      <h2 className="text-lg font-semibold text-brand-950">{SHOP_TEXTS.welcome}</h2>
      <p className="max-w-md text-sm text-brand-900">
        Search by name or item code, or filter by bottle size, to find what you need among this store's {count} products.
      </p>
      <Button variant="outline" onClick={onBrowse} className="mt-1">
        <List className="h-4 w-4" aria-hidden />
        <span>
          {SHOP_TEXTS.browseAll} ({count})
        </span>
      </Button>
    </section>
  );
}
