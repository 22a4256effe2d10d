/**
 * Browser storage of the checkout (spec 001 §3): the cart page keeps the session in local storage under
 * `checkout_session`; after a successful payment the order id is remembered in session storage so the
 * confirmation can fall back to it (spec 002 §4). Card data is never written anywhere.
 */
export const CHECKOUT_SESSION_KEY = 'checkout_session';
export const LAST_ORDER_KEY = 'last_order_id';

export interface StoredCheckout { token: string; cartId: string | number; totalAmount?: number | string; userId?: string; createdAt?: string; expiresAt?: string }

/** The checkout session the cart page stored, or null. */
export function readStoredCheckout(): StoredCheckout | null {
  try {
    const raw = localStorage.getItem(CHECKOUT_SESSION_KEY);
    const parsed = raw ? (JSON.parse(raw) as StoredCheckout) : null;
    return parsed && typeof parsed.token === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

/** Forgets the stored checkout session (after payment, or when it expired). */
export function clearStoredCheckout(): void {
  try { localStorage.removeItem(CHECKOUT_SESSION_KEY); } catch { /* storage unavailable */ }
}

/** Remembers the id of the order just placed for this tab. */
export function rememberLastOrder(orderId: number): void {
  try { sessionStorage.setItem(LAST_ORDER_KEY, String(orderId)); } catch { /* storage unavailable */ }
}

/** The order id remembered by rememberLastOrder, or null. */
export function readLastOrderId(): number | null {
  try {
    const n = Number(sessionStorage.getItem(LAST_ORDER_KEY));
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}
