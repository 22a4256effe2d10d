import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import useSWR from 'swr';
import { CART_ERROR_CODES, CART_MESSAGES, PERMISSIONS, type Cart, type FulfillmentType } from '@portal/contracts';
import { ApiError } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { useSelection } from '../../../lib/selection';
import { notify } from '../../../components/ui/toaster';
import { addCartItem, clearCart, getCurrentCart, putFulfillment, removeCartItem, updateCartItem } from './cart-requests';

/** What can be added: a product's code and name (the shop's product, or an order line). */
export interface AddableItem { code: string; name: string }

/** Error toasts of spec 001 §8, verbatim. */
export const CART_TOASTS = {
  loadTitle: 'Error loading cart',
  load: 'We encountered a problem loading your cart. Please try again later.',
  notLoggedIn: 'You must be logged in to add items to your cart',
  quantity: 'Failed to update item quantity. Please try again.',
  add: 'Failed to add item to cart. Please try again.',
  addRefused: 'Failed to add item to cart',
  remove: 'Failed to remove item. Please try again.',
  update: 'Failed to update cart',
  clearNotLoggedIn: 'You must be logged in to clear your cart',
  clear: 'Failed to clear cart',
  added: 'Item added',
  removed: 'Item removed',
  viewCart: 'View Cart',
} as const;

const toastedLoadErrors = new Set<string>();
const cents = (money: string) => Math.round(Number(money) * 100);
const money = (c: number) => (c / 100).toFixed(2);

/** Recomputes line totals, subtotal and total (in cents) after a local change, until the server answers. */
export function withLines(cart: Cart, items: Cart['items']): Cart {
  const subtotal = items.reduce((s, l) => s + cents(l.unitPrice) * l.quantity, 0);
  const charge = cart.fulfillment.type === 'Delivery' ? cents(cart.fulfillment.deliveryCharge) : 0;
  return {
    ...cart,
    items: items.map((l) => ({ ...l, lineTotal: money(cents(l.unitPrice) * l.quantity) })),
    itemCount: items.length,
    totalQuantity: items.reduce((s, l) => s + l.quantity, 0),
    subtotal: money(subtotal),
    total: money(subtotal + charge),
  };
}

/**
 * The active cart of the signed-in user for the selected outlet and store (spec 001 §4), on SWR so every
 * screen shares it. Writes answer the whole cart, which replaces the cached one; any failed write reloads
 * the cart from the server. The cache key holds user, outlet and store, so switching any of them resets it.
 */
