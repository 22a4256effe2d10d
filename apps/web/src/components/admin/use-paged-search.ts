import { useState } from 'react';
import { useDebouncedValue } from '@/lib/use-debounced-value';

/**
 * The search and page of a server-paged admin list: `search` as typed, `q` trimmed and debounced (300 ms)
 * for the query, `page` from 1; typing a search goes back to page 1 (`onSearch`). `searchProps` feed a SearchField.
 */
export function usePagedSearch() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebouncedValue(search.trim(), 300);
  const onSearch = (value: string) => {
    setSearch(value);
    setPage(1);
  };
  return { search, q, page, setPage, onSearch, searchProps: { value: search, onChange: onSearch } };
}
