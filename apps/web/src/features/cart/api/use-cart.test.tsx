import { act, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { cartSchema, type Cart } from '@portal/contracts';
import { useSession } from '@/lib/session';
import { useSelection } from '@/lib/selection';
import { notify } from '@/components/ui/toaster';
import { FakeApi, problem, reply, type FakeAnswer } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { cartFixture } from '@/test/cart-fixture';
import { useCart, withLines } from './use-cart';

jest.mock('@/lib/session', () => ({ useSession: jest.fn() }));
jest.mock('@/lib/selection', () => ({ useSelection: jest.fn() }));
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

const empty: Cart = cartFixture();
const withVodka: Cart = {
  ...empty,
  itemCount: 1,
  totalQuantity: 1,
  subtotal: '23.87',
  total: '23.87',
  items: [
    {
      id: 11,
      itemCode: '35918',
      name: 'TITOS',
      category: 'VODKA',
      quantity: 1,
      unitPrice: '23.87',
      lineTotal: '23.87',
      bottleSizeId: 3,
      bottleSize: '750 ml',
      volumeMl: 750,
    },
  ],
};

let path = '';
function Where() {
  path = useLocation().pathname;
  return null;
}
let api: FakeApi;
/** Renders `hook` in a probe on renderRoute (with the Where probe) and returns its latest value, like renderHook. */
function renderCartHook<T>(hook: () => T) {
  const result = { current: undefined as unknown as T };
  function Probe() {
    result.current = hook();
    return null;
  }
  renderRoute(
    <>
      <Where />
      <Probe />
    </>,
    { api },
  );
  return { result };
}

beforeEach(() => {
  (useSession as jest.Mock).mockReturnValue({ status: 'authenticated', me: { user: { id: 'u-1' } }, hasPermission: () => true });
  (useSelection as jest.Mock).mockReturnValue({ outlet: { outletId: 1 }, store: { id: 2190 }, loading: false });
  api = new FakeApi().on('get', '/carts/current', reply(cartSchema, empty));
});
afterEach(() => {
  (notify as jest.Mock).mockClear();
});

describe('useCart (spec 001 §4, §8)', () => {
  it('when the cart loads, then it asks for the current cart of the selected outlet and store', async () => {
    const { result } = renderCartHook(() => useCart());
    await waitFor(() => expect(result.current.cart?.id).toBe(7));
    expect(api.urls('get')).toContain('/carts/current?outletId=1&storeId=2190');
  });

  it('when an item is added, then it is busy until the server answers, the cart updates and Item added offers View Cart', async () => {
    let answer!: (v: FakeAnswer) => void;
    const held = new Promise<FakeAnswer>((ok) => {
      answer = ok;
    });
    api.on('post', '/carts/{cartId}/items', () => held);
    const { result } = renderCartHook(() => useCart());
    await waitFor(() => expect(result.current.cart).not.toBeNull());
    let done!: Promise<boolean>;
    act(() => {
      done = result.current.add({ code: '35918', name: 'TITOS' });
    });
    await waitFor(() => expect(result.current.isBusy('35918')).toBe(true));
    expect(api.calls).toContainEqual({ method: 'post', url: '/carts/7/items', body: { itemCode: '35918' } });
    await act(async () => {
      answer(reply(cartSchema, withVodka));
      await done;
    });
    expect(result.current.isBusy('35918')).toBe(false);
    expect(result.current.cart?.itemCount).toBe(1);
    const toast = (notify as jest.Mock).mock.calls.at(-1)[0];
    expect(toast).toMatchObject({ title: 'Item added', variant: 'success', action: { label: 'View Cart' } });
    act(() => toast.action.onClick());
    expect(path).toBe('/cart');
  });

  it('when adding fails, then the spec error shows and the cart is reloaded from the server', async () => {
    api.on('post', '/carts/{cartId}/items', problem(500, 'internal_error'));
    const { result } = renderCartHook(() => useCart());
    await waitFor(() => expect(result.current.cart).not.toBeNull());
    await act(async () => {
      await result.current.add({ code: '35918', name: 'TITOS' });
    });
    expect(notify).toHaveBeenCalledWith({
      title: 'Error',
      description: 'Failed to add item to cart. Please try again.',
      variant: 'destructive',
    });
    expect(api.urls('get').length).toBeGreaterThanOrEqual(2);
  });

  it('when the quantity limit is hit, then the limit message shows', async () => {
    api.on('post', '/carts/{cartId}/items', problem(400, 'cart_quantity_limit'));
    const { result } = renderCartHook(() => useCart());
    await waitFor(() => expect(result.current.cart).not.toBeNull());
    await act(async () => {
      await result.current.add({ code: '35918', name: 'TITOS' });
    });
    expect(notify).toHaveBeenCalledWith({ title: 'Error', description: 'You can order at most 999 of one item.', variant: 'destructive' });
  });

  it('when the cart cannot load, then Error loading cart shows once', async () => {
    api.on('get', '/carts/current', problem(500, 'internal_error'));
    const { result } = renderCartHook(() => {
      useCart();
      return useCart();
    });
    await waitFor(() => expect(result.current.error).not.toBeNull());
    expect((notify as jest.Mock).mock.calls.filter((c) => c[0].title === 'Error loading cart')).toHaveLength(1);
  });

  it('when the user lacks bcc.carts.use, then no cart is requested', () => {
    (useSession as jest.Mock).mockReturnValue({ status: 'authenticated', me: { user: { id: 'u-1' } }, hasPermission: () => false });
    const { result } = renderCartHook(() => useCart());
    expect(result.current.canUseCart).toBe(false);
    expect(api.urls('get')).toEqual([]);
  });

  it('when a line changes locally, then totals are recomputed in cents (Delivery charge included)', () => {
    const c = withLines({ ...withVodka, fulfillment: { type: 'Delivery', date: null, deliveryCharge: '15.00' } }, [
      { ...withVodka.items[0], quantity: 3 },
    ]);
    expect(c).toMatchObject({ subtotal: '71.61', total: '86.61', itemCount: 1, totalQuantity: 3 });
    expect(c.items[0].lineTotal).toBe('71.61');
  });
});
