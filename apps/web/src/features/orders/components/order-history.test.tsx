import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { orderDetailSchema, orderListSchema, reorderResultSchema, type OrderDetail, type OrderList } from '@portal/contracts';
import { useSelection } from '@/lib/selection';
import { notify } from '@/components/ui/toaster';
import { FakeApi, problem, reply, type FakeAnswer } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { OrderHistory } from './order-history';
import { makeList, makeOrder, makeOrderDetail, setViewportWidth } from './test-fixtures';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
jest.mock('@/lib/selection', () => ({ useSelection: jest.fn() }));
jest.mock('@/lib/session', () => ({ useSession: () => ({ me: { user: { email: 'Buyer@example.com' } } }) }));

const STORE = { id: 2190, name: 'Central City Liquor' };
const OUTLET = { outletId: 7, outletName: 'Demo – Court Avenue Taproom' };
const delivery = makeOrder({
  id: 102,
  orderNumber: 'ORD-DELIVERY',
  status: 'ready',
  fulfillmentType: 'Delivery',
  fulfillmentDate: '2026-02-10',
  deliveryCharge: '15.00',
  total: '74.98',
  itemCount: 2,
  items: [
    {
      id: 1,
      itemCode: '43336',
      itemName: 'Captain Morgan Spiced Rum',
      bottleSizeId: 750,
      bottleSizeText: '750ML',
      quantity: 2,
      unitPrice: '29.99',
      totalPrice: '59.98',
    },
    {
      id: 2,
      itemCode: '11788',
      itemName: 'Black Velvet',
      bottleSizeId: 1750,
      bottleSizeText: '1.75L',
      quantity: 1,
      unitPrice: '0.00',
      totalPrice: '0.00',
    },
  ],
});
const pickup = makeOrder({ id: 101, status: 'completed' });

let api: FakeApi;
function renderPage(selection: object = { store: STORE, outlet: OUTLET, loading: false }) {
  (useSelection as jest.Mock).mockReturnValue(selection);
  return renderRoute(<OrderHistory />, { api });
}
/** GET answers by exact path: an order list (`/orders?…`) or an order's detail (`/orders/{id}`); any other path is 404 not_found. */
function answer(map: Record<string, OrderList | OrderDetail>) {
  for (const [url, body] of Object.entries(map)) {
    api.on(
      'get',
      url,
      url.startsWith('/orders?') ? reply(orderListSchema, body as OrderList) : reply(orderDetailSchema, body as OrderDetail),
    );
  }
}
beforeEach(() => {
  setViewportWidth(1280);
  api = new FakeApi();
  (notify as jest.Mock).mockClear();
});

