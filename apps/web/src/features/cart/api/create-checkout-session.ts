import { checkoutSessionSchema, type CheckoutSession } from '@portal/contracts';
import { api } from '../../../lib/api';

/** Local-storage key of the started checkout session (spec 001 §3). */
export const CHECKOUT_SESSION_KEY = 'checkout_session';

/** What the browser keeps of a checkout session (spec 001 §3): the payment page validates it. */
export interface StoredCheckoutSession {
  token: string;
  cartId: number;
  totalAmount: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
}

/** POST /checkout-sessions { cartId } → 201 the server-side session (30 minutes, total computed by the server). */
export async function createCheckoutSession(cartId: number): Promise<CheckoutSession> {
  const res = await api.post('/checkout-sessions', { cartId });
  return checkoutSessionSchema.parse(res.data);
}

/** Saves the session under `checkout_session` for the payment page. */
export function storeCheckoutSession(session: CheckoutSession, userId: string, now: Date = new Date()): StoredCheckoutSession {
  const stored: StoredCheckoutSession = {
    token: session.token, cartId: session.cartId, totalAmount: session.total, userId,
    createdAt: now.toISOString(), expiresAt: session.expiresAt,
  };
  try { localStorage.setItem(CHECKOUT_SESSION_KEY, JSON.stringify(stored)); } catch { /* storage unavailable: the token is in the URL */ }
  return stored;
}

/** The /payment URL of spec 001 §2: token, total, cartId, source=cart, fulfillmentType and the optional date. */
export function paymentUrl(session: CheckoutSession): string {
  const q = new URLSearchParams({
    token: session.token, total: session.total, cartId: String(session.cartId), source: 'cart', fulfillmentType: session.fulfillmentType,
  });
  if (session.fulfillmentDate) q.set('fulfillmentDate', session.fulfillmentDate);
  return `/payment?${q.toString()}`;
}
