import type { Cart } from '@portal/contracts';

/**
 * GET /carts/current as the contracts' cartSchema answers it: the empty pickup cart 7 of outlet 1 (Taproom) at store
 * 2190 (Central), for web tests; `over` replaces top-level parts.
 */
export const cartFixture = (over: Partial<Cart> = {}): Cart => ({
  id: 7,
  outletId: 1,
  storeId: 2190,
  outlet: { name: 'Taproom', code: 'T1' },
  store: { name: 'Central', city: null, state: null, deliveryEnabled: true, deliveryCharge: '15.00' },
  items: [],
  fulfillment: { type: 'Pickup', date: null, deliveryCharge: '0.00' },
  itemCount: 0,
  totalQuantity: 0,
  subtotal: '0.00',
  total: '0.00',
  ...over,
});
