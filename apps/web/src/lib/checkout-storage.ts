import type { CheckoutSession } from '@portal/contracts';

/**
 * Browser storage of the checkout (spec 001 §3, spec 002 §4), one module for the cart page and the payment
 * page: the started session in local storage under `checkout_session` (the payment page validates it with
 * the server); after a successful payment the order id in session storage, so the confirmation can fall
 * back to it. Card data is never written anywhere. Storage that is unavailable is ignored.
 */
export const CHECKOUT_SESSION_KEY = 'checkout_session';
export const LAST_ORDER_KEY = 'last_order_id';

/** What the browser keeps of a checkout session. */
export interface StoredCheckoutSession {
  token: string;
  cartId: number;
  totalAmount: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
}

/** Saves the started session under `checkout_session` for the payment page; returns what was stored. */
export function storeCheckoutSession(session: CheckoutSession, userId: string, now: Date = new Date()): StoredCheckoutSession {
  const stored: StoredCheckoutSession = {
    token: session.token,
    cartId: session.cartId,
    totalAmount: session.total,
    userId,
    createdAt: now.toISOString(),
    expiresAt: session.expiresAt,
  };
  try {
    localStorage.setItem(CHECKOUT_SESSION_KEY, JSON.stringify(stored));
  } catch {
    /* storage unavailable: the token is in the URL */
  }
  return stored;
}

/** Forgets the stored checkout session (after payment, or when it expired or was used). */
export function clearStoredCheckout(): void {
  try {
    localStorage.removeItem(CHECKOUT_SESSION_KEY);
  } catch {
    /* storage unavailable */
  }
}

/** Remembers the id of the order just placed for this tab. */
export function rememberLastOrder(orderId: number): void {
  try {
    sessionStorage.setItem(LAST_ORDER_KEY, String(orderId));
  } catch {
    /* storage unavailable */
  }
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
