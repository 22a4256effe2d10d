import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Calculator, Search, Store } from 'lucide-react';
import type { Product } from '@portal/contracts';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState, PageSpinner, Spinner } from '@/components/ui/feedback';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/field';
import { ProductImage } from '@/components/ui/product-image';
import { useSelection } from '@/lib/selection';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/cn';
import { useProductSearch, useStoreProduct } from '../api/get-product';
import { PricingAnalysis } from './pricing-analysis';

/** Typed search waits this long after the last keystroke (spec 001 §9). */
export const SEARCH_DEBOUNCE_MS = 300;
export const CALCULATOR_SEARCH_PLACEHOLDER = 'Search by name or product number...';

/**
 * /pricing-calculator (spec 000 §2): search the current store's products and see the Pricing Analysis
 * of the chosen one. `?code=` pre-searches that item code and selects the product.
 */
export function PricingCalculatorPage() {
  const { store, loading } = useSelection();
  if (loading) return <PageSpinner />;
  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
      <div className="mb-6 flex items-center gap-3">
        <Calculator className="h-7 w-7 text-brand-700" aria-hidden />
        <div>
          <h1 className="text-2xl font-semibold text-stone-900">Pricing Calculator</h1>
          {store && <p className="text-sm text-stone-500">Products of {store.name}</p>}
        </div>
      </div>
      {store ? (
        <StoreCalculator key={store.id} storeId={store.id} />
      ) : (
        <EmptyState
          icon={<Store className="h-10 w-10" />}
          title="No store selected"
          description="Please select an outlet from your profile menu to start shopping."
        />
      )}
    </div>
  );
}

function StoreCalculator({ storeId }: { storeId: number }) {
  const [params, setParams] = useSearchParams();
  const code = params.get('code')?.trim() || null;
  const [text, setText] = useState(code ?? '');
  const [search, setSearch] = useState(code ?? '');
  const [picked, setPicked] = useState<Product | null>(null);
  const searchId = useId();
  const results = useProductSearch(storeId, search);
  const byCode = useStoreProduct(storeId, picked ? null : code);
  const selected = picked ?? byCode.data ?? null;

  useEffect(() => {
    const t = setTimeout(() => setSearch(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);

  const choose = (p: Product) => {
    setPicked(p);
    setParams({ code: p.code }, { replace: true });
  };

  const items = search.trim() ? (results.data?.items ?? []) : [];
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_32rem]">
      <Card className="self-start">
        <CardContent className="space-y-4 pt-5">
          <form
            role="search"
            onSubmit={(e) => {
              e.preventDefault();
              setSearch(text);
            }}
            className="space-y-1.5"
          >
            <Label htmlFor={searchId}>Search products</Label>
            <div className="relative">
              <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-stone-400" aria-hidden />
              <Input
                id={searchId}
                type="search"
                value={text}
                onChange={(e) => setText(e.target.value)}
                placeholder={CALCULATOR_SEARCH_PLACEHOLDER}
                className="pl-9"
                maxLength={100}
              />
            </div>
          </form>
          <SearchResults
            searching={Boolean(search.trim())}
            loading={results.isLoading}
            items={items}
            selectedCode={selected?.code}
            onChoose={choose}
          />
        </CardContent>
      </Card>

      <Card className="self-start" aria-live="polite">
        <CardHeader>
          <CardTitle>Pricing Analysis</CardTitle>
          {selected && (
            <p className="text-sm text-stone-600">
              {selected.name} · <span className="font-mono">#{selected.code}</span> · {selected.bottleSize}
            </p>
          )}
        </CardHeader>
        <CardContent>
          {selected ? (
            <PricingAnalysis key={selected.code} product={selected} />
          ) : code && byCode.isLoading ? (
            <div className="flex justify-center py-6">
              <Spinner label="Loading product" />
            </div>
          ) : code && byCode.error ? (
            <p className="text-sm text-stone-600">No product with item code {code} in this store.</p>
          ) : (
            <p className="text-sm text-stone-500">Choose a product from the search results.</p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** The calculator's search results: the prompt, a spinner, none found, or the products (the chosen one pressed). */
function SearchResults({
  searching,
  loading,
  items,
  selectedCode,
  onChoose,
}: {
  searching: boolean;
  loading: boolean;
  items: Product[];
  selectedCode: string | undefined;
  onChoose: (product: Product) => void;
}) {
  return !searching ? (
    <p className="py-6 text-center text-sm text-stone-500">Search for a product to see its pricing analysis.</p>
  ) : loading ? (
    <div className="flex justify-center py-6">
      <Spinner label="Searching" />
    </div>
  ) : items.length === 0 ? (
    <p className="py-6 text-center text-sm text-stone-500">No products found matching your criteria.</p>
  ) : (
    <ul className="divide-y divide-stone-100" aria-label="Search results">
      {items.map((p) => (
        <li key={p.code}>
          <button
            type="button"
            onClick={() => onChoose(p)}
            aria-pressed={selectedCode === p.code}
            className={cn(
              'flex w-full items-center gap-3 rounded-md px-2 py-2.5 text-left cursor-pointer hover:bg-stone-50',
              selectedCode === p.code && 'bg-brand-50 hover:bg-brand-50',
            )}
          >
            <ProductImage category={p.category} name={p.name} className="h-12 w-10 shrink-0" />
            <span className="min-w-0 flex-1">
              <span className="block truncate text-sm font-medium text-stone-900">{p.name}</span>
              <span className="block text-xs text-stone-500">
                <span className="font-mono">#{p.code}</span> · {p.bottleSize}
              </span>
            </span>
            <span className="text-sm font-semibold tabular-nums">{formatMoney(p.price)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
