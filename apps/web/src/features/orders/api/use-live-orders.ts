import { useEffect, useSyncExternalStore } from 'react';
import { joinLiveOrders, liveStatus, watchLiveStatus, type LiveStatus } from './live-orders';

export interface LiveOrders {
  status: LiveStatus;
  /** SWR's refreshInterval for a list: 0 while the stream is live (events revalidate it), else `fallbackMs` (polling). */
  refreshInterval(fallbackMs: number): number;
}

const pollEvery = (status: LiveStatus, fallbackMs: number) => (status === 'live' ? 0 : fallbackMs);

/**
 * Live order updates for Store Orders, Needs attention and My Orders (issue 26 §7): one shared GET /me/events
 * connection while any of them is shown; each order event revalidates every order list (SWR keys /orders…).
 * Lists poll only while the stream is down (status other than `live`). A list passes `enabled` once its first
 * answer is on screen: the stream then opens after the page's first content is painted, not alongside its data on
 * a page load (issue 26: the signed-in screens' largest paint); its first open asks the lists again unless no order
 * event happened since they were read (live-orders.ts: GET /me/boot's orderFeedSeq against the stream's `ready` id).
 */
export function useLiveOrders(enabled = true): LiveOrders {
  useEffect(() => (enabled ? joinLiveOrders() : undefined), [enabled]);
  const status = useSyncExternalStore(watchLiveStatus, liveStatus, liveStatus);
  return { status, refreshInterval: (fallbackMs) => pollEvery(status, fallbackMs) };
}

/**
 * SWR's refreshInterval for an order list, for a list whose `useLiveOrders` comes after it (it joins once the
 * list's answer is shown): 0 while the stream is live, else `fallbackMs`; re-renders when the status changes.
 */
export function useLiveRefreshInterval(fallbackMs: number): number {
  return pollEvery(useSyncExternalStore(watchLiveStatus, liveStatus, liveStatus), fallbackMs);
}
