import type { SWRInfiniteResponse } from 'swr/infinite';
import type { ApiError } from './api';

/**
 * The state of a cursor-paged list loaded with useSWRInfinite (pages `{ items, nextCursor }`): every item so
 * far, whether there is a next page, loading flags, the error, `loadMore()` (one more page) and `reload()`.
 */
export function cursorPages<P extends { items: readonly unknown[]; nextCursor: unknown }>(swr: SWRInfiniteResponse<P, ApiError>) {
  const pages = swr.data ?? [];
  return {
    pages,
    items: pages.flatMap((p) => p.items) as P['items'][number][],
    hasMore: Boolean(pages[pages.length - 1]?.nextCursor),
    isLoading: swr.isLoading,
    isLoadingMore: swr.isValidating && swr.size > pages.length,
    error: swr.error,
    loadMore: () => swr.setSize(swr.size + 1),
    reload: () => swr.mutate(),
  };
}
