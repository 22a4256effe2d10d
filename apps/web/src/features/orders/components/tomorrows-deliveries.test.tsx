import { screen } from '@testing-library/react';
import { deliveryListSchema } from '@portal/contracts';
import { FakeApi, problem, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { TomorrowsDeliveries } from './tomorrows-deliveries';

const delivery = {
  orderId: 41,
  orderNumber: 'ORD-41',
  status: 'ready',
  outletId: 7,
  outletName: 'Demo – Court Avenue Taproom',
  address: '309 Court Ave',
  city: 'Des Moines',
  customerName: 'Blake Buyer',
  customerPhone: null,
  itemCount: 3,
  total: '128.40',
  emergency: true,
};

describe("Tomorrow's deliveries (issue 28 §1)", () => {
  it('when the store has deliveries tomorrow, then each shows outlet, items, total and the emergency flag, and opens the order', async () => {
    const onView = jest.fn();
    const api = new FakeApi().on(
      'get',
      '/stores/2190/deliveries',
      reply(deliveryListSchema, { storeId: 2190, date: '2026-12-03', items: [delivery] }),
    );
    const { user } = renderRoute(<TomorrowsDeliveries storeId={2190} onView={onView} />, { api });
    const row = await screen.findByRole('group', { name: 'Delivery ORD-41' });
    expect(row).toHaveTextContent('Demo – Court Avenue Taproom · Des Moines');
    expect(row).toHaveTextContent('3 items');
    expect(row).toHaveTextContent('$128.40');
    expect(row).toHaveTextContent('Emergency');
    expect(screen.getByText('Thu Dec 3')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'View delivery ORD-41' }));
    expect(onView).toHaveBeenCalledWith(41);
  });

  it('when there are none, then it says so; when the list fails, then it offers a retry', async () => {
    const empty = new FakeApi().on(
      'get',
      '/stores/2190/deliveries',
      reply(deliveryListSchema, { storeId: 2190, date: '2026-12-03', items: [] }),
    );
    const { unmount } = renderRoute(<TomorrowsDeliveries storeId={2190} onView={jest.fn()} />, { api: empty });
    expect(await screen.findByText('No deliveries for tomorrow.')).toBeInTheDocument();
    unmount();
    const failing = new FakeApi().on('get', '/stores/2190/deliveries', problem(500, 'internal_error'));
    renderRoute(<TomorrowsDeliveries storeId={2190} onView={jest.fn()} />, { api: failing });
    expect(await screen.findByRole('alert')).toHaveTextContent("Tomorrow's deliveries could not be loaded.");
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
