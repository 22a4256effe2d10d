import type { MyOutlet, StoreSummary } from '@portal/contracts';

/** The portal's default title (the default board name), shown when signed out and on /auth, /invitation/accept, /payment. */
export const DEFAULT_TITLE = 'Liquor Ordering Portal';

/** Outlet name in the profile menu (spec 000 §2): the admin outlet is 'System default outlet'; else name, code, 'Outlet {id}'. */
export function outletMenuName(o: Pick<MyOutlet, 'outletId' | 'outletName' | 'outletCode' | 'isAdminOutlet'>): string {
  if (o.isAdminOutlet) return 'System default outlet';
  return o.outletName || o.outletCode || `Outlet ${o.outletId}`;
}

/** The header's outlet display (spec 000 §2): error, loading, none, else name → code → 'Outlet {id}'. */
export function outletHeaderText({
  error,
  loading,
  outlet,
}: {
  error: boolean;
  loading: boolean;
  outlet: Pick<MyOutlet, 'outletId' | 'outletName' | 'outletCode'> | null;
}): string {
  if (error) return 'Error loading outlet';
  if (!outlet) return loading ? 'Loading outlet...' : 'No outlet assigned';
  return outlet.outletName || outlet.outletCode || `Outlet ${outlet.outletId}`;
}

/** Store name (falls back to its warehouse code, spec 000 §3). */
export const storeName = (s: Pick<StoreSummary, 'id' | 'name' | 'warehouseCode'>) => s.name || s.warehouseCode || `Store ${s.id}`;

/** Store location: city and state joined, or null. */
export function storeLocation(s: Pick<StoreSummary, 'city' | 'state'>): string | null {
  const parts = [s.city, s.state].filter(Boolean);
  return parts.length ? parts.join(', ') : null;
}
