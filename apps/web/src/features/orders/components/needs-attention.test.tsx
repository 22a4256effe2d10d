import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SWRConfig } from 'swr';
import { PERMISSIONS, type AttentionOrder } from '@portal/contracts';
import { api } from '@/lib/api';
import { useSession } from '@/lib/session';
import { notify } from '@/components/ui/toaster';
import { NeedsAttention } from './needs-attention';
import { OrderStatusBadge } from './order-status-badge';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
jest.mock('@/lib/session', () => ({ useSession: jest.fn() }));

const pending: AttentionOrder = {
  id: 41, orderNumber: 'ORD-1764000000000-7K2QM9XD', reason: 'payment_unconfirmed', status: 'reserved', paymentStatus: 'pending',
  orderDate: '2026-11-27T10:00:00.000Z', storeId: 2190, storeName: 'CENTRAL CITY LIQUOR, INC.', customerName: 'Blake Buyer',
  customerEmail: 'buyer@example.com', total: '25.01', gateway: 'monetra', merchantReference: 'ORD-1764000000000-7K2QM9XD',
  gatewayReference: null, cardLast4: '1111', lastCheckedAt: null,
};

let getSpy: jest.SpyInstance;
let postSpy: jest.SpyInstance;
function renderIt(perms: string[], items: AttentionOrder[] = [pending], hideWhenEmpty = false) {
  (useSession as jest.Mock).mockReturnValue({ hasPermission: (c: string) => perms.includes(c) });
  getSpy.mockImplementation(async () => ({ data: { items } }));
  return render(<SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false }}><NeedsAttention storeId={2190} hideWhenEmpty={hideWhenEmpty} /></SWRConfig>);
}
beforeEach(() => { getSpy = jest.spyOn(api, 'get'); postSpy = jest.spyOn(api, 'post'); (notify as jest.Mock).mockClear(); });
afterEach(() => jest.restoreAllMocks());

describe('Store Orders "Needs attention" (issue 8 §4)', () => {
  it('when a store manager opens it, then the store\'s unsettled order shows with its reference, card and Check again', async () => {
    renderIt([PERMISSIONS.ordersStoreManage]);
    const section = await screen.findByRole('region', { name: /Needs attention/ });
    expect(getSpy).toHaveBeenCalledWith('/orders/attention?storeId=2190');
    expect(within(section).getByText('Payment unconfirmed')).toBeInTheDocument();
    expect(within(section).getAllByText('ORD-1764000000000-7K2QM9XD')).toHaveLength(2);
    expect(within(section).getByText('ending 1111')).toBeInTheDocument();
    expect(within(section).getByText('$25.01')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Check again order ORD-1764000000000-7K2QM9XD' })).toBeInTheDocument();
  });

  it('when a super administrator opens it, then every store is asked for and each order names its store', async () => {
    renderIt([PERMISSIONS.ordersStoreManage, PERMISSIONS.usersSuperAdmin]);
    await screen.findByText('CENTRAL CITY LIQUOR, INC.');
    expect(getSpy).toHaveBeenCalledWith('/orders/attention');
  });

  it('when Check again settles the order paid, then it toasts the outcome and reloads the list', async () => {
    postSpy.mockResolvedValue({ data: { orderId: 41, paymentStatus: 'paid', outcome: 'paid', message: 'The gateway approved the charge: the order is paid and confirmed to the customer.' } });
    const user = userEvent.setup();
    renderIt([PERMISSIONS.ordersStoreManage]);
    await user.click(await screen.findByRole('button', { name: /Check again/ }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Order ORD-1764000000000-7K2QM9XD', variant: 'success' })));
    expect(postSpy).toHaveBeenCalledWith('/orders/41/check-payment');
    await waitFor(() => expect(getSpy).toHaveBeenCalledTimes(2));
  });

  it('when Check again cannot reach the API, then it toasts an error and the order stays listed', async () => {
    postSpy.mockRejectedValue(new Error('offline'));
    const user = userEvent.setup();
    renderIt([PERMISSIONS.ordersStoreManage]);
    await user.click(await screen.findByRole('button', { name: /Check again/ }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Error', variant: 'destructive' })));
    expect(screen.getAllByText('ORD-1764000000000-7K2QM9XD').length).toBeGreaterThan(0);
  });

  it('when nothing needs attention inside Store Orders, then nothing is shown; without the permission nothing is asked', async () => {
    renderIt([PERMISSIONS.ordersStoreManage], [], true);
    await waitFor(() => expect(getSpy).toHaveBeenCalled());
    expect(screen.queryByRole('region', { name: /Needs attention/ })).not.toBeInTheDocument();
    getSpy.mockClear();
    renderIt([]);
    expect(getSpy).not.toHaveBeenCalled();
  });
});

describe('My Orders badge (issue 8 §1)', () => {
  it('when a card order\'s payment is pending, then it shows "Payment being confirmed"; otherwise its status', () => {
    render(<><OrderStatusBadge status="reserved" paymentStatus="pending" /><OrderStatusBadge status="reserved" paymentStatus="paid" /></>);
    expect(screen.getByText('Payment being confirmed')).toBeInTheDocument();
    expect(screen.getByText('New')).toBeInTheDocument();
  });
});
