import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SWRConfig } from 'swr';
import { PERMISSIONS } from '@portal/contracts';
import { api } from '@/lib/api';
import { useSelection } from '@/lib/selection';
import { useSession } from '@/lib/session';
import { notify } from '@/components/ui/toaster';
import { StoreOrders } from './store-orders';
import { apiError, makeList, makeOrder } from './test-fixtures';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
jest.mock('@/lib/selection', () => ({ useSelection: jest.fn() }));
jest.mock('@/lib/session', () => ({ useSession: jest.fn() }));

/** Store Orders Mark Completed and Cancel with a reason (issue 14 §1). */
const ready = makeOrder({ id: 3, orderNumber: 'ORD-READY', status: 'ready' });
let postSpy: jest.SpyInstance;
function renderPage() {
  (useSession as jest.Mock).mockReturnValue({ hasPermission: (c: string) => c === PERMISSIONS.ordersStoreManage });
  (useSelection as jest.Mock).mockReturnValue({ store: { id: 2190, name: 'Central' }, outlet: null, loading: false });
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/orders?storeId=2190') return { data: makeList([ready], 'store') };
    throw apiError(404, 'not_found');
  });
  render(<SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false }}><StoreOrders /></SWRConfig>);
}
beforeEach(() => { postSpy = jest.spyOn(api, 'post').mockResolvedValue({ data: {} }); (notify as jest.Mock).mockClear(); });
afterEach(() => jest.restoreAllMocks());

it('when a manager marks a ready order completed, then it posts /complete and toasts', async () => {
  renderPage();
  await userEvent.click(screen.getByRole('tab', { name: /Ready/ }));
  await userEvent.click(await screen.findByRole('button', { name: 'Mark Completed order ORD-READY' }));
  expect(postSpy).toHaveBeenCalledWith('/orders/3/complete');
  await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Order marked as completed', variant: 'success' })));
});

it('when a manager cancels without a reason, then the dialog refuses; with one it posts /cancel with the reason', async () => {
  renderPage();
  await userEvent.click(screen.getByRole('tab', { name: /Ready/ }));
  await userEvent.click(await screen.findByRole('button', { name: 'Cancel order ORD-READY' }));
  const dialog = await screen.findByRole('dialog');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
  expect(await within(dialog).findByRole('alert')).toBeInTheDocument();
  expect(postSpy).not.toHaveBeenCalled();
  await userEvent.type(within(dialog).getByLabelText('Reason'), 'Out of stock');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
  await waitFor(() => expect(postSpy).toHaveBeenCalledWith('/orders/3/cancel', { reason: 'Out of stock' }));
  await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Order cancelled' })));
});
