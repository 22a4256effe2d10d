import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import useSWR, { preload } from 'swr';
import { PROBLEM_CODES, CART_MESSAGES, PERMISSIONS, type Cart, type FulfillmentType } from '@portal/contracts';
import { ApiError } from '@/lib/api';
import { onceUserKnown, useSession } from '@/lib/session';
import { useSelection } from '@/lib/selection';
import { cartKey } from '@/lib/cart-cache';
import { notify } from '@/components/ui/toaster';
import { toastCaseRule } from './case-rule-toast';
import { addCartItem, clearCart, getCurrentCart, putFulfillment, removeCartItem, updateCartItem } from './cart-requests';

/** What can be added: a product's code and name (the shop's product, or an order line). */
export interface AddableItem {
  code: string;
  name: string;
}

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
    total: money(subtotal + charge + cents(cart.splitCaseFee ?? '0.00')),
  };
}

/** What a cart write answered: done, or refused with the reason (and the API error when the server refused). */
export type CartResult = { ok: true } | { ok: false; reason: 'signed-out' | 'not-loaded' | 'failed'; error?: ApiError };

const fetchCart = ([, , outletId, storeId]: readonly [string, string, number, number]) => getCurrentCart(outletId, storeId);
const fetchBootedCart = ([, , outletId, storeId]: readonly [string, string, number, number]) =>
  getCurrentCart(outletId, storeId, { fromBoot: true });

/**
 * A signed-in page load of the shop: the current cart of the saved outlet and store (GET /carts/current) is asked for
 * once /me has answered, alongside the first page of products, when the user may use a cart (issue 26: it was asked
 * only after the shop's first render, one round trip later). SWR `preload` with the key useCartQuery uses, so it is
 * fetched once; a failed answer reaches the query as its error, as a failed fetch would. When index.html's boot script
 * asked for this cart already (lib/boot.ts), its answer is taken instead of asking again.
 */
export function preloadCurrentCart(outletId: number, storeId: number): void {
  onceUserKnown((me) => {
    if (me.permissions.includes(PERMISSIONS.cartsUse))
      void preload(cartKey(me.user.id, outletId, storeId), fetchBootedCart).catch(() => undefined);
  });
}

/**
 * The cart query: the active cart of the signed-in user for the selected outlet and store (spec 001 §4), on
 * SWR so every screen shares it (lib/cart-cache). The key holds user, outlet and store, so switching any of
 * them resets it. Shows nothing: callers decide what to tell the user.
 */
export function useCartQuery() {
  const { status, me, hasPermission } = useSession();
  const { outlet, store, loading: selectionLoading } = useSelection();
  const canUseCart = hasPermission(PERMISSIONS.cartsUse);
  const canCheckout = hasPermission(PERMISSIONS.cartsCheckout);
  const userId = me?.user.id ?? null;
  const key = status === 'authenticated' && userId && outlet && store && canUseCart ? cartKey(userId, outlet.outletId, store.id) : null;
  const { data: cart, error, isLoading, mutate } = useSWR<Cart, ApiError>(key, fetchCart);
  return {
    keyString: key?.join(':') ?? '',
    signedIn: status === 'authenticated' && Boolean(userId),
    cart,
    error,
    mutate,
    canUseCart,
    canCheckout,
    /** True while the first answer for this user × outlet × store is awaited (or the selection loads). */
    loading: isLoading || (status === 'authenticated' && selectionLoading),
  };
}
export type CartQuery = ReturnType<typeof useCartQuery>;

/**
 * Cart writes in order: `write` runs one (after an optional optimistic change of the cached cart); only the latest
 * write's answer becomes the cart, a failure reloads it from the server and answers the API error.
 * `settled` resolves once every write started so far has finished.
 */
function useCartWriter(mutate: CartQuery['mutate']) {
  const writeSeq = useRef(0);
  const inflight = useRef(new Set<Promise<unknown>>());

  /** Runs a write; the latest write's answer becomes the cart, a failure reloads it from the server. */
  const write = useCallback(
    (run: () => Promise<Cart>, optimistic?: (c: Cart) => Cart): Promise<CartResult> => {
      const seq = ++writeSeq.current;
      const job = (async (): Promise<CartResult> => {
        if (optimistic) await mutate((c) => (c ? optimistic(c) : c), { revalidate: false });
        try {
          const next = await run();
          if (seq === writeSeq.current) await mutate(next, { revalidate: false });
          return { ok: true };
        } catch (e) {
          const failure: CartResult = {
            ok: false,
            reason: 'failed',
            error: e instanceof ApiError ? e : new ApiError(0, { type: 'about:blank', title: 'Error', status: 0, code: 'unknown' }),
          };
          await mutate();
          return failure;
        }
      })();
      inflight.current.add(job);
      void job.finally(() => inflight.current.delete(job));
      return job;
    },
    [mutate],
  );

  /** Resolves once every write started so far has finished (checkout waits for a just-typed quantity). */
  const settled = useCallback(async () => {
    await Promise.all([...inflight.current]);
  }, []);

  return { write, settled };
}

