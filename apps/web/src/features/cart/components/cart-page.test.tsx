import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { cartSchema, checkoutSessionSchema, type Cart } from '@portal/contracts';
import { useSession } from '@/lib/session';
import { useSelection } from '@/lib/selection';
import { notify } from '@/components/ui/toaster';
import { FakeApi, problem, reply, type FakeAnswer, type FakeCall } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { CartPage, CART_TEXTS } from './cart-page';

jest.mock('@/lib/session', () => ({ useSession: jest.fn() }));
jest.mock('@/lib/selection', () => ({ useSelection: jest.fn() }));
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

const line = (id: number, code: string, name: string, quantity: number, unitPrice: string) => ({
  id,
  itemCode: code,
  name,
  category: 'AMERICAN VODKAS',
  quantity,
  unitPrice,
  lineTotal: ((Math.round(Number(unitPrice) * 100) * quantity) / 100).toFixed(2),
  bottleSizeId: 3,
  bottleSize: '750 ml',
  volumeMl: 750,
});
function makeCart(
  over: Partial<Cart> = {},
  items: Cart['items'] = [line(11, '35918', 'TITOS HANDMADE VODKA', 2, '23.87'), line(12, '34422', 'GREY GOOSE', 1, '30.00')],
): Cart {
  const subtotal = items.reduce((s, l) => s + Number(l.lineTotal), 0);
  const fulfillment = over.fulfillment ?? { type: 'Pickup' as const, date: null, deliveryCharge: '0.00' };
  return {
    id: 7,
    outletId: 1,
    storeId: 2190,
    outlet: { name: 'Demo – Court Avenue Taproom', code: 'DEMO-DSM-01' },
    store: { name: 'Central City Liquor', city: 'Des Moines', state: 'IA', deliveryEnabled: true, deliveryCharge: '15.00' },
    items,
    fulfillment,
    itemCount: items.length,
    totalQuantity: items.reduce((s, l) => s + l.quantity, 0),
    subtotal: subtotal.toFixed(2),
    total: (subtotal + (fulfillment.type === 'Delivery' ? Number(fulfillment.deliveryCharge) : 0)).toFixed(2),
    ...over,
  };
}

let server: Cart;
const perms = new Set(['bcc.carts.use', 'bcc.carts.checkout']);
function session(status: 'loading' | 'authenticated' = 'authenticated') {
  (useSession as jest.Mock).mockReturnValue({
    status,
    me: status === 'authenticated' ? { user: { id: 'u-1', email: 'buyer@example.com' } } : null,
    hasPermission: (c: string) => perms.has(c),
  });
}
function withTotals(c: Cart): Cart {
  return makeCart({ fulfillment: c.fulfillment, store: c.store }, c.items);
}

