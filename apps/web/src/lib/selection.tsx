import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { z } from 'zod';
import { myOutletSchema, selectionSchema, storeSummarySchema, type MyOutlet, type StoreSummary } from '@portal/contracts';
import { api, useApi, type ApiError } from './api';
import { useSession } from './session';

/** Local-storage key of the shop view state (filters, page, view mode); removed on outlet/store switch. */
export const SHOP_STATE_KEY = 'portal.shop-state';
/** Broadcast when saved shop filters must be cleared (spec 000 §2). */
export const CLEAR_FILTERS_EVENT = 'portal:clear-filters';
/** Broadcast after a store switch with { storeId, name, boardNumber, warehouseId } (spec 000 §4). */
export const STORE_CHANGED_EVENT = 'portal:store-changed';

const outletsSchema = z.object({ items: z.array(myOutletSchema) });
const storesSchema = z.object({ items: z.array(storeSummarySchema) });

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
  /** Switches outlet: saves it with no store; the server then picks the store by spec 000 §4 rules. */
  selectOutlet(outletId: number): Promise<void>;
  selectStore(storeId: number): Promise<void>;
}

const SelectionContext = createContext<SelectionValue | null>(null);

function clearShopFilters() {
  try { localStorage.removeItem(SHOP_STATE_KEY); } catch { /* storage unavailable */ }
  window.dispatchEvent(new Event(CLEAR_FILTERS_EVENT));
}

/** Current outlet and store for the signed-in user (GET/PUT /me/selection, /me/outlets, /outlets/{id}/stores). */
export function SelectionProvider({ children }: { children: ReactNode }) {
  const { status } = useSession();
  const on = status === 'authenticated';
  const outletsQ = useApi(on ? '/me/outlets' : null, outletsSchema);
  const selectionQ = useApi(on ? '/me/selection' : null, selectionSchema);
  const outletId = selectionQ.data?.outletId ?? null;
  const storesQ = useApi(on && outletId ? `/outlets/${outletId}/stores` : null, storesSchema);

  const outlets = useMemo(() => outletsQ.data?.items ?? [], [outletsQ.data]);
  const stores = useMemo(() => storesQ.data?.items ?? [], [storesQ.data]);
  const outlet = outlets.find((o) => o.outletId === outletId) ?? null;
  const store = stores.find((s) => s.id === selectionQ.data?.storeId) ?? null;

  const selectOutlet = useCallback(async (id: number) => {
    await api.put('/me/selection', { outletId: id, storeId: null });
    clearShopFilters();
    await selectionQ.mutate();
  }, [selectionQ]);

  const selectStore = useCallback(async (id: number) => {
    if (!outletId) return;
    await api.put('/me/selection', { outletId, storeId: id });
    clearShopFilters();
    await selectionQ.mutate();
    const s = stores.find((x) => x.id === id);
    window.dispatchEvent(new CustomEvent(STORE_CHANGED_EVENT, { detail: { storeId: id, name: s?.name, boardNumber: s?.boardNumber, warehouseId: s?.warehouseId } }));
  }, [outletId, selectionQ, stores]);

  const value: SelectionValue = {
    outlets, outletsLoading: outletsQ.isLoading, outletsError: outletsQ.error,
    stores, storesLoading: storesQ.isLoading, storesError: storesQ.error,
    outlet, store,
    loading: on && (outletsQ.isLoading || selectionQ.isLoading || (Boolean(outletId) && storesQ.isLoading)),
    selectOutlet, selectStore,
  };
  return <SelectionContext.Provider value={value}>{children}</SelectionContext.Provider>;
}

export function useSelection(): SelectionValue {
  const v = useContext(SelectionContext);
  if (!v) throw new Error('useSelection must be used within a SelectionProvider');
  return v;
}
