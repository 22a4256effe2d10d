import { screen } from '@testing-library/react';
import { cartSchema, type Cart } from '@portal/contracts';
import { useSession } from '@/lib/session';
import { useSelection } from '@/lib/selection';
import { FakeApi, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { HomeCartPanel } from './home-cart-panel';
import { CartSummaryButton } from './cart-summary-button';

jest.mock('@/lib/session', () => ({ useSession: jest.fn() }));
jest.mock('@/lib/selection', () => ({ useSelection: jest.fn() }));
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

const cartWith = (n: number): Cart => ({
  id: 7,
  outletId: 1,
  storeId: 2190,
  outlet: { name: 'Taproom', code: 'T1' },
  store: { name: 'Central', city: null, state: null, deliveryEnabled: true, deliveryCharge: '15.00' },
  items: Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    itemCode: String(100 + i),
    name: `ITEM ${i + 1}`,
    category: 'VODKA',
    quantity: 2,
    unitPrice: '10.00',
    lineTotal: '20.00',
    bottleSizeId: 3,
    bottleSize: '750 ml',
    volumeMl: 750,
  })),
  fulfillment: { type: 'Pickup', date: null, deliveryCharge: '0.00' },
  itemCount: n,
  totalQuantity: 2 * n,
  subtotal: (20 * n).toFixed(2),
  total: (20 * n).toFixed(2),
});
function show(cart: Cart) {
  const api = new FakeApi().on('get', '/carts/current', reply(cartSchema, cart));
  renderRoute(
    <>
      <CartSummaryButton />
      <HomeCartPanel />
    </>,
    { api },
  );
}

beforeEach(() => {
  (useSession as jest.Mock).mockReturnValue({ status: 'authenticated', me: { user: { id: 'u-1' } }, hasPermission: () => true });
  (useSelection as jest.Mock).mockReturnValue({ outlet: { outletId: 1 }, store: { id: 2190 }, loading: false });
});

describe('home cart panel and cart summary (spec 001 §2)', () => {
  it('when the cart has 7 lines, then the first 5, View more products (2 more), the total and View Full Cart show', async () => {
    show(cartWith(7));
    expect(await screen.findByText('ITEM 1')).toBeInTheDocument();
    expect(screen.getByText('ITEM 5')).toBeInTheDocument();
    expect(screen.queryByText('ITEM 6')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View more products (2 more)' })).toHaveAttribute('href', '/cart');
    expect(screen.getByText('Total').nextSibling).toHaveTextContent('$140.00');
    expect(screen.getByRole('link', { name: 'View Full Cart' })).toHaveAttribute('href', '/cart');
    expect(screen.getByRole('link', { name: 'View cart: 7 products, $140.00' })).toHaveClass('bg-brand-700');
  });

  it('when the cart has 5 lines or fewer, then no View more link shows', async () => {
    show(cartWith(3));
    expect(await screen.findByText('ITEM 3')).toBeInTheDocument();
    expect(screen.queryByText(/View more products/)).not.toBeInTheDocument();
  });

  it('when the cart is empty, then Your cart is empty shows and the cart button is not highlighted', async () => {
    show(cartWith(0));
    expect(await screen.findByText('Your cart is empty')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View Full Cart' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View cart: empty' })).not.toHaveClass('bg-brand-700');
  });
});
