import { useEffect, useSyncExternalStore } from 'react';
import { joinLiveOrders, liveStatus, watchLiveStatus, type LiveStatus } from './live-orders';

export interface LiveOrders {
  status: LiveStatus;
  /** SWR's refreshInterval for a list: 0 while the stream is live (events revalidate it), else `fallbackMs` (polling). */
  refreshInterval(fallbackMs: number): number;
}

/**
 * Live order updates for Store Orders, Needs attention and My Orders (issue 26 §7): one shared GET /me/events
 * connection while any of them is shown; each order event revalidates every order list (SWR keys /orders…).
 * Lists poll only while the stream is down (status other than `live`).
 */
export function useLiveOrders(enabled = true): LiveOrders {
  useEffect(() => (enabled ? joinLiveOrders() : undefined), [enabled]);
  const status = useSyncExternalStore(watchLiveStatus, liveStatus, liveStatus);
  return { status, refreshInterval: (fallbackMs) => (status === 'live' ? 0 : fallbackMs) };
}
