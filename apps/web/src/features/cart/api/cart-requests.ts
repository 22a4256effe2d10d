import { cartSchema, type Cart, type FulfillmentBody } from '@portal/contracts';
import { api, getBootedJson, getJson } from '@/lib/api';

/** The GET /carts/current URL of the user's cart for an outlet and a store. */
export function currentCartPath(outletId: number, storeId: number): string {
  return `/carts/current?outletId=${outletId}&storeId=${storeId}`;
}

/**
 * GET /carts/current?outletId=&storeId=: the active cart of the user × outlet × store (found or created). With
 * `fromBoot` (the shop's page-load preload only), index.html's boot script's answer is taken when it asked (lib/boot.ts).
 */
export function getCurrentCart(outletId: number, storeId: number, { fromBoot = false }: { fromBoot?: boolean } = {}): Promise<Cart> {
  return (fromBoot ? getBootedJson : getJson)(currentCartPath(outletId, storeId), cartSchema);
}

/** POST /carts/{cartId}/items: adds one of `itemCode`; answers the whole cart. */
export async function addCartItem(cartId: number, itemCode: string): Promise<Cart> {
  return cartSchema.parse(await api.post(`/carts/${cartId}/items`, { json: { itemCode } }));
}

/** PATCH /carts/{cartId}/items/{lineId}: sets the quantity (0 removes the line); answers the whole cart. */
export async function updateCartItem(cartId: number, lineId: number, quantity: number): Promise<Cart> {
  return cartSchema.parse(await api.patch(`/carts/${cartId}/items/${lineId}`, { json: { quantity } }));
}

/** DELETE /carts/{cartId}/items/{lineId}: removes a line; answers the whole cart. */
export async function removeCartItem(cartId: number, lineId: number): Promise<Cart> {
  return cartSchema.parse(await api.delete(`/carts/${cartId}/items/${lineId}`));
}

/** DELETE /carts/{cartId}: deletes the lines, then the cart (204). */
export async function clearCart(cartId: number): Promise<void> {
  await api.delete(`/carts/${cartId}`);
}

/** PUT /carts/{cartId}/fulfillment: Pickup or Delivery and an optional date (YYYY-MM-DD); answers the whole cart. */
export async function putFulfillment(cartId: number, body: FulfillmentBody): Promise<Cart> {
  return cartSchema.parse(await api.put(`/carts/${cartId}/fulfillment`, { json: body }));
}