function Where() {
  const l = useLocation();
  return (
    <p data-testid="where">
      {l.pathname}
      {l.search}
    </p>
  );
}
let api: FakeApi;
function renderCart() {
  return renderRoute(
    <Routes>
      <Route path="/cart" element={<CartPage />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { url: '/cart', api },
  );
}
/** DELETE /carts/{cartId}/items/{lineId} on the server cart. */
function removeLine(_call: FakeCall, m: RegExpExecArray): FakeAnswer {
  const id = Number(m[2]);
  server = withTotals({ ...server, items: server.items.filter((l) => l.id !== id) });
  return reply(cartSchema, server);
}

beforeEach(() => {
  perms.clear();
  perms.add('bcc.carts.use');
  perms.add('bcc.carts.checkout');
  session();
  (useSelection as jest.Mock).mockReturnValue({
    store: { id: 2190, name: 'Central City Liquor' },
    outlet: { outletId: 1 },
    loading: false,
  });
  server = makeCart();
  localStorage.clear();
  api = new FakeApi()
    .on('get', '/carts/current', () => reply(cartSchema, server))
    .on('patch', '/carts/{cartId}/items/{lineId}', (call, m) => {
      const id = Number(m[2]);
      const q = (call.body as { quantity: number }).quantity;
      server = withTotals({
        ...server,
        items: server.items.map((l) => (l.id === id ? line(l.id, l.itemCode, l.name, q, l.unitPrice) : l)),
      });
      return reply(cartSchema, server);
    })
    .on('delete', '/carts/{cartId}/items/{lineId}', removeLine)
    .on('put', '/carts/{cartId}/fulfillment', (call) => {
      const b = call.body as { type: 'Pickup' | 'Delivery'; date: string | null };
      server = withTotals({
        ...server,
        fulfillment: { type: b.type, date: b.date, deliveryCharge: b.type === 'Delivery' ? '15.00' : '0.00' },
      });
      return reply(cartSchema, server);
    });
});
afterEach(() => {
  (notify as jest.Mock).mockClear();
});

describe('My Cart (spec 001 §2)', () => {
  it('when permissions are loading, then it shows Loading cart...', () => {
    session('loading');
    renderCart();
    expect(screen.getByText('Loading cart...')).toBeInTheDocument();
  });

  it('when the cart is empty, then it says Your cart is empty with Continue Shopping and no fulfillment card', async () => {
    server = makeCart({}, []);
    renderCart();
    expect(await screen.findByText(CART_TEXTS.empty)).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /Continue Shopping/ })[0]).toHaveAttribute('href', '/shop');
    expect(screen.queryByText('Fulfillment Options')).not.toBeInTheDocument();
  });

  it('when the cart has items, then the store heading, count, lines and the Pickup summary show', async () => {
    renderCart();
    expect(await screen.findByText('CENTRAL CITY LIQUOR | Demo – Court Avenue Taproom')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'My Cart' })).toBeInTheDocument();
    expect(screen.getByText('2 products')).toBeInTheDocument();
    expect(screen.getByText('$47.74')).toBeInTheDocument(); // 2 × 23.87
    expect(screen.getByText('Subtotal').nextSibling).toHaveTextContent('$77.74');
    expect(screen.queryByText('Delivery', { selector: 'dt' })).not.toBeInTheDocument();
    expect(screen.getByTestId('cart-total')).toHaveTextContent('$77.74');
    expect(screen.getByText('Outlet').nextSibling).toHaveTextContent('Demo – Court Avenue Taproom');
    expect(screen.getByText('Des Moines, IA')).toBeInTheDocument();
    expect(screen.getByLabelText('Select Pickup/Delivery Date (Optional)').tagName).toBe('BUTTON');
  });

  it('when a quantity is typed, then it is saved 800 ms later and the totals follow', async () => {
    renderCart();
    const box = await screen.findByRole('textbox', { name: 'Quantity of GREY GOOSE' });
    fireEvent.change(box, { target: { value: '12' } });
    expect(api.urls('patch')).toEqual([]);
    await waitFor(() => expect(api.calls).toContainEqual({ method: 'patch', url: '/carts/7/items/12', body: { quantity: 12 } }), {
      timeout: 2000,
    });
    await waitFor(() => expect(screen.getByTestId('cart-total')).toHaveTextContent('$407.74'));
  });

  it('when minus is pressed at quantity 1, then the line is removed with Item removed', async () => {
    renderCart();
    const row = (await screen.findByRole('textbox', { name: 'Quantity of GREY GOOSE' })).closest('li')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Decrease quantity (removes the item)' }));
    await waitFor(() => expect(api.urls('delete')).toContain('/carts/7/items/12'));
    await waitFor(() => expect(screen.getByText('1 product')).toBeInTheDocument());
    expect(notify).toHaveBeenCalledWith({ title: 'Item removed' });
  });

  it('when a write fails, then the error toast shows and the cart is reloaded', async () => {
    let failed = false;
    api.on('delete', '/carts/{cartId}/items/{lineId}', (call, m) =>
      failed ? removeLine(call, m) : ((failed = true), problem(500, 'internal_error', 'x')),
    );
    renderCart();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove GREY GOOSE' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        title: 'Error',
        description: 'Failed to remove item. Please try again.',
        variant: 'destructive',
      }),
    );
    await waitFor(() => expect(api.urls('get').length).toBeGreaterThanOrEqual(2));
    expect(await screen.findByText('2 products')).toBeInTheDocument();
  });

  it('when Delivery is chosen, then it is saved and the Delivery charge joins the total', async () => {
    renderCart();
    const delivery = await screen.findByRole('radio', { name: /Delivery/ });
    expect(screen.getByText('+$15.00')).toBeInTheDocument();
    fireEvent.click(delivery);
    await waitFor(() =>
      expect(api.calls).toContainEqual({ method: 'put', url: '/carts/7/fulfillment', body: { type: 'Delivery', date: null } }),
    );
    await waitFor(() => expect(screen.getByText('Delivery', { selector: 'dt' }).nextSibling).toHaveTextContent('$15.00'));
    expect(screen.getByTestId('cart-total')).toHaveTextContent('$92.74');
  });

  it('when the store does not deliver, then only Pickup is offered with the two notices', async () => {
    server = makeCart({ store: { name: 'Cyclone Liquors', city: 'Ames', state: 'IA', deliveryEnabled: false, deliveryCharge: '0.00' } });
    renderCart();
    expect(await screen.findByText('Delivery is not available from this store.')).toBeInTheDocument();
    expect(screen.getByText('Your order will be prepared for pickup.')).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /Delivery/ })).not.toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Pickup/ })).toBeChecked();
  });

  it('when a line is no longer sold by the store, then it is flagged and Checkout waits until it is removed', async () => {
    server = makeCart({}, [
      line(11, '35918', 'TITOS HANDMADE VODKA', 2, '23.87'),
      { ...line(12, '34422', 'GREY GOOSE', 1, '30.00'), available: false },
    ]);
    renderCart();
    expect(await screen.findByText('No longer available')).toBeInTheDocument();
    expect(screen.getByText('Some items in your cart are no longer available. Please review your cart.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Checkout' })).toBeDisabled();
  });

  it('when the user lacks bcc.carts.checkout, then Checkout is disabled with a title and the note', async () => {
    perms.delete('bcc.carts.checkout');
    renderCart();
    const btn = await screen.findByRole('button', { name: 'Checkout' });
    expect(btn).toBeDisabled();
    expect(btn).toHaveAttribute('title', "You don't have permission to checkout.");
    expect(screen.getByText("You don't have permission to checkout. Please contact your administrator.")).toBeInTheDocument();
  });

  it('when Checkout is pressed, then a session is created, kept in local storage and /payment opens with the query', async () => {
    server = makeCart({ fulfillment: { type: 'Delivery', date: '2099-03-05', deliveryCharge: '15.00' } });
    const token = 'a'.repeat(64);
    let release!: () => void;
    const held = new Promise<FakeAnswer>((ok) => {
      release = () =>
        ok(
          reply(checkoutSessionSchema, {
            token,
            expiresAt: '2099-01-01T00:30:00.000Z',
            total: '92.74',
            subtotal: '77.74',
            deliveryCharge: '15.00',
            cartId: 7,
            storeId: 2190,
            outletId: 1,
            itemCount: 2,
            fulfillmentType: 'Delivery',
            fulfillmentDate: '2099-03-05',
            testMode: true,
          }),
        );
    });
    api.on('post', '/checkout-sessions', () => held);
    renderCart();
    fireEvent.click(await screen.findByRole('button', { name: 'Checkout' }));
    expect(await screen.findByRole('button', { name: 'Processing...' })).toBeDisabled();
    await act(async () => {
      release();
    });
    expect(api.calls).toContainEqual({ method: 'post', url: '/checkout-sessions', body: { cartId: 7 } });
    expect(await screen.findByTestId('where')).toHaveTextContent(
      `/payment?token=${token}&total=92.74&cartId=7&source=cart&fulfillmentType=Delivery&fulfillmentDate=2099-03-05`,
    );
    expect(JSON.parse(localStorage.getItem('checkout_session')!)).toMatchObject({
      token,
      cartId: 7,
      totalAmount: '92.74',
      userId: 'u-1',
      expiresAt: '2099-01-01T00:30:00.000Z',
    });
  });

  it.each([
    ['Access Denied', problem(403, 'forbidden', 'x'), "You don't have permission to checkout."],
    ['Cart is empty', problem(400, 'cart_empty', 'x'), 'Please add items to your cart before checking out.'],
    ['Checkout Failed', problem(500, 'internal_error', 'x'), 'There was an error starting the checkout process. Please try again.'],
  ])('when checkout is refused, then the %s toast shows and the button is usable again', async (title, answer, description) => {
    api.on('post', '/checkout-sessions', answer);
    renderCart();
    fireEvent.click(await screen.findByRole('button', { name: 'Checkout' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ title, description, variant: 'destructive' }));
    expect(screen.getByRole('button', { name: 'Checkout' })).toBeEnabled();
  });
});
