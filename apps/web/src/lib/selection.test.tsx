import { act, waitFor } from '@testing-library/react';
import {
  myOutletsSchema,
  outletStoresSchema,
  selectionSchema,
  type Me,
  type MyOutlet,
  type ProblemCode,
  type StoreSummary,
} from '@portal/contracts';
import { FakeApi, problem, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import {
  CLEAR_FILTERS_EVENT,
  SelectionProvider,
  SHOP_STATE_KEY,
  STORE_CHANGED_EVENT,
  useSelection,
  type SelectionValue,
} from './selection';
import { SIGNED_IN_EVENT, SIGNED_OUT_EVENT, useSession } from './session';

jest.mock('./session', () => ({ ...jest.requireActual('./session'), useSession: jest.fn() }));

const outlet = (id: number, name: string, defaultStoreId: number | null = null): MyOutlet => ({
  outletId: id,
  outletCode: `C${id}`,
  outletName: name,
  isAdminOutlet: false,
  outletActive: true,
  outletCity: null,
  outletState: null,
  outletPhone: null,
  outletEmail: null,
  boardName: 'Board',
  defaultStoreId,
  storeIds: [],
  storeNames: [],
  storeCodes: [],
});
const store = (id: number, name: string, active = true): StoreSummary => ({
  id,
  warehouseId: id,
  name,
  warehouseCode: `W${id}`,
  address: null,
  city: null,
  state: null,
  zipCode: null,
  phone: null,
  boardNumber: 1,
  boardName: 'Board',
  active,
});
const meOf = (lastSelectedOutletId: number | null = 1): Me => ({
  user: { id: 'u1', email: 'b@example.com', isActive: true, lastLoginAt: null },
  profile: {
    userId: 'u1',
    email: 'b@example.com',
    firstName: 'B',
    lastName: 'B',
    fullName: 'B B',
    phone: null,
    lastSelectedOutletId,
    lastSelectedStoreId: null,
  },
  roles: [],
  permissions: [],
});

let sel: SelectionValue;
function Probe() {
  sel = useSelection();
  return null;
}

function setup({
  me = meOf(),
  selection = { outletId: 1 as number | null, storeId: null as number | null },
  outlets = [outlet(1, 'One', 20), outlet(2, 'Two')],
  outletsFail = false,
  outletsStatus = 500,
} = {}) {
  (useSession as jest.Mock).mockReturnValue({ status: 'authenticated', me });
  let current = { ...selection };
  // Any other request answers 404 not_found (the fake's default).
  const api = new FakeApi()
    .on(
      'get',
      '/me/outlets',
      outletsFail
        ? problem(outletsStatus, (outletsStatus === 403 ? 'forbidden' : 'internal_error') as ProblemCode, 'boom')
        : reply(myOutletsSchema, { items: outlets }),
    )
    .on('get', '/me/selection', () => reply(selectionSchema, current))
    .on(
      'get',
      '/outlets/{outletId}/stores',
      reply(outletStoresSchema, { items: [store(10, 'Ten'), store(20, 'Twenty'), store(30, 'Closed', false)] }),
    )
    .on('put', '/me/selection', (call) => {
      current = call.body as typeof current;
      return reply(selectionSchema, current);
    });
  renderRoute(
    <SelectionProvider>
      <Probe />
    </SelectionProvider>,
    { api },
  );
  return { api };
}

beforeEach(() => localStorage.clear());

describe('selection (spec 000 §4)', () => {
  it('when no store is saved, then the outlet default store is used, else the first active one; inactive stores are not listed', async () => {
    setup();
    await waitFor(() => expect(sel.store?.id).toBe(20));
    expect(sel.outlet?.outletId).toBe(1);
    expect(sel.stores.map((s) => s.id)).toEqual([10, 20]);
    expect(sel.loading).toBe(false);
  });

  it('when switching outlet, then it is saved with no store, saved shop filters are cleared and the clear-filters event is broadcast', async () => {
    const { api } = setup();
    await waitFor(() => expect(sel.outlet).not.toBeNull());
    localStorage.setItem(SHOP_STATE_KEY, '{"search":"gin"}');
    const heard = jest.fn();
    window.addEventListener(CLEAR_FILTERS_EVENT, heard);
    await act(async () => {
      await sel.selectOutlet(2);
    });
    window.removeEventListener(CLEAR_FILTERS_EVENT, heard);
    expect(api.calls).toContainEqual({ method: 'put', url: '/me/selection', body: { outletId: 2, storeId: null } });
    expect(localStorage.getItem(SHOP_STATE_KEY)).toBeNull();
    expect(heard).toHaveBeenCalled();
    await waitFor(() => expect(sel.outlet?.outletId).toBe(2));
    expect(sel.store?.id).toBe(10);
  });

  it('when switching store, then it is saved and the store-changed event carries id, name, board number and warehouse id', async () => {
    const { api } = setup();
    await waitFor(() => expect(sel.stores).toHaveLength(2));
    const heard = jest.fn();
    window.addEventListener(STORE_CHANGED_EVENT, heard);
    await act(async () => {
      await sel.selectStore(10);
    });
    window.removeEventListener(STORE_CHANGED_EVENT, heard);
    expect(api.calls).toContainEqual({ method: 'put', url: '/me/selection', body: { outletId: 1, storeId: 10 } });
    expect((heard.mock.calls[0][0] as CustomEvent).detail).toEqual({ storeId: 10, name: 'Ten', boardNumber: 1, warehouseId: 10 });
    expect(sel.store?.id).toBe(10);
  });

  it('when the outlet changes, then the browser keeps the choice for the user after 300 ms', async () => {
    setup();
    await waitFor(() => expect(sel.outlet?.outletId).toBe(1));
    expect(localStorage.getItem('portal.outlet-choice.u1')).toBeNull();
    await waitFor(() => expect(localStorage.getItem('portal.outlet-choice.u1')).toBe('1'));
  });

  it('when the profile has no saved outlet, then the browser-stored choice is applied', async () => {
    localStorage.setItem('portal.outlet-choice.u1', '2');
    const { api } = setup({ me: meOf(null) });
    await waitFor(() => expect(api.calls).toContainEqual({ method: 'put', url: '/me/selection', body: { outletId: 2, storeId: null } }));
    await waitFor(() => expect(sel.outlet?.outletId).toBe(2));
  });

  it('when the browser-stored choice is not accessible, then it is cleared', async () => {
    localStorage.setItem('portal.outlet-choice.u1', '99');
    const { api } = setup({ me: meOf(null) });
    await waitFor(() => expect(localStorage.getItem('portal.outlet-choice.u1')).not.toBe('99'));
    expect(api.urls('put')).toEqual([]);
  });

  it('when signing out, then stored selections are removed', async () => {
    setup();
    localStorage.setItem('portal.outlet-choice.u1', '1');
    localStorage.setItem(SHOP_STATE_KEY, '{}');
    act(() => {
      window.dispatchEvent(new CustomEvent(SIGNED_OUT_EVENT, { detail: { reason: 'signed-out' } }));
    });
    expect(localStorage.getItem('portal.outlet-choice.u1')).toBeNull();
    expect(localStorage.getItem(SHOP_STATE_KEY)).toBeNull();
  });

  it('when the login event fires, then the outlets are reloaded after 200 ms', async () => {
    const { api } = setup();
    await waitFor(() => expect(sel.outlet).not.toBeNull());
    const count = () => api.urls('get').filter((p) => p === '/me/outlets').length;
    const before = count();
    act(() => {
      window.dispatchEvent(new Event(SIGNED_IN_EVENT));
    });
    expect(count()).toBe(before);
    await waitFor(() => expect(count()).toBe(before + 1));
  });

  it('when the outlets cannot be fetched or there are none, then the spec texts are given', async () => {
    setup({ outletsFail: true });
    await waitFor(() => expect(sel.problem).toBe('Failed to fetch user outlets: boom'));
    expect(sel.outlets).toEqual([]);
  });

  it('when the user has no outlets, then No outlets assigned to your account. Please contact support.', async () => {
    setup({ outlets: [], selection: { outletId: null, storeId: null } });
    await waitFor(() => expect(sel.problem).toBe('No outlets assigned to your account. Please contact support.'));
    expect(sel.outlet).toBeNull();
  });

  it('when the user may not read outlets (403), then they simply have none: no error, the no-outlets text', async () => {
    setup({ outletsFail: true, outletsStatus: 403, selection: { outletId: null, storeId: null } });
    await waitFor(() => expect(sel.problem).toBe('No outlets assigned to your account. Please contact support.'));
    expect(sel.outletsError).toBeUndefined();
  });
});
