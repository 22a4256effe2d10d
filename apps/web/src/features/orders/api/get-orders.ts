import type { SWRConfiguration } from 'swr';
import { orderListSchema, type OrderList, type OrderStatus } from '@portal/contracts';
import { preloadApi, useApi, type ApiError } from '@/lib/api';

export interface OrdersFilter {
  storeId?: number | null;
  status?: OrderStatus;
  search?: string;
  /** Only the caller's own orders (My Orders). */ mine?: boolean;
}

/** The SWR key (and path) of GET /orders for a filter; empty values are left out. */
export function ordersKey(f: OrdersFilter = {}): string {
  const q = new URLSearchParams();
  if (f.storeId) q.set('storeId', String(f.storeId));
  if (f.status) q.set('status', f.status);
  if (f.search?.trim()) q.set('search', f.search.trim());
  if (f.mine) q.set('mine', 'true');
  const s = q.toString();
  return s ? `/orders?${s}` : '/orders';
}

/** GET /orders: orders in the caller's scope (own, outlet label, or the stores they manage), newest first, with tab counts. */
export function useOrders(f: OrdersFilter, enabled = true, config?: SWRConfiguration<OrderList, ApiError>) {
  return useApi(enabled ? ordersKey(f) : null, orderListSchema, config);
}

/** Starts GET /orders for `f` now; useOrders with the same filter takes the answer (SWR preload). */
export function preloadOrders(f: OrdersFilter): void {
  preloadApi(ordersKey(f), orderListSchema);
}
