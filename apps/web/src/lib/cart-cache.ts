/**
 * The one cart cache (SWR): the cart of user × outlet × store is keyed ['cart', userId, outletId, storeId].
 * A screen that changed the cart on the server (reorder, payment) reloads it with `mutate(isCartKey)`.
 */
export const cartKey = (userId: string, outletId: number, storeId: number) => ['cart', userId, outletId, storeId] as const;
export type CartKey = ReturnType<typeof cartKey>;

/** Matches the cart cache's keys (and plain '/carts…' paths), for `mutate(isCartKey)`. */
export function isCartKey(key: unknown): boolean {
  return (Array.isArray(key) && key[0] === 'cart') || (typeof key === 'string' && key.startsWith('/carts'));
}
