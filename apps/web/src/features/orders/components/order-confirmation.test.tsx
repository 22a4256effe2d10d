import { act, screen } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { orderDetailSchema, orderSchema } from '@portal/contracts';
import { FakeApi, problem, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { OrderConfirmation } from './order-confirmation';
import { makeOrder, makeOrderDetail } from './test-fixtures';

function Shown() {
  const loc = useLocation();
  return <p data-testid="location">{loc.pathname}</p>;
}
/** Any request `api` has no route for answers 404 not_found (the fake's default). */
function renderAt(path: string, api: FakeApi, rememberedId: number | null = null) {
  return renderRoute(
    <>
      <Shown />
      <Param rememberedId={rememberedId} />
    </>,
    { url: path, path: '/order-confirmation/:orderId', api },
  );
}
function Param({ rememberedId }: { rememberedId: number | null }) {
  const id = useLocation().pathname.split('/').pop();
  return <OrderConfirmation orderIdParam={id} rememberedId={rememberedId} />;
}
/** Lets pending promises and the 600 ms retry timers run. */
async function flush(ms: number) {
  for (let t = 0; t < ms; t += 100)
    await act(async () => {
      await jest.advanceTimersByTimeAsync(100);
    });
}

const notFound = problem(404, 'not_found', 'Order not found');
beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

describe('order confirmation (spec 002 §2, §4)', () => {
  it('when the order appears on the third attempt, then it is shown after the 600 ms retries', async () => {
    let attempts = 0;
    const api = new FakeApi().on('get', /.*/, () => (++attempts < 3 ? notFound : reply(orderDetailSchema, makeOrderDetail({ id: 101 }))));
    renderAt('/order-confirmation/101', api);
    expect(screen.getByText('Loading your order...')).toBeInTheDocument();
    await flush(500);
    expect(api.urls('get')).toHaveLength(1);
    await flush(800);
    expect(api.urls('get')).toHaveLength(3);
    expect(screen.getByRole('heading', { name: 'Thank you for your order!' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Order ORD-20260105-0001' })).toBeInTheDocument();
    expect(screen.getByText('Captain Morgan Spiced Rum')).toBeInTheDocument();
    expect(screen.getByText('Central City Liquor')).toBeInTheDocument();
    expect(screen.getByText('Paid · Visa ending in 1111')).toBeInTheDocument();
    expect(screen.getByText('None chosen')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Order History' })).toHaveAttribute('href', '/order-history');
    expect(screen.getByRole('link', { name: 'Continue Shopping' })).toHaveAttribute('href', '/');
  });

  it('when the id never loads, then the remembered last order is tried and opened', async () => {
    const api = new FakeApi().on(
      'get',
      '/orders/202',
      reply(orderDetailSchema, makeOrderDetail({ id: 202, orderNumber: 'ORD-REMEMBERED' })),
    );
    renderAt('/order-confirmation/101', api, 202);
    await flush(3500);
    expect(api.urls('get').filter((u) => u === '/orders/101')).toHaveLength(5);
    expect(screen.getByTestId('location')).toHaveTextContent('/order-confirmation/202');
    expect(screen.getByRole('heading', { name: 'Order ORD-REMEMBERED' })).toBeInTheDocument();
  });

  it('when neither loads, then the latest order is opened', async () => {
    const api = new FakeApi()
      .on('get', '/orders/latest', reply(orderSchema, makeOrder({ id: 303 })))
      .on('get', '/orders/303', reply(orderDetailSchema, makeOrderDetail({ id: 303, orderNumber: 'ORD-LATEST' })));
    renderAt('/order-confirmation/101', api);
    await flush(3500);
    expect(screen.getByTestId('location')).toHaveTextContent('/order-confirmation/303');
    expect(screen.getByRole('heading', { name: 'Order ORD-LATEST' })).toBeInTheDocument();
  });

  it('when nothing can be found, then it says Order not found', async () => {
    const api = new FakeApi().on('get', /.*/, notFound);
    renderAt('/order-confirmation/101', api);
    await flush(3500);
    expect(screen.getByRole('heading', { name: 'Order not found' })).toBeInTheDocument();
    expect(api.urls('get')).toEqual([...Array(5).fill('/orders/101'), '/orders/latest']);
  });
});
