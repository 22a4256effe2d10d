import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CATALOG_LIMITS } from '@portal/contracts';
import { notify } from '@/components/ui/toaster';
import { CLEAR_FILTERS_EVENT } from '@/lib/selection';
import { useProducts } from '../api/get-products';
import { useBottleSizes } from '../api/get-bottle-sizes';
import { SHOP_TEXTS } from '../components/shop-texts';
import { useShopView } from './use-shop-view';

const PAGE_SIZE = CATALOG_LIMITS.defaultPageSize;

/**
 * One store's shop (spec 001 §2): the saved view, the search box's draft (committed on submit), the products
 * and bottle sizes, one error toast per failing query, a restored page past the end moved to the last page,
 * and "browsing" (the unfiltered list opened from the welcome; reset by Clear All and the clear-filters event).
 * `top` is the element scrolled to on a page change.
 */
export function useStoreShop(storeId: number) {
  const view = useShopView();
  const [draft, setDraft] = useState(view.search);
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

  return { view, draft, setDraft, top, products, sizes, filtered, submit, goToPage, browsing, browse: () => setBrowsing(true), clearAll };
}
