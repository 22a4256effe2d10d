import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PERMISSIONS, orderDetailSchema, orderListSchema } from '@portal/contracts';
import { useSelection } from '@/lib/selection';
import { useSession } from '@/lib/session';
import { notify } from '@/components/ui/toaster';
import { FakeApi, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { StoreOrders } from './store-orders';
import { makeList, makeOrder, makeOrderDetail } from './test-fixtures';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
jest.mock('@/lib/selection', () => ({ useSelection: jest.fn() }));
jest.mock('@/lib/session', () => ({ useSession: jest.fn() }));

/** Store Orders Mark Completed and Cancel with a reason (issue 14 §1). */
const ready = makeOrder({ id: 3, orderNumber: 'ORD-READY', status: 'ready' });
function renderPage() {
  (useSession as jest.Mock).mockReturnValue({ hasPermission: (c: string) => c === PERMISSIONS.ordersStoreManage });
  (useSelection as jest.Mock).mockReturnValue({ store: { id: 2190, name: 'Central' }, outlet: null, loading: false });
  // Any other GET answers 404 not_found (the fake's default).
  const api = new FakeApi()
    .on('get', '/orders?storeId=2190', reply(orderListSchema, makeList([ready], 'store')))
    .on(
      'post',
      '/orders/{id}/complete',
      reply(orderDetailSchema, makeOrderDetail({ id: 3, orderNumber: 'ORD-READY', status: 'completed' })),
    )
    .on('post', '/orders/{id}/cancel', reply(orderDetailSchema, makeOrderDetail({ id: 3, orderNumber: 'ORD-READY', status: 'cancelled' })));
  return renderRoute(<StoreOrders />, { api }).api;
}
beforeEach(() => {
  (notify as jest.Mock).mockClear();
});

it('when a manager marks a ready order completed, then it posts /complete and toasts', async () => {
  const api = renderPage();
  await userEvent.click(screen.getByRole('tab', { name: /Ready/ }));
  await userEvent.click(await screen.findByRole('button', { name: 'Mark Completed order ORD-READY' }));
  expect(api.urls('post')).toContain('/orders/3/complete');
  await waitFor(() =>
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Order marked as completed', variant: 'success' })),
  );
});

it('when a manager cancels without a reason, then the dialog refuses; with one it posts /cancel with the reason', async () => {
  const api = renderPage();
  await userEvent.click(screen.getByRole('tab', { name: /Ready/ }));
  await userEvent.click(await screen.findByRole('button', { name: 'Cancel order ORD-READY' }));
  const dialog = await screen.findByRole('dialog');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
  expect(await within(dialog).findByRole('alert')).toBeInTheDocument();
  expect(api.urls('post')).toEqual([]);
  await userEvent.type(within(dialog).getByLabelText('Reason'), 'Out of stock');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
  await waitFor(() => expect(api.calls).toContainEqual({ method: 'post', url: '/orders/3/cancel', body: { reason: 'Out of stock' } }));
  await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Order cancelled' })));
});