describe('My Orders (spec 001 §2 Order History)', () => {
  it('when orders exist on desktop, then a table lists number, date, items, status and total of the selected store', async () => {
    answer({ '/orders?storeId=2190&mine=true': makeList([delivery, pickup], 'own') });
    renderPage();
    expect(screen.getByRole('heading', { name: 'My Orders' })).toBeInTheDocument();
    expect(screen.getByText('Demo – Court Avenue Taproom | Central City Liquor')).toBeInTheDocument();
    expect(screen.getByText('View your past orders from Central City Liquor')).toBeInTheDocument();
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]).getByText('ORD-DELIVERY')).toBeInTheDocument();
    expect(within(rows[1]).getByText('2 items')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Ready')).toBeInTheDocument();
    expect(within(rows[1]).getByText('$74.98')).toBeInTheDocument();
    expect(within(rows[2]).getByText('Completed')).toBeInTheDocument();
  });

  it("when it loads, then it asks the API for the caller's own orders only (mine=true), also for store managers", async () => {
    answer({ '/orders?storeId=2190&mine=true': makeList([pickup], 'own') });
    renderPage();
    expect(await screen.findByText('ORD-20260105-0001')).toBeInTheDocument();
    expect(api.urls('get')).toContain('/orders?storeId=2190&mine=true');
    expect(api.urls('get').some((url) => url === '/orders?storeId=2190')).toBe(false);
  });

  it('when the screen is narrower than 768 px, then orders are cards, not a table', async () => {
    setViewportWidth(390);
    answer({ '/orders?storeId=2190&mine=true': makeList([pickup], 'own') });
    renderPage();
    expect(await screen.findByText('ORD-20260105-0001')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('listitem')).toHaveTextContent('$59.98');
  });

  it('when a card order was cancelled and refunded, then its row and card say Refunded $25.01', async () => {
    const refunded = makeOrder({
      id: 103,
      orderNumber: 'ORD-REFUNDED',
      status: 'cancelled',
      paymentStatus: 'refunded',
      total: '25.01',
      refundedAmount: '25.01',
    });
    answer({ '/orders?storeId=2190&mine=true': makeList([refunded, pickup], 'own') });
    renderPage();
    const rows = within(await screen.findByRole('table')).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Cancelled');
    expect(within(rows[1]).getByText('Refunded $25.01')).toBeInTheDocument();
    expect(within(rows[2]).queryByText(/Refunded/)).not.toBeInTheDocument();
  });

  it('when a refunded order shows as a card (narrow screen), then it says Refunded $25.01 under its total', async () => {
    setViewportWidth(390);
    const refunded = makeOrder({
      id: 103,
      orderNumber: 'ORD-REFUNDED',
      status: 'cancelled',
      paymentStatus: 'refunded',
      total: '25.01',
      refundedAmount: '25.01',
    });
    answer({ '/orders?storeId=2190&mine=true': makeList([refunded], 'own') });
    renderPage();
    expect(await screen.findByText('Refunded $25.01')).toBeInTheDocument();
  });

  it('when the list is still loading, then the monthly statement waits and shows with it (nothing pushes the loading rows down)', async () => {
    let answerList: (a: FakeAnswer) => void = () => undefined;
    api.on('get', '/orders?storeId=2190&mine=true', () => new Promise<FakeAnswer>((ok) => (answerList = ok)));
    renderPage();
    await waitFor(() => expect(api.calls.some((c) => c.url === '/orders?storeId=2190&mine=true')).toBe(true));
    expect(screen.queryByRole('heading', { name: 'Monthly statement' })).not.toBeInTheDocument();
    answerList(reply(orderListSchema, makeList([pickup], 'own')));
    expect(await screen.findByRole('heading', { name: 'Monthly statement' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download statement (PDF)' })).toBeInTheDocument();
  });

  it('when the selection is still loading, then the subtitle is blank, not "Select a store…"', () => {
    renderPage({ store: undefined, outlet: undefined, loading: true });
    expect(screen.queryByText(/Select a store to view your order history/)).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Monthly statement' })).not.toBeInTheDocument();
  });

  it('when there are no orders, then it shows the empty text', async () => {
    answer({ '/orders?storeId=2190&mine=true': makeList([], 'own') });
    renderPage();
    expect(await screen.findByText('No orders found. Start shopping to see your order history!')).toBeInTheDocument();
  });

  it('when no store is selected, then it asks to select one and loads nothing', () => {
    renderPage({ store: null, outlet: OUTLET, loading: false });
    expect(screen.getByText('Select a store to view your order history')).toBeInTheDocument();
    expect(api.urls('get')).toEqual([]);
  });

  it('when loading fails, then it toasts Error / Failed to load order history. Please try again.', async () => {
    api.on('get', /.*/, problem(500, 'internal_error', 'Internal error'));
    renderPage();
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        title: 'Error',
        description: 'Failed to load order history. Please try again.',
        variant: 'destructive',
      }),
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('when details of a Delivery order are opened, then every field of the spec shows', async () => {
    answer({
      '/orders?storeId=2190&mine=true': makeList([delivery], 'own'),
      '/orders/102': makeOrderDetail({
        ...delivery,
        delivery: {
          name: 'Demo – Court Avenue Taproom',
          address: '309 Court Ave',
          city: 'DES MOINES',
          state: 'IA',
          zipCode: '50309',
          phone: '(515) 555-0142',
        },
      }),
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: /View Details/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Order ORD-DELIVERY' });
    expect(within(dialog).getByText('Order Date')).toBeInTheDocument();
    expect(within(dialog).getByText('Ready')).toBeInTheDocument();
    expect(within(dialog).getByText('Delivery')).toBeInTheDocument();
    expect(within(dialog).getByText('Feb 10, 2026')).toBeInTheDocument();
    expect(await within(dialog).findByText('Store Information')).toBeInTheDocument();
    expect(within(dialog).getByText('1460 2nd Ave')).toBeInTheDocument();
    expect(within(dialog).getByText('Des Moines, IA 50314')).toBeInTheDocument();
    expect(within(dialog).getByText('(515) 555-0199')).toBeInTheDocument();
    expect(within(dialog).getByText('Delivery Address')).toBeInTheDocument();
    expect(within(dialog).getByText('309 Court Ave')).toBeInTheDocument();
    expect(within(dialog).getByText('DES MOINES, IA 50309')).toBeInTheDocument();
    for (const h of ['Product', 'Qty', 'Price', 'Total']) expect(within(dialog).getByRole('columnheader', { name: h })).toBeInTheDocument();
    expect(within(dialog).getByText('Black Velvet')).toBeInTheDocument();
    expect(within(dialog).getByText('Subtotal')).toBeInTheDocument();
    expect(within(dialog).getByText('Delivery Charge')).toBeInTheDocument();
    expect(within(dialog).getByText('$15.00')).toBeInTheDocument();
    expect(within(dialog).getByText('Order Total')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Re-Order these items' })).toBeInTheDocument();
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' })[0]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('when a Pickup order without a date is opened, then the date reads None chosen and there is no delivery block', async () => {
    answer({ '/orders?storeId=2190&mine=true': makeList([pickup], 'own'), '/orders/101': makeOrderDetail(pickup) });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: /View Details/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('None chosen')).toBeInTheDocument();
    expect(await within(dialog).findByText('Store Information')).toBeInTheDocument();
    expect(within(dialog).queryByText('Delivery Address')).not.toBeInTheDocument();
  });

  it('when Re-Order these items succeeds, then it shows Adding to Cart..., fills the selected outlet × store cart, closes the dialog and toasts Items added to cart with the count', async () => {
    answer({ '/orders?storeId=2190&mine=true': makeList([delivery], 'own'), '/orders/102': makeOrderDetail(delivery) });
    let finish!: (answer: FakeAnswer) => void;
    const held = new Promise<FakeAnswer>((ok) => {
      finish = ok;
    });
    api.on('post', '/orders/{id}/reorder', () => held);
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: /View Details/ }));
    await user.click(await screen.findByRole('button', { name: 'Re-Order these items' }));
    expect(screen.getByRole('button', { name: 'Adding to Cart...' })).toBeDisabled();
    finish(
      reply(reorderResultSchema, {
        cartId: 9,
        outletId: OUTLET.outletId,
        storeId: STORE.id,
        added: 2,
        skipped: [],
        message: '2 item(s) from this order have been added to your cart.',
      }),
    );
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith(
        expect.objectContaining({
          title: 'Items added to cart',
          description: '2 item(s) from this order have been added to your cart.',
          variant: 'success',
        }),
      ),
    );
    expect(api.calls).toContainEqual({
      method: 'post',
      url: '/orders/102/reorder',
      body: { outletId: OUTLET.outletId, storeId: STORE.id },
    });
    // Issue 9 §3: the dialog closes, so the toast's View Cart is not behind a modal.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('when the reorder fails, then it toasts Failed to add items', async () => {
    answer({ '/orders?storeId=2190&mine=true': makeList([delivery], 'own'), '/orders/102': makeOrderDetail(delivery) });
    api.on('post', '/orders/{id}/reorder', problem(500, 'internal_error', 'Internal error'));
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: /View Details/ }));
    await user.click(await screen.findByRole('button', { name: 'Re-Order these items' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        title: 'Failed to add items',
        description: 'Unable to add items to cart. Please try again.',
        variant: 'destructive',
      }),
    );
  });

  it('when the order has no items, then it toasts No items to reorder without calling the API', async () => {
    const empty = makeOrder({ id: 103, items: [], itemCount: 0 });
    answer({ '/orders?storeId=2190&mine=true': makeList([empty], 'own'), '/orders/103': makeOrderDetail(empty) });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: /View Details/ }));
    await user.click(await screen.findByRole('button', { name: 'Re-Order these items' }));
    expect(notify).toHaveBeenCalledWith({ title: 'No items to reorder', variant: 'destructive' });
    expect(api.urls('post')).toEqual([]);
  });
});