/**
 * The cart writes over a cart query: each answers the whole cart, which replaces the cached one (the latest
 * write wins); a failed write reloads the cart from the server. Lines and fulfillment change at once
 * (optimistic) until the server answers. Each action answers a CartResult and shows nothing.
 */
export function useCartActions({ cart, error, mutate, keyString, signedIn }: CartQuery) {
  const [busyCodes, setBusyCodes] = useState<ReadonlySet<string>>(new Set());
  const [fulfillmentBusy, setFulfillmentBusy] = useState(false);

  // A new user, outlet or store: forget busy marks of the previous cart.
  useEffect(() => {
    setBusyCodes(new Set());
    setFulfillmentBusy(false);
  }, [keyString]);

  const { write, settled } = useCartWriter(mutate);

  const add = useCallback(
    async (item: AddableItem): Promise<CartResult> => {
      if (!signedIn) return { ok: false, reason: 'signed-out' };
      if (!cart) {
        // Adds are ignored while the cart loads (spec 001 §4); a cart that failed to load is retried.
        if (error) void mutate();
        return { ok: false, reason: 'not-loaded', error: error ?? undefined };
      }
      setBusyCodes((s) => new Set(s).add(item.code));
      const result = await write(() => addCartItem(cart.id, item.code));
      setBusyCodes((s) => {
        const n = new Set(s);
        n.delete(item.code);
        return n;
      });
      return result;
    },
    [signedIn, cart, error, mutate, write],
  );

  const remove = useCallback(
    async (lineId: number): Promise<CartResult> => {
      if (!cart) return { ok: false, reason: 'not-loaded' };
      return write(
        () => removeCartItem(cart.id, lineId),
        (c) =>
          withLines(
            c,
            c.items.filter((l) => l.id !== lineId),
          ),
      );
    },
    [cart, write],
  );

  const setQuantity = useCallback(
    async (lineId: number, quantity: number): Promise<CartResult> => {
      if (!cart) return { ok: false, reason: 'not-loaded' };
      return write(
        () => updateCartItem(cart.id, lineId, quantity),
        (c) =>
          withLines(
            c,
            c.items.map((l) => (l.id === lineId ? { ...l, quantity } : l)),
          ),
      );
    },
    [cart, write],
  );

  const setFulfillment = useCallback(
    async (type: FulfillmentType, date: string | null): Promise<CartResult> => {
      if (!cart) return { ok: false, reason: 'not-loaded' };
      setFulfillmentBusy(true);
      const result = await write(
        () => putFulfillment(cart.id, { type, date }),
        (c) => {
          const charge = type === 'Delivery' ? c.store.deliveryCharge : '0.00';
          return withLines({ ...c, fulfillment: { type, date, deliveryCharge: charge } }, c.items);
        },
      );
      setFulfillmentBusy(false);
      return result;
    },
    [cart, write],
  );

  const clear = useCallback(async (): Promise<CartResult> => {
    if (!signedIn || !cart) return { ok: false, reason: 'signed-out' };
    try {
      await clearCart(cart.id);
      await mutate();
      return { ok: true };
    } catch (e) {
      await mutate();
      return { ok: false, reason: 'failed', error: e instanceof ApiError ? e : undefined };
    }
  }, [signedIn, cart, mutate]);

  const isBusy = useCallback((code: string) => busyCodes.has(code), [busyCodes]);
  return { add, remove, setQuantity, setFulfillment, clear, settled, isBusy, fulfillmentBusy };
}

/** The spec 001 §8 error text of a refused add. */
function addErrorText(r: Extract<CartResult, { ok: false }>): string {
  if (r.reason === 'signed-out') return CART_TOASTS.notLoggedIn;
  if (r.reason === 'not-loaded') return CART_TOASTS.add;
  const e = r.error;
  return e?.code === PROBLEM_CODES.cartQuantityLimit
    ? CART_MESSAGES.quantityLimit
    : e && (e.status === 404 || e.status === 400 || e.status === 422)
      ? CART_TOASTS.addRefused
      : CART_TOASTS.add;
}

