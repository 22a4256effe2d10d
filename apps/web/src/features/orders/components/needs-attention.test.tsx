import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PERMISSIONS, attentionListSchema, checkPaymentResultSchema, type AttentionOrder } from '@portal/contracts';
import { useSession } from '@/lib/session';
import { notify } from '@/components/ui/toaster';
import { FakeApi, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { NeedsAttention } from './needs-attention';
import { OrderStatusBadge } from './order-status-badge';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
jest.mock('@/lib/session', () => ({ useSession: jest.fn() }));

const pending: AttentionOrder = {
  id: 41,
  orderNumber: 'ORD-1764000000000-7K2QM9XD',
  reason: 'payment_unconfirmed',
  status: 'reserved',
  paymentStatus: 'pending',
  orderDate: '2026-11-27T10:00:00.000Z',
  storeId: 2190,
  storeName: 'CENTRAL CITY LIQUOR, INC.',
  customerName: 'Blake Buyer',
  customerEmail: 'buyer@example.com',
  total: '25.01',
  gateway: 'monetra',
  merchantReference: 'ORD-1764000000000-7K2QM9XD',
  gatewayReference: null,
  cardLast4: '1111',
  lastCheckedAt: null,
};

function renderIt(perms: string[], items: AttentionOrder[] = [pending], hideWhenEmpty = false, api = new FakeApi()) {
  (useSession as jest.Mock).mockReturnValue({ hasPermission: (c: string) => perms.includes(c) });
  api.on('get', '/orders/attention', reply(attentionListSchema, { items }));
  return renderRoute(<NeedsAttention storeId={2190} hideWhenEmpty={hideWhenEmpty} />, { api });
}
beforeEach(() => {
  (notify as jest.Mock).mockClear();
});

describe('Store Orders "Needs attention" (issue 8 §4)', () => {
  it("when a store manager opens it, then the store's unsettled order shows with its reference, card and Check again", async () => {
    const { api } = renderIt([PERMISSIONS.ordersStoreManage]);
    const section = await screen.findByRole('region', { name: /Needs attention/ });
    expect(api.urls('get')).toContain('/orders/attention?storeId=2190');
    expect(within(section).getByText('Payment unconfirmed')).toBeInTheDocument();
    expect(within(section).getAllByText('ORD-1764000000000-7K2QM9XD')).toHaveLength(2);
    expect(within(section).getByText('ending 1111')).toBeInTheDocument();
    expect(within(section).getByText('$25.01')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Check again order ORD-1764000000000-7K2QM9XD' })).toBeInTheDocument();
  });

  it('when a super administrator opens it, then every store is asked for and each order names its store', async () => {
    const { api } = renderIt([PERMISSIONS.ordersStoreManage, PERMISSIONS.usersSuperAdmin]);
    await screen.findByText('CENTRAL CITY LIQUOR, INC.');
    expect(api.urls('get')).toContain('/orders/attention');
  });

  it('when Check again settles the order paid, then it toasts the outcome and reloads the list', async () => {
    const api = new FakeApi().on(
      'post',
      '/orders/{id}/check-payment',
      reply(checkPaymentResultSchema, {
        orderId: 41,
        paymentStatus: 'paid',
        outcome: 'paid',
        message: 'The gateway approved the charge: the order is paid and confirmed to the customer.',
      }),
    );
    const user = userEvent.setup();
    renderIt([PERMISSIONS.ordersStoreManage], [pending], false, api);
    await user.click(await screen.findByRole('button', { name: /Check again/ }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Order ORD-1764000000000-7K2QM9XD', variant: 'success' })),
    );
    expect(api.urls('post')).toContain('/orders/41/check-payment');
    await waitFor(() => expect(api.urls('get')).toHaveLength(2));
  });

  it('when Check again cannot reach the API, then it toasts an error and the order stays listed', async () => {
    const api = new FakeApi().on('post', '/orders/{id}/check-payment', () => {
      throw new Error('offline');
    });
    const user = userEvent.setup();
    renderIt([PERMISSIONS.ordersStoreManage], [pending], false, api);
    await user.click(await screen.findByRole('button', { name: /Check again/ }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Error', variant: 'destructive' })));
    expect(screen.getAllByText('ORD-1764000000000-7K2QM9XD').length).toBeGreaterThan(0);
  });

  it('when nothing needs attention inside Store Orders, then nothing is shown; without the permission nothing is asked', async () => {
    const { api } = renderIt([PERMISSIONS.ordersStoreManage], [], true);
    await waitFor(() => expect(api.urls('get').length).toBeGreaterThan(0));
    expect(screen.queryByRole('region', { name: /Needs attention/ })).not.toBeInTheDocument();
    const { api: second } = renderIt([]);
    expect(second.urls('get')).toEqual([]);
  });
});

describe('My Orders badge (issue 8 §1)', () => {
  it('when a card order\'s payment is pending, then it shows "Payment being confirmed"; otherwise its status', () => {
    render(
      <>
        <OrderStatusBadge status="reserved" paymentStatus="pending" />
        <OrderStatusBadge status="reserved" paymentStatus="paid" />
      </>,
    );
    expect(screen.getByText('Payment being confirmed')).toBeInTheDocument();
    expect(screen.getByText('New')).toBeInTheDocument();
  });
});
