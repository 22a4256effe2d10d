import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SWRConfig } from 'swr';
import type { Cart } from '@portal/contracts';
import { api, ApiError } from '@/lib/api';
import { useSession } from '@/lib/session';
import { useSelection } from '@/lib/selection';
import { notify } from '@/components/ui/toaster';
import { CartPage, CART_TEXTS } from './cart-page';

jest.mock('@/lib/session', () => ({ useSession: jest.fn() }));
jest.mock('@/lib/selection', () => ({ useSelection: jest.fn() }));
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

const line = (id: number, code: string, name: string, quantity: number, unitPrice: string) => ({
  id, itemCode: code, name, category: 'AMERICAN VODKAS', quantity, unitPrice,
  lineTotal: (Math.round(Number(unitPrice) * 100) * quantity / 100).toFixed(2), bottleSizeId: 3, bottleSize: '750 ml', volumeMl: 750,
});
function makeCart(over: Partial<Cart> = {}, items: Cart['items'] = [line(11, '35918', 'TITOS HANDMADE VODKA', 2, '23.87'), line(12, '34422', 'GREY GOOSE', 1, '30.00')]): Cart {
  const subtotal = items.reduce((s, l) => s + Number(l.lineTotal), 0);
  const fulfillment = over.fulfillment ?? { type: 'Pickup' as const, date: null, deliveryCharge: '0.00' };
  return {
    id: 7, outletId: 1, storeId: 2190,
    outlet: { name: 'Demo – Court Avenue Taproom', code: 'DEMO-DSM-01' },
    store: { name: 'Central City Liquor', city: 'Des Moines', state: 'IA', deliveryEnabled: true, deliveryCharge: '15.00' },
    items, fulfillment, itemCount: items.length, totalQuantity: items.reduce((s, l) => s + l.quantity, 0),
    subtotal: subtotal.toFixed(2), total: (subtotal + (fulfillment.type === 'Delivery' ? Number(fulfillment.deliveryCharge) : 0)).toFixed(2),
    ...over,
  };
}

let server: Cart;
const perms = new Set(['bcc.carts.use', 'bcc.carts.checkout']);
function session(status: 'loading' | 'authenticated' = 'authenticated') {
  (useSession as jest.Mock).mockReturnValue({
    status, me: status === 'authenticated' ? { user: { id: 'u-1', email: 'buyer@example.com' } } : null,
    hasPermission: (c: string) => perms.has(c),
  });
}
function withTotals(c: Cart): Cart { return makeCart({ fulfillment: c.fulfillment, store: c.store }, c.items); }

function Where() { const l = useLocation(); return <p data-testid="where">{l.pathname}{l.search}</p>; }
function renderCart() {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter initialEntries={['/cart']}>
        <Routes><Route path="/cart" element={<CartPage />} /><Route path="*" element={<Where />} /></Routes>
      </MemoryRouter>
    </SWRConfig>,
  );
}