/** The cart actions with the toasts of spec 001 §8 (Item added with View Cart, the refusal texts); each answers true when done. */
function useCartToasts({ cart }: CartQuery, actions: ReturnType<typeof useCartActions>) {
  const navigate = useNavigate();
  const { add: addItem, remove: removeLine, setQuantity: setLineQuantity, setFulfillment: setCartFulfillment, clear: clearAll } = actions;
  const add = useCallback(
    async (item: AddableItem): Promise<boolean> => {
      const r = await addItem(item);
      if (r.ok)
        notify({
          title: CART_TOASTS.added,
          description: item.name,
          variant: 'success',
          action: { label: CART_TOASTS.viewCart, onClick: () => navigate('/cart') },
        });
      else if (r.reason !== 'not-loaded' || r.error) notify({ title: 'Error', description: addErrorText(r), variant: 'destructive' });
      return r.ok;
    },
    [addItem, navigate],
  );

  const remove = useCallback(
    async (lineId: number): Promise<boolean> => {
      const r = await removeLine(lineId);
      if (r.ok) notify({ title: CART_TOASTS.removed });
      else if (r.reason === 'failed') notify({ title: 'Error', description: CART_TOASTS.remove, variant: 'destructive' });
      return r.ok;
    },
    [removeLine],
  );

  const setQuantity = useCallback(
    async (lineId: number, quantity: number): Promise<boolean> => {
      if (!cart) return false;
      if (quantity <= 0) return remove(lineId);
      const r = await setLineQuantity(lineId, quantity);
      if (!r.ok && r.reason === 'failed' && !toastCaseRule(r.error, (q) => void setLineQuantity(lineId, q))) {
        notify({
          title: 'Error',
          description: r.error?.code === PROBLEM_CODES.cartQuantityLimit ? CART_MESSAGES.quantityLimit : CART_TOASTS.quantity,
          variant: 'destructive',
        });
      }
      return r.ok;
    },
    [cart, remove, setLineQuantity],
  );

  const setFulfillment = useCallback(
    async (type: FulfillmentType, date: string | null): Promise<boolean> => {
      const r = await setCartFulfillment(type, date);
      if (!r.ok && r.reason === 'failed') {
        const description =
          r.error?.code === PROBLEM_CODES.deliveryUnavailable
            ? CART_MESSAGES.deliveryUnavailable
            : (r.error?.fieldError('date') ?? CART_TOASTS.update);
        notify({ title: 'Error', description, variant: 'destructive' });
      }
      return r.ok;
    },
    [setCartFulfillment],
  );

  const clear = useCallback(async (): Promise<boolean> => {
    const r = await clearAll();
    if (!r.ok)
      notify({
        title: 'Error',
        description: r.reason === 'signed-out' ? CART_TOASTS.clearNotLoggedIn : CART_TOASTS.clear,
        variant: 'destructive',
      });
    return r.ok;
  }, [clearAll]);

  return { add, remove, setQuantity, setFulfillment, clear };
}

/**
 * The cart as the shop and cart screens use it: the query and the actions with the toasts of spec 001 §8
 * (one 'Error loading cart' per failing cart however many screens use it; Item added with View Cart; the
 * refusal texts). Actions answer true when done. Screens that want other messages use useCartQuery and
 * useCartActions directly.
 */
export function useCart() {
  const query = useCartQuery();
  const actions = useCartActions(query);
  const { cart, error, keyString, mutate } = query;

  // One 'Error loading cart' per failing cart, however many screens use the hook and SWR retries.
  useEffect(() => {
    if (!keyString) return;
    if (!error) {
      if (cart) toastedLoadErrors.delete(keyString);
      return;
    }
    if (!toastedLoadErrors.has(keyString)) {
      toastedLoadErrors.add(keyString);
      notify({ title: CART_TOASTS.loadTitle, description: CART_TOASTS.load, variant: 'destructive' });
    }
  }, [error, cart, keyString]);

  const { add, remove, setQuantity, setFulfillment, clear } = useCartToasts(query, actions);

  const { isBusy, fulfillmentBusy, settled } = actions;
  return useMemo(
    () => ({
      cart: cart ?? null,
      error: error ?? null,
      /** True while the first answer for this user × outlet × store is awaited (or the selection loads). */
      loading: query.loading,
      canUseCart: query.canUseCart,
      canCheckout: query.canCheckout,
      isBusy,
      fulfillmentBusy,
      add,
      setQuantity,
      remove,
      clear,
      setFulfillment,
      settled,
      reload: () => mutate(),
    }),
    [
      cart,
      error,
      query.loading,
      query.canUseCart,
      query.canCheckout,
      isBusy,
      fulfillmentBusy,
      add,
      setQuantity,
      remove,
      clear,
      setFulfillment,
      settled,
      mutate,
    ],
  );
}

export type CartApi = ReturnType<typeof useCart>;
