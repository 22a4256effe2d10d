import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { ADMIN_LIST_PAGE_SIZES } from '@portal/contracts';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import type { SortState } from './data-table';

/** URL keys of the list state (the admin tab itself is `tab`). */
const KEYS = { q: 'q', page: 'page', size: 'size', sort: 'sort' } as const;

/** A sort as the API and the URL write it: `name` or `-name`. */
export const sortParam = (s: SortState | null) => (s ? `${s.dir === 'desc' ? '-' : ''}${s.key}` : null);
const parseSort = (v: string | null): SortState | null =>
  v ? { key: v.replace(/^-/, ''), dir: v.startsWith('-') ? 'desc' : 'asc' } : null;
const positive = (v: string | null, fallback: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
};

/**
 * The state of a server-paged admin list, kept in the URL (`?q=&page=&size=&sort=&<filters>`) so Back from an
 * edit screen returns to the same page, search, sort and filters (ARCHITECTURE §5 "Administration at scale").
 * `search` is the box as typed; it reaches the URL (and `q`) trimmed, 300 ms after typing stops (spec 002
 * §9). Changing the search, a filter, the sort or the page size goes back to page 1. `query(extra)` is the
 * API query string: page, pageSize, search, sort and the filters that are set (a filter named `_…` is the
 * screen's own, e.g. a chosen outlet's name, and is not sent). URL updates replace the
 * history entry (paging through a list does not fill Back).
 */
export function usePagedSearch<F extends string = never>(
  opts: { defaultPageSize?: number; filters?: readonly F[]; defaultSort?: SortState | null } = {},
) {
  const { defaultPageSize = 25, filters = [], defaultSort = null } = opts;
  const [params, setParams] = useSearchParams();
  // The navigation state (e.g. the admin dashboard's `activeTab`) stays with the entry the list updates.
  const { state } = useLocation() as { state: unknown };
  const urlQ = params.get(KEYS.q) ?? '';
  const [search, setSearch] = useState(urlQ);
  const typed = useDebouncedValue(search.trim(), 300);

  const update = useCallback(
    (changes: Record<string, string | number | null | undefined>, resetPage = true) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes)) {
            if (v === null || v === undefined || v === '') next.delete(k);
            else next.set(k, String(v));
          }
          if (resetPage && !('page' in changes)) next.delete(KEYS.page);
          return next;
        },
        { replace: true, state },
      ),
    [setParams, state],
  );

  // The typed search reaches the URL once it settles; a URL changed elsewhere (Back) refills the box.
  useEffect(() => {
    if (typed !== urlQ.trim()) update({ [KEYS.q]: typed });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the typed value settles
  }, [typed]);
  useEffect(() => {
    setSearch((s) => (s.trim() === urlQ.trim() ? s : urlQ));
  }, [urlQ]);

  const page = positive(params.get(KEYS.page), 1);
  const size = positive(params.get(KEYS.size), defaultPageSize);
  const pageSize = Math.min(size, 100);
  const sort = parseSort(params.get(KEYS.sort)) ?? defaultSort;
  const filterValues = useMemo(
    () => Object.fromEntries(filters.map((f) => [f, params.get(f) ?? ''])) as Record<F, string>,
    // eslint-disable-next-line react-hooks/exhaustive-deps -- filters is a constant list per list
    [params],
  );
  const q = urlQ.trim();

  /** The filters alone (no page, size or sort), for "select all matching" and the export. */
  const filterQuery = () => {
    const p = new URLSearchParams(query());
    for (const k of ['page', 'pageSize', 'sort']) p.delete(k);
    const s = sortParam(sort);
    if (s) p.set('sort', s);
    return p.toString();
  };
  const query = (extra: Record<string, string | number | undefined> = {}) => {
    const p = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
    if (q) p.set('search', q);
    const s = sortParam(sort);
    if (s) p.set('sort', s);
    for (const f of filters) if (filterValues[f] && !f.startsWith('_')) p.set(f, filterValues[f]);
    for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== '') p.set(k, String(v));
    return p.toString();
  };

  return {
    search,
    q,
    page,
    pageSize,
    sort,
    filters: filterValues,
    setPage: (p: number) => update({ [KEYS.page]: p > 1 ? p : null }, false),
    setPageSize: (n: number) => update({ [KEYS.size]: n === defaultPageSize ? null : n }),
    setSort: (s: SortState | null) => update({ [KEYS.sort]: sortParam(s) }),
    setFilter: (key: F, value: string) => update({ [key]: value }),
    setFilters: (values: Partial<Record<F, string>>) => update(values),
    clearFilters: () => update(Object.fromEntries([...filters.map((f) => [f, null]), [KEYS.q, null]])),
    onSearch: setSearch,
    query,
    filterQuery,
    searchProps: { value: search, onChange: setSearch },
    pageSizes: ADMIN_LIST_PAGE_SIZES,
  };
}

/** What usePagedSearch answers (for components taking the list state). */
export type PagedSearch<F extends string = never> = ReturnType<typeof usePagedSearch<F>>;
