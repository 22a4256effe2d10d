import { createContext, useCallback, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import useSWR, { preload } from 'swr';
import type { z } from 'zod';
import type { MyOutlet, StoreSummary } from '@portal/contracts';
import type { ApiError } from './api-error';
import { SESSION_TOKEN_EVENT, SIGNED_IN_EVENT, SIGNED_OUT_EVENT, useSession } from './session';

/** Local-storage key of the shop view state (filters, page, view mode); removed on outlet/store switch. */
export const SHOP_STATE_KEY = 'portal.shop-state';
/** Local storage: the saved selection's ids as a signed-in page load last saw them (a head start for the next load). */
const LAST_SELECTION_KEY = 'portal.last-selection';
/** Broadcast when saved shop filters must be cleared (spec 000 §2). */
export const CLEAR_FILTERS_EVENT = 'portal:clear-filters';
/** Broadcast after a store switch with { storeId, name, boardNumber, warehouseId } (spec 000 §4). */
export const STORE_CHANGED_EVENT = 'portal:store-changed';

/** Browser-stored outlet choice of one user (spec 000 §4), saved after a 300 ms debounce. */
const OUTLET_CHOICE_PREFIX = 'portal.outlet-choice.';
const OUTLET_CHOICE_DEBOUNCE_MS = 300;
/** Spec 000 §9: the login event reloads the outlets after 200 ms. */
const LOGIN_RELOAD_DELAY_MS = 200;

export interface SelectionValue {
  outlets: MyOutlet[];
  outletsLoading: boolean;
  outletsError: ApiError | undefined;
  stores: StoreSummary[];
  storesLoading: boolean;
  storesError: ApiError | undefined;
  outlet: MyOutlet | null;
  store: StoreSummary | null;
  /** True until outlets and the saved selection are known. */
  loading: boolean;
  /**
   * The spec 000 §8 text for the selection's trouble, when there is one: 'Failed to fetch user outlets: …',
   * 'No outlets assigned to your account. Please contact support.' or 'Failed to fetch stores for outlet: …'.
   */
  problem: string | null;
  /** Switches outlet: saves it with no store; the server then picks the store by spec 000 §4 rules. */
  selectOutlet(outletId: number): Promise<void>;
  /** Switches store within the current outlet and broadcasts STORE_CHANGED_EVENT. */
  selectStore(storeId: number): Promise<void>;
}

type Contracts = typeof import('@/lib/schemas');
type SchemaName = 'myOutletsSchema' | 'selectionSchema' | 'outletStoresSchema';
/**
 * SWR fetcher: GET `path` through lib/api and parse it with the named contracts schema, both loaded on
 * first use so the signed-out first page carries neither ky nor zod (issue 15 §4). On a signed-in page load the
 * boot script's answer (lib/boot.ts) is taken instead of asking again when it has one.
 */
const fetchParsed =
  <K extends SchemaName>(name: K) =>
  async (path: string): Promise<z.infer<Contracts[K]>> => {
    const [{ getBootedJson }, contracts] = await Promise.all([import('./api'), import('@/lib/schemas')]);
    return getBootedJson(path, contracts[name]) as Promise<z.infer<Contracts[K]>>;
  };
const fetchOutlets = fetchParsed('myOutletsSchema');
const fetchSelection = fetchParsed('selectionSchema');
const fetchStores = fetchParsed('outletStoresSchema');

/**
 * On a signed-in page load the outlets, the saved selection and that outlet's stores are asked for as soon as the
 * access token is back (SESSION_TOKEN_EVENT), alongside /me rather than after it; SWR hands these answers to the
 * provider's queries below (same keys), so nothing is fetched twice.
 */
function prefetchSelection() {
  void preload('/me/outlets', fetchOutlets).catch(() => undefined);
  // The selection this browser saw last: screens start their data with it now, alongside /me/selection; the
  // server's answer goes to them again only when it differs.
  const last = readLastSelection();
  if (last) announceSelection(last);
  void preload('/me/selection', fetchSelection)
    .then((sel) => {
      if (!sel.outletId) return undefined;
      const known = { outletId: sel.outletId, storeId: sel.storeId };
      if (known.outletId !== last?.outletId || known.storeId !== last?.storeId) announceSelection(known);
      storage()?.setItem(LAST_SELECTION_KEY, JSON.stringify(known));
      return preload(`/outlets/${sel.outletId}/stores`, fetchStores);
    })
    .catch(() => undefined);
}

/** The last saved selection this browser was told (ids only; forgotten at sign-out), or null. */
function readLastSelection(): KnownSelection | null {
  try {
    const v = JSON.parse(storage()?.getItem(LAST_SELECTION_KEY) ?? 'null') as Partial<KnownSelection> | null;
    if (!v || !Number.isInteger(v.outletId) || !(v.storeId === null || Number.isInteger(v.storeId))) return null;
    return { outletId: v.outletId!, storeId: v.storeId ?? null };
  } catch {
    return null;
  }
}

/** The saved outlet and store of a signed-in page load, before the outlet's stores have confirmed the store. */
export interface KnownSelection {
  outletId: number;
  storeId: number | null;
}
const selectionListeners = new Set<(sel: KnownSelection) => void>();
/** The selection this page load learned last (null before, and again after a sign-out). */
let knownSelection: KnownSelection | null = null;
function announceSelection(sel: KnownSelection) {
  knownSelection = sel;
  for (const fn of selectionListeners) fn(sel);
}
/**
 * Runs `fn` when a signed-in page load learns the saved selection (GET /me/selection), alongside the request for the
 * outlet's stores: a screen preloads its first page of data then (SWR `preload`, the keys its hooks use) instead of
 * after the selection is confirmed and the screen has rendered (issue 26: no waterfall on a signed-in load). Only
 * page loads call it; a store the outlet no longer buys from costs one unused request. Returns an unsubscribe.
 */
export function whenSelectionKnown(fn: (sel: KnownSelection) => void): () => void {
  selectionListeners.add(fn);
  // A screen whose module loads after the selection is known starts at once (not only on the next announcement).
  if (knownSelection) fn(knownSelection);
  return () => selectionListeners.delete(fn);
}
if (typeof window !== 'undefined') {
  window.addEventListener(SESSION_TOKEN_EVENT, prefetchSelection);
  // After a sign-out or a store switch the page load's selection is no longer the one to start screens with.
  const forget = () => {
    knownSelection = null;
  };
  window.addEventListener(SIGNED_OUT_EVENT, forget);
  window.addEventListener(STORE_CHANGED_EVENT, forget);
}

const SelectionContext = createContext<SelectionValue | null>(null);

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function clearShopFilters() {
  storage()?.removeItem(SHOP_STATE_KEY);
  window.dispatchEvent(new Event(CLEAR_FILTERS_EVENT));
}

function readOutletChoice(userId: string): number | null {
  const v = Number(storage()?.getItem(OUTLET_CHOICE_PREFIX + userId));
  return Number.isInteger(v) && v > 0 ? v : null;
}

/** Removes every stored selection (spec 000 §4: sign-out clears stored selections). */
function clearStoredSelections() {
  const s = storage();
  if (!s) return;
  for (let i = s.length - 1; i >= 0; i--) {
    const k = s.key(i);
    if (k && (k.startsWith(OUTLET_CHOICE_PREFIX) || k === SHOP_STATE_KEY || k === LAST_SELECTION_KEY)) s.removeItem(k);
  }
}

/** Login event: reload the outlets and the selection after 200 ms. Sign-out: forget the stored selections. */
function useReloadOnSignIn(mutateOutlets: () => Promise<unknown>, mutateSelection: () => Promise<unknown>) {
  // Login event: reload the outlets after 200 ms. Sign-out: forget the stored selections.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onIn = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        void mutateOutlets();
        void mutateSelection();
      }, LOGIN_RELOAD_DELAY_MS);
    };
    const onOut = () => {
      clearTimeout(timer);
      clearStoredSelections();
    };
    window.addEventListener(SIGNED_IN_EVENT, onIn);
    window.addEventListener(SIGNED_OUT_EVENT, onOut);
    return () => {
      clearTimeout(timer);
      window.removeEventListener(SIGNED_IN_EVENT, onIn);
      window.removeEventListener(SIGNED_OUT_EVENT, onOut);
    };
  }, [mutateOutlets, mutateSelection]);
}