beforeEach(() => {
  perms.clear(); perms.add('bcc.carts.use'); perms.add('bcc.carts.checkout');
  session();
  (useSelection as jest.Mock).mockReturnValue({ store: { id: 2190, name: 'Central City Liquor' }, outlet: { outletId: 1 }, loading: false });
  server = makeCart();
  localStorage.clear();
  jest.spyOn(api, 'get').mockImplementation(async () => ({ data: server }));
  jest.spyOn(api, 'patch').mockImplementation(async (url: string, body: unknown) => {
    const id = Number(url.split('/').pop());
    const q = (body as { quantity: number }).quantity;
    server = withTotals({ ...server, items: server.items.map((l) => (l.id === id ? line(l.id, l.itemCode, l.name, q, l.unitPrice) : l)) });
    return { data: server };
  });
  jest.spyOn(api, 'delete').mockImplementation(async (url: string) => {
    const id = Number(url.split('/').pop());
    server = withTotals({ ...server, items: server.items.filter((l) => l.id !== id) });
    return { data: server };
  });
  jest.spyOn(api, 'put').mockImplementation(async (_url: string, body: unknown) => {
    const b = body as { type: 'Pickup' | 'Delivery'; date: string | null };
    server = withTotals({ ...server, fulfillment: { type: b.type, date: b.date, deliveryCharge: b.type === 'Delivery' ? '15.00' : '0.00' } });
    return { data: server };
  });
});
afterEach(() => { jest.restoreAllMocks(); (notify as jest.Mock).mockClear(); });

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
    expect(api.patch).not.toHaveBeenCalled();
    await waitFor(() => expect(api.patch).toHaveBeenCalledWith('/carts/7/items/12', { quantity: 12 }), { timeout: 2000 });
    await waitFor(() => expect(screen.getByTestId('cart-total')).toHaveTextContent('$407.74'));
  });

  it('when minus is pressed at quantity 1, then the line is removed with Item removed', async () => {
    renderCart();
    const row = (await screen.findByRole('textbox', { name: 'Quantity of GREY GOOSE' })).closest('li')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Decrease quantity (removes the item)' }));
    await waitFor(() => expect(api.delete).toHaveBeenCalledWith('/carts/7/items/12'));
    await waitFor(() => expect(screen.getByText('1 product')).toBeInTheDocument());
    expect(notify).toHaveBeenCalledWith({ title: 'Item removed' });
  });

  it('when a write fails, then the error toast shows and the cart is reloaded', async () => {
    (api.delete as jest.Mock).mockRejectedValueOnce(new ApiError(500, { type: 'x', title: 'x', status: 500, code: 'internal_error' }));
    renderCart();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove GREY GOOSE' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ title: 'Error', description: 'Failed to remove item. Please try again.', variant: 'destructive' }));
    await waitFor(() => expect((api.get as jest.Mock).mock.calls.length).toBeGreaterThanOrEqual(2));
    expect(await screen.findByText('2 products')).toBeInTheDocument();
  });

  it('when Delivery is chosen, then it is saved and the Delivery charge joins the total', async () => {
    renderCart();
    const delivery = await screen.findByRole('radio', { name: /Delivery/ });
    expect(screen.getByText('+$15.00')).toBeInTheDocument();
    fireEvent.click(delivery);
    await waitFor(() => expect(api.put).toHaveBeenCalledWith('/carts/7/fulfillment', { type: 'Delivery', date: null }));
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
    server = makeCart({}, [line(11, '35918', 'TITOS HANDMADE VODKA', 2, '23.87'), { ...line(12, '34422', 'GREY GOOSE', 1, '30.00'), available: false }]);
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
    jest.spyOn(api, 'post').mockImplementation(() => new Promise((ok) => { release = () => ok({
      data: { token, expiresAt: '2099-01-01T00:30:00.000Z', total: '92.74', subtotal: '77.74', deliveryCharge: '15.00', cartId: 7, storeId: 2190, outletId: 1, itemCount: 2, fulfillmentType: 'Delivery', fulfillmentDate: '2099-03-05', testMode: true },
    }); }));
    renderCart();
    fireEvent.click(await screen.findByRole('button', { name: 'Checkout' }));
    expect(await screen.findByRole('button', { name: 'Processing...' })).toBeDisabled();
    await act(async () => { release(); });
    expect(api.post).toHaveBeenCalledWith('/checkout-sessions', { cartId: 7 });
    expect(await screen.findByTestId('where')).toHaveTextContent(
      `/payment?token=${token}&total=92.74&cartId=7&source=cart&fulfillmentType=Delivery&fulfillmentDate=2099-03-05`,
    );
    expect(JSON.parse(localStorage.getItem('checkout_session')!)).toMatchObject({ token, cartId: 7, totalAmount: '92.74', userId: 'u-1', expiresAt: '2099-01-01T00:30:00.000Z' });
  });

  it.each([
    ['Access Denied', new ApiError(403, { type: 'x', title: 'x', status: 403, code: 'forbidden' }), "You don't have permission to checkout."],
    ['Cart is empty', new ApiError(400, { type: 'x', title: 'x', status: 400, code: 'cart_empty' }), 'Please add items to your cart before checking out.'],
    ['Checkout Failed', new ApiError(500, { type: 'x', title: 'x', status: 500, code: 'internal_error' }), 'There was an error starting the checkout process. Please try again.'],
  ])('when checkout is refused, then the %s toast shows and the button is usable again', async (title, err, description) => {
    jest.spyOn(api, 'post').mockRejectedValue(err);
    renderCart();
    fireEvent.click(await screen.findByRole('button', { name: 'Checkout' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ title, description, variant: 'destructive' }));
    expect(screen.getByRole('button', { name: 'Checkout' })).toBeEnabled();
  });
});
