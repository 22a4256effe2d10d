/**
 * Matches the SWR keys of the shared cart cache (the cart feature keys it ['cart', user, outlet, store];
 * plain '/carts…' paths too), so a screen that changed the cart on the server can have it reloaded.
 */
export function isCartKey(key: unknown): boolean {
  return (Array.isArray(key) && key[0] === 'cart') || (typeof key === 'string' && key.startsWith('/carts'));
}
