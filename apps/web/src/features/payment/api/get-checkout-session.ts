import { checkoutSessionSchema, type CheckoutSession } from '@portal/contracts';
import { getJson } from '@/lib/api';

/** GET /checkout-sessions/{token}: validates the session (expiry, owner) and returns its server-side total. */
export function getCheckoutSession(token: string): Promise<CheckoutSession> {
  return getJson(`/checkout-sessions/${encodeURIComponent(token)}`, checkoutSessionSchema);
}