/**
 * Current outlet and store for the signed-in user (GET/PUT /me/selection, GET /me/outlets,
 * GET /outlets/{id}/stores), with the selection rules of spec 000 §4: the saved profile preference,
 * else the browser-stored choice, else the first accessible outlet; the store falls back to the
 * outlet's default store, else the first active one.
 */
export function SelectionProvider({ children }: { children: ReactNode }) {
  const { status, me } = useSession();
  const on = status === 'authenticated';
  const userId = me?.user.id ?? null;
  const outletsQ = useSWR<z.infer<Contracts['myOutletsSchema']>, ApiError>(on ? '/me/outlets' : null, fetchOutlets);
  const selectionQ = useSWR<z.infer<Contracts['selectionSchema']>, ApiError>(on ? '/me/selection' : null, fetchSelection);
  const outlets = useMemo(() => outletsQ.data?.items ?? [], [outletsQ.data]);
  const outlet =
    outlets.find((o) => o.outletId === selectionQ.data?.outletId) ??
    (selectionQ.data && selectionQ.data.outletId === null ? outlets[0] : undefined) ??
    null;
  const outletId = outlet?.outletId ?? null;
  const storesQ = useSWR<z.infer<Contracts['outletStoresSchema']>, ApiError>(
    on && outletId ? `/outlets/${outletId}/stores` : null,
    fetchStores,
  );
  const stores = useMemo(() => (storesQ.data?.items ?? []).filter((s) => s.active), [storesQ.data]);
  const store =
    stores.find((s) => s.id === selectionQ.data?.storeId) ?? stores.find((s) => s.id === outlet?.defaultStoreId) ?? stores[0] ?? null;

  const { mutate: mutateOutlets } = outletsQ;
  const { mutate: mutateSelection } = selectionQ;

  useReloadOnSignIn(mutateOutlets, mutateSelection);

  const save = useCallback(
    async (body: { outletId: number; storeId: number | null }) => {
      const [{ api }, { selectionSchema }] = await Promise.all([import('./api'), import('@/lib/schemas')]);
      const parsed = selectionSchema.safeParse(await api.put('/me/selection', { json: body }));
      await mutateSelection(parsed.success ? parsed.data : undefined, { revalidate: !parsed.success });
    },
    [mutateSelection],
  );

  // Without a saved profile preference, the browser-stored choice wins over the first outlet; an
  // invalid stored choice is removed.
  const applied = useRef<string | null>(null);
  useEffect(() => {
    if (!userId || !outletsQ.data || !selectionQ.data || applied.current === userId) return;
    applied.current = userId;
    const stored = readOutletChoice(userId);
    if (stored === null) return;
    if (!outlets.some((o) => o.outletId === stored)) {
      storage()?.removeItem(OUTLET_CHOICE_PREFIX + userId);
      return;
    }
    if (me?.profile.lastSelectedOutletId == null && selectionQ.data.outletId !== stored) {
      save({ outletId: stored, storeId: null }).catch(() => undefined);
    }
  }, [userId, outlets, outletsQ.data, selectionQ.data, me, save]);
  useEffect(() => {
    if (status === 'unauthenticated') applied.current = null;
  }, [status]);

  // The browser keeps the user's outlet choice, written 300 ms after the last change.
  useEffect(() => {
    if (!userId || !outletId) return;
    const t = setTimeout(() => storage()?.setItem(OUTLET_CHOICE_PREFIX + userId, String(outletId)), OUTLET_CHOICE_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [userId, outletId]);

  const selectOutlet = useCallback(
    async (id: number) => {
      await save({ outletId: id, storeId: null });
      clearShopFilters();
    },
    [save],
  );

  const selectStore = useCallback(
    async (id: number) => {
      if (!outletId) throw new Error('Select an outlet first');
      await save({ outletId, storeId: id });
      clearShopFilters();
      const s = stores.find((x) => x.id === id);
      window.dispatchEvent(
        new CustomEvent(STORE_CHANGED_EVENT, {
          detail: { storeId: id, name: s?.name, boardNumber: s?.boardNumber, warehouseId: s?.warehouseId },
        }),
      );
    },
    [outletId, save, stores],
  );

  // Without the permission to read outlets (403) the person simply has none (spec 000 §8: permission errors deny).
  const outletsDenied = outletsQ.error?.status === 403;
  let problem: string | null = null;
  if (outletsQ.error && !outletsDenied) problem = `Failed to fetch user outlets: ${outletsQ.error.message}`;
  else if (outletsDenied || (outletsQ.data && outlets.length === 0))
    problem = 'No outlets assigned to your account. Please contact support.';
  else if (storesQ.error) problem = `Failed to fetch stores for outlet: ${storesQ.error.message}`;

  const value: SelectionValue = {
    outlets,
    outletsLoading: outletsQ.isLoading,
    outletsError: outletsDenied ? undefined : outletsQ.error,
    stores,
    storesLoading: storesQ.isLoading,
    storesError: storesQ.error,
    outlet,
    store,
    problem,
    loading: on && (outletsQ.isLoading || selectionQ.isLoading || (Boolean(outletId) && storesQ.isLoading)),
    selectOutlet,
    selectStore,
  };
  return <SelectionContext.Provider value={value}>{children}</SelectionContext.Provider>;
}

/** The current outlet and store; throws when used outside SelectionProvider (spec 000 §8). */
export function useSelection(): SelectionValue {
  const v = useContext(SelectionContext);
  if (!v) throw new Error('useSelection must be used within a SelectionProvider');
  return v;
}
