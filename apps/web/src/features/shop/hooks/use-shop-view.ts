import { useCallback, useEffect, useState } from 'react';
import { CLEAR_FILTERS_EVENT, SHOP_STATE_KEY } from '@/lib/selection';

export type ViewMode = 'grid' | 'list';

/** The shop view kept in local storage (spec 001 §2): search, size filter, page and view mode. */
export interface ShopView {
  search: string;
  size: number | null;
  page: number;
  view: ViewMode;
}

export const DEFAULT_SHOP_VIEW: ShopView = { search: '', size: null, page: 1, view: 'grid' };

/** Reads the saved view; anything malformed falls back to the defaults field by field. */
export function readShopView(): ShopView {
  try {
    const raw = JSON.parse(localStorage.getItem(SHOP_STATE_KEY) ?? 'null') as Partial<ShopView> | null;
    if (!raw || typeof raw !== 'object') return DEFAULT_SHOP_VIEW;
    return {
      search: typeof raw.search === 'string' ? raw.search.slice(0, 100) : '',
      size: typeof raw.size === 'number' && Number.isInteger(raw.size) && raw.size > 0 ? raw.size : null,
      page: typeof raw.page === 'number' && Number.isInteger(raw.page) && raw.page > 0 ? raw.page : 1,
      view: raw.view === 'list' ? 'list' : 'grid',
    };
  } catch {
    return DEFAULT_SHOP_VIEW;
  }
}

/**
 * The shop view state: restored from local storage on load, saved on every change, reset to the
 * defaults by the clear-filters event (outlet or store switch). A new search or size returns to page 1.
 */
export function useShopView() {
  const [state, setState] = useState<ShopView>(readShopView);

  useEffect(() => {
    try {
      localStorage.setItem(SHOP_STATE_KEY, JSON.stringify(state));
    } catch {
      /* storage unavailable */
    }
  }, [state]);

  useEffect(() => {
    const reset = () => setState(DEFAULT_SHOP_VIEW);
    window.addEventListener(CLEAR_FILTERS_EVENT, reset);
    return () => window.removeEventListener(CLEAR_FILTERS_EVENT, reset);
  }, []);

  const setSearch = useCallback((search: string) => setState((s) => ({ ...s, search: search.trim(), page: 1 })), []);
  const setSize = useCallback((size: number | null) => setState((s) => ({ ...s, size, page: 1 })), []);
  const setPage = useCallback((page: number) => setState((s) => ({ ...s, page })), []);
  const setView = useCallback((view: ViewMode) => setState((s) => ({ ...s, view })), []);
  const clearFilters = useCallback(() => setState((s) => ({ ...s, search: '', size: null, page: 1 })), []);

  return { ...state, setSearch, setSize, setPage, setView, clearFilters };
}
