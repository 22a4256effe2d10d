import { checkoutSessionSchema, type CheckoutSession } from '@portal/contracts';
import { api } from '@/lib/api';

/**
 * POST /checkout-sessions { cartId, emergency? } → 201 the server-side session (30 minutes, total computed by the
 * server). `emergency: true` (issue 28 §1) is sent only when chosen, so the body stays the old one otherwise.
 */
export async function createCheckoutSession(cartId: number, emergency = false): Promise<CheckoutSession> {
  return checkoutSessionSchema.parse(await api.post('/checkout-sessions', { json: emergency ? { cartId, emergency: true } : { cartId } }));
}

/** The /payment URL of spec 001 §2: token, total, cartId, source=cart, fulfillmentType and the optional date. */
export function paymentUrl(session: CheckoutSession): string {
  const q = new URLSearchParams({
    token: session.token,
    total: session.total,
    cartId: String(session.cartId),
    source: 'cart',
    fulfillmentType: session.fulfillmentType,
  });
  if (session.fulfillmentDate) q.set('fulfillmentDate', session.fulfillmentDate);
  return `/payment?${q.toString()}`;
}
