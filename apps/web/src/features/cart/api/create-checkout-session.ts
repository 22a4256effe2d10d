import { checkoutSessionSchema, type CheckoutSession } from '@portal/contracts';
import { api } from '@/lib/api';

/** POST /checkout-sessions { cartId } → 201 the server-side session (30 minutes, total computed by the server). */
export async function createCheckoutSession(cartId: number): Promise<CheckoutSession> {
  const res = await api.post('/checkout-sessions', { cartId });
  return checkoutSessionSchema.parse(res.data);
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