export function useCart() {
  const navigate = useNavigate();
  const { status, me, hasPermission } = useSession();
  const { outlet, store, loading: selectionLoading } = useSelection();
  const canUseCart = hasPermission(PERMISSIONS.cartsUse);
  const canCheckout = hasPermission(PERMISSIONS.cartsCheckout);
  const userId = me?.user.id ?? null;
  const key = status === 'authenticated' && userId && outlet && store && canUseCart
    ? (['cart', userId, outlet.outletId, store.id] as const)
    : null;
  const { data: cart, error, isLoading, mutate } = useSWR<Cart, ApiError>(key, ([, , o, s]: readonly [string, string, number, number]) => getCurrentCart(o, s));
  const [busyCodes, setBusyCodes] = useState<ReadonlySet<string>>(new Set());
  const [fulfillmentBusy, setFulfillmentBusy] = useState(false);
  const writeSeq = useRef(0);
  const inflight = useRef(new Set<Promise<unknown>>());
  const keyString = key?.join(':') ?? '';

  // A new user, outlet or store: forget busy marks of the previous cart.
  useEffect(() => { setBusyCodes(new Set()); setFulfillmentBusy(false); }, [keyString]);

  // One 'Error loading cart' per failing cart, however many screens use the hook and SWR retries.
  useEffect(() => {
    if (!keyString) return;
    if (!error) { if (cart) toastedLoadErrors.delete(keyString); return; }
    if (!toastedLoadErrors.has(keyString)) {
      toastedLoadErrors.add(keyString);
      notify({ title: CART_TOASTS.loadTitle, description: CART_TOASTS.load, variant: 'destructive' });
    }
  }, [error, cart, keyString]);

  /** Runs a write; the latest write's answer becomes the cart, a failure reloads it from the server. */
  const write = useCallback((run: () => Promise<Cart>, onError: (e: ApiError) => void, optimistic?: (c: Cart) => Cart): Promise<boolean> => {
    const seq = ++writeSeq.current;
    const job = (async () => {
      if (optimistic) await mutate((c) => (c ? optimistic(c) : c), { revalidate: false });
      try {
        const next = await run();
        if (seq === writeSeq.current) await mutate(next, { revalidate: false });
        return true;
      } catch (e) {
        onError(e instanceof ApiError ? e : new ApiError(0, { type: 'about:blank', title: 'Error', status: 0, code: 'unknown' }));
        await mutate();
        return false;
      }
    })();
    inflight.current.add(job);
    void job.finally(() => inflight.current.delete(job));
    return job;
  }, [mutate]);

  /** Resolves once every write started so far has finished (checkout waits for a just-typed quantity). */
  const settled = useCallback(async () => { await Promise.all([...inflight.current]); }, []);

  const add = useCallback(async (item: AddableItem): Promise<boolean> => {
    if (status !== 'authenticated' || !userId) {
      notify({ title: 'Error', description: CART_TOASTS.notLoggedIn, variant: 'destructive' });
      return false;
    }
    if (!cart) {
      // Adds are ignored while the cart loads (spec 001 §4); a cart that failed to load is retried.
      if (error) { notify({ title: 'Error', description: CART_TOASTS.add, variant: 'destructive' }); void mutate(); }
      return false;
    }
    setBusyCodes((s) => new Set(s).add(item.code));
    const ok = await write(() => addCartItem(cart.id, item.code), (e) => {
      const description = e.code === CART_ERROR_CODES.quantityLimit ? CART_MESSAGES.quantityLimit
        : e.status === 404 || e.status === 400 || e.status === 422 ? CART_TOASTS.addRefused : CART_TOASTS.add;
      notify({ title: 'Error', description, variant: 'destructive' });
    });
    setBusyCodes((s) => { const n = new Set(s); n.delete(item.code); return n; });
    if (ok) {
      notify({ title: CART_TOASTS.added, description: item.name, variant: 'success', action: { label: CART_TOASTS.viewCart, onClick: () => navigate('/cart') } });
    }
    return ok;
  }, [status, userId, cart, error, mutate, write, navigate]);

  const remove = useCallback(async (lineId: number): Promise<boolean> => {
    if (!cart) return false;
    const ok = await write(() => removeCartItem(cart.id, lineId),
      () => notify({ title: 'Error', description: CART_TOASTS.remove, variant: 'destructive' }),
      (c) => withLines(c, c.items.filter((l) => l.id !== lineId)));
    if (ok) notify({ title: CART_TOASTS.removed });
    return ok;
  }, [cart, write]);

  const setQuantity = useCallback(async (lineId: number, quantity: number): Promise<boolean> => {
    if (!cart) return false;
    if (quantity <= 0) return remove(lineId);
    return write(() => updateCartItem(cart.id, lineId, quantity),
      (e) => notify({ title: 'Error', description: e.code === CART_ERROR_CODES.quantityLimit ? CART_MESSAGES.quantityLimit : CART_TOASTS.quantity, variant: 'destructive' }),
      (c) => withLines(c, c.items.map((l) => (l.id === lineId ? { ...l, quantity } : l))));
  }, [cart, write, remove]);

  const setFulfillment = useCallback(async (type: FulfillmentType, date: string | null): Promise<boolean> => {
    if (!cart) return false;
    setFulfillmentBusy(true);
    const ok = await write(() => putFulfillment(cart.id, { type, date }), (e) => {
      const description = e.code === CART_ERROR_CODES.deliveryUnavailable ? CART_MESSAGES.deliveryUnavailable
        : e.fieldError('date') ?? CART_TOASTS.update;
      notify({ title: 'Error', description, variant: 'destructive' });
    }, (c) => {
      const charge = type === 'Delivery' ? c.store.deliveryCharge : '0.00';
      return withLines({ ...c, fulfillment: { type, date, deliveryCharge: charge } }, c.items);
    });
    setFulfillmentBusy(false);
    return ok;
  }, [cart, write]);

  const clear = useCallback(async (): Promise<boolean> => {
    if (status !== 'authenticated' || !cart) {
      notify({ title: 'Error', description: CART_TOASTS.clearNotLoggedIn, variant: 'destructive' });
      return false;
    }
    try {
      await clearCart(cart.id);
      await mutate();
      return true;
    } catch {
      notify({ title: 'Error', description: CART_TOASTS.clear, variant: 'destructive' });
      await mutate();
      return false;
    }
  }, [status, cart, mutate]);

  const isBusy = useCallback((code: string) => busyCodes.has(code), [busyCodes]);

  return useMemo(() => ({
    cart: cart ?? null,
    error: error ?? null,
    /** True while the first answer for this user × outlet × store is awaited (or the selection loads). */
    loading: isLoading || (status === 'authenticated' && selectionLoading),
    canUseCart, canCheckout, isBusy, fulfillmentBusy,
    add, setQuantity, remove, clear, setFulfillment, settled,
    reload: () => mutate(),
  }), [cart, error, isLoading, status, selectionLoading, canUseCart, canCheckout, isBusy, fulfillmentBusy, add, setQuantity, remove, clear, setFulfillment, settled, mutate]);
}

export type CartApi = ReturnType<typeof useCart>;
