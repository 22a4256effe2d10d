import { useEffect, useState } from 'react';
import type { OrderDetail } from '@portal/contracts';
import { getOrder } from '../api/get-order';
import { getLatestOrder } from '../api/get-latest-order';
import { retry } from '@/lib/retry';

/** Confirmation loading (spec 002 §4, §9): up to 5 attempts per id, 600 ms apart. */
export const CONFIRMATION_ATTEMPTS = 5;
export const CONFIRMATION_RETRY_MS = 600;

export type ConfirmationState =
  { state: 'loading' } | { state: 'found'; order: OrderDetail } | { state: 'redirect'; orderId: number } | { state: 'not-found' };

/** GET /orders/{id} up to 5 times, 600 ms apart (an order not visible yet is tried again); null when every attempt failed. */
function loadWithRetries(orderId: number, alive: () => boolean): Promise<OrderDetail | null> {
  return retry(() => getOrder(orderId), { attempts: CONFIRMATION_ATTEMPTS, delayMs: CONFIRMATION_RETRY_MS, alive }).catch(() => null);
}

/**
 * Finds the order to confirm: the id in the URL (with retries), else the remembered last order id
 * (with retries), else the caller's latest order; the fallbacks answer `redirect` so the URL names the
 * order shown. `fallbacks` is false on a page reached by such a redirect (no loops).
 */
export function useConfirmationOrder(orderId: number | null, rememberedId: number | null, fallbacks: boolean): ConfirmationState {
  const [result, setResult] = useState<ConfirmationState>({ state: 'loading' });

  useEffect(() => {
    let live = true;
    const alive = () => live;
    setResult({ state: 'loading' });
    (async () => {
      if (orderId) {
        const order = await loadWithRetries(orderId, alive);
        if (order) {
          if (live) setResult({ state: 'found', order });
          return;
        }
      }
      if (fallbacks && rememberedId && rememberedId !== orderId) {
        const order = await loadWithRetries(rememberedId, alive);
        if (order) {
          if (live) setResult({ state: 'redirect', orderId: order.id });
          return;
        }
      }
      if (fallbacks && live) {
        const latest = await getLatestOrder().catch(() => null);
        if (latest && latest.id !== orderId) {
          if (live) setResult({ state: 'redirect', orderId: latest.id });
          return;
        }
      }
      if (live) setResult({ state: 'not-found' });
    })();
    return () => {
      live = false;
    };
  }, [orderId, rememberedId, fallbacks]);

  return result;
}
