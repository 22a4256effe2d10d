import type { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SWRConfig } from 'swr';
import type { Cart } from '@portal/contracts';
import { api, ApiError } from '@/lib/api';
import { useSession } from '@/lib/session';
import { useSelection } from '@/lib/selection';
import { notify } from '@/components/ui/toaster';
import { useCart, withLines } from './use-cart';

jest.mock('@/lib/session', () => ({ useSession: jest.fn() }));
jest.mock('@/lib/selection', () => ({ useSelection: jest.fn() }));
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

const empty: Cart = {
  id: 7, outletId: 1, storeId: 2190, outlet: { name: 'Taproom', code: 'T1' },
  store: { name: 'Central', city: null, state: null, deliveryEnabled: true, deliveryCharge: '15.00' },
  items: [], fulfillment: { type: 'Pickup', date: null, deliveryCharge: '0.00' }, itemCount: 0, totalQuantity: 0, subtotal: '0.00', total: '0.00',
};
const withVodka: Cart = {
  ...empty, itemCount: 1, totalQuantity: 1, subtotal: '23.87', total: '23.87',
  items: [{ id: 11, itemCode: '35918', name: 'TITOS', category: 'VODKA', quantity: 1, unitPrice: '23.87', lineTotal: '23.87', bottleSizeId: 3, bottleSize: '750 ml', volumeMl: 750 }],
};

let path = '';
function Where() { path = useLocation().pathname; return null; }
const wrapper = ({ children }: { children: ReactNode }) => (
  <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
    <MemoryRouter><Routes><Route path="*" element={<><Where />{children}</>} /></Routes></MemoryRouter>
  </SWRConfig>
);

beforeEach(() => {
  (useSession as jest.Mock).mockReturnValue({ status: 'authenticated', me: { user: { id: 'u-1' } }, hasPermission: () => true });
  (useSelection as jest.Mock).mockReturnValue({ outlet: { outletId: 1 }, store: { id: 2190 }, loading: false });
  jest.spyOn(api, 'get').mockResolvedValue({ data: empty });
});
afterEach(() => { jest.restoreAllMocks(); (notify as jest.Mock).mockClear(); });

describe('useCart (spec 001 §4, §8)', () => {
  it('when the cart loads, then it asks for the current cart of the selected outlet and store', async () => {
    const { result } = renderHook(() => useCart(), { wrapper });
    await waitFor(() => expect(result.current.cart?.id).toBe(7));
    expect(api.get).toHaveBeenCalledWith('/carts/current?outletId=1&storeId=2190');
  });

  it('when an item is added, then it is busy until the server answers, the cart updates and Item added offers View Cart', async () => {
    let answer!: (v: unknown) => void;
    jest.spyOn(api, 'post').mockImplementation(() => new Promise((ok) => { answer = ok; }));
    const { result } = renderHook(() => useCart(), { wrapper });
    await waitFor(() => expect(result.current.cart).not.toBeNull());
    let done!: Promise<boolean>;
    act(() => { done = result.current.add({ code: '35918', name: 'TITOS' }); });
    await waitFor(() => expect(result.current.isBusy('35918')).toBe(true));
    expect(api.post).toHaveBeenCalledWith('/carts/7/items', { itemCode: '35918' });
    await act(async () => { answer({ data: withVodka }); await done; });
    expect(result.current.isBusy('35918')).toBe(false);
    expect(result.current.cart?.itemCount).toBe(1);
    const toast = (notify as jest.Mock).mock.calls.at(-1)[0];
    expect(toast).toMatchObject({ title: 'Item added', variant: 'success', action: { label: 'View Cart' } });
    act(() => toast.action.onClick());
    expect(path).toBe('/cart');
  });

  it('when adding fails, then the spec error shows and the cart is reloaded from the server', async () => {
    jest.spyOn(api, 'post').mockRejectedValue(new ApiError(500, { type: 'x', title: 'x', status: 500, code: 'internal_error' }));
    const { result } = renderHook(() => useCart(), { wrapper });
    await waitFor(() => expect(result.current.cart).not.toBeNull());
    await act(async () => { await result.current.add({ code: '35918', name: 'TITOS' }); });
    expect(notify).toHaveBeenCalledWith({ title: 'Error', description: 'Failed to add item to cart. Please try again.', variant: 'destructive' });
    expect((api.get as jest.Mock).mock.calls.length).toBeGreaterThanOrEqual(2);
  });

  it('when the quantity limit is hit, then the limit message shows', async () => {
    jest.spyOn(api, 'post').mockRejectedValue(new ApiError(400, { type: 'x', title: 'x', status: 400, code: 'cart_quantity_limit' }));
    const { result } = renderHook(() => useCart(), { wrapper });
    await waitFor(() => expect(result.current.cart).not.toBeNull());
    await act(async () => { await result.current.add({ code: '35918', name: 'TITOS' }); });
    expect(notify).toHaveBeenCalledWith({ title: 'Error', description: 'You can order at most 999 of one item.', variant: 'destructive' });
  });

  it('when the cart cannot load, then Error loading cart shows once', async () => {
    (api.get as jest.Mock).mockRejectedValue(new ApiError(500, { type: 'x', title: 'x', status: 500, code: 'internal_error' }));
    const { result } = renderHook(() => { useCart(); return useCart(); }, { wrapper });
    await waitFor(() => expect(result.current.error).not.toBeNull());
    expect((notify as jest.Mock).mock.calls.filter((c) => c[0].title === 'Error loading cart')).toHaveLength(1);
  });

  it('when the user lacks bcc.carts.use, then no cart is requested', () => {
    (useSession as jest.Mock).mockReturnValue({ status: 'authenticated', me: { user: { id: 'u-1' } }, hasPermission: () => false });
    const { result } = renderHook(() => useCart(), { wrapper });
    expect(result.current.canUseCart).toBe(false);
    expect(api.get).not.toHaveBeenCalled();
  });

  it('when a line changes locally, then totals are recomputed in cents (Delivery charge included)', () => {
    const c = withLines({ ...withVodka, fulfillment: { type: 'Delivery', date: null, deliveryCharge: '15.00' } }, [{ ...withVodka.items[0], quantity: 3 }]);
    expect(c).toMatchObject({ subtotal: '71.61', total: '86.61', itemCount: 1, totalQuantity: 3 });
    expect(c.items[0].lineTotal).toBe('71.61');
  });
});
