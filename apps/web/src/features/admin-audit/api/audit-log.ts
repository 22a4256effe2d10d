import useSWRInfinite from 'swr/infinite';
import { auditLogSchema, type AuditEntry } from '@portal/contracts';
import { getJson, type ApiError } from '@/lib/api';
import { cursorPages } from '@/lib/cursor-pages';

export interface AuditFilter {
  actor?: string;
  action?: string;
  entity?: string;
}
type Page = { items: AuditEntry[]; nextCursor: number | null };

/** GET /admin/audit-log, newest first, 50 a page; `loadMore()` follows the cursor. */
export function useAuditLog(filter: AuditFilter) {
  const swr = useSWRInfinite<Page, ApiError>(
    (index, prev: Page | null) => {
      if (prev && !prev.nextCursor) return null;
      const q = new URLSearchParams({ limit: '50' });
      for (const k of ['actor', 'action', 'entity'] as const) {
        const v = filter[k]?.trim();
        if (v) q.set(k, v);
      }
      if (index > 0 && prev?.nextCursor) q.set('cursor', String(prev.nextCursor));
      return `/admin/audit-log?${q.toString()}`;
    },
    (p: string) => getJson(p, auditLogSchema),
    { revalidateOnFocus: false, revalidateFirstPage: false },
  );
  const { items, ...state } = cursorPages(swr);
  return { entries: items, ...state };
}
