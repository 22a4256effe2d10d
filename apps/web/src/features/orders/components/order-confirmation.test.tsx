import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { api } from '@/lib/api';
import { OrderConfirmation } from './order-confirmation';
import { apiError, makeOrder, makeOrderDetail } from './test-fixtures';

function Shown() {
  const loc = useLocation();
  return <p data-testid="location">{loc.pathname}</p>;
}
function renderAt(path: string, rememberedId: number | null = null) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/order-confirmation/:orderId" element={<><Shown /><Param rememberedId={rememberedId} /></>} />
      </Routes>
    </MemoryRouter>,
  );
}
function Param({ rememberedId }: { rememberedId: number | null }) {
  const id = useLocation().pathname.split('/').pop();
  return <OrderConfirmation orderIdParam={id} rememberedId={rememberedId} />;
}
/** Lets pending promises and the 600 ms retry timers run. */
async function flush(ms: number) {
  for (let t = 0; t < ms; t += 100) await act(async () => { await jest.advanceTimersByTimeAsync(100); });
}

let getSpy: jest.SpyInstance;
beforeEach(() => { jest.useFakeTimers(); getSpy = jest.spyOn(api, 'get'); });
afterEach(() => { jest.restoreAllMocks(); jest.useRealTimers(); });

describe('order confirmation (spec 002 §2, §4)', () => {
  it('when the order appears on the third attempt, then it is shown after the 600 ms retries', async () => {
    getSpy
      .mockRejectedValueOnce(apiError(404, 'not_found'))
      .mockRejectedValueOnce(apiError(404, 'not_found'))
      .mockResolvedValue({ data: makeOrderDetail({ id: 101 }) });
    renderAt('/order-confirmation/101');
    expect(screen.getByText('Loading your order...')).toBeInTheDocument();
    await flush(500);
    expect(getSpy).toHaveBeenCalledTimes(1);
    await flush(800);
    expect(getSpy).toHaveBeenCalledTimes(3);
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
    getSpy.mockImplementation(async (url: string) => {
      if (url === '/orders/202') return { data: makeOrderDetail({ id: 202, orderNumber: 'ORD-REMEMBERED' }) };
      throw apiError(404, 'not_found');
    });
    renderAt('/order-confirmation/101', 202);
    await flush(3500);
    expect(getSpy.mock.calls.filter(([u]) => u === '/orders/101')).toHaveLength(5);
    expect(screen.getByTestId('location')).toHaveTextContent('/order-confirmation/202');
    expect(screen.getByRole('heading', { name: 'Order ORD-REMEMBERED' })).toBeInTheDocument();
  });

  it('when neither loads, then the latest order is opened', async () => {
    getSpy.mockImplementation(async (url: string) => {
      if (url === '/orders/latest') return { data: makeOrder({ id: 303 }) };
      if (url === '/orders/303') return { data: makeOrderDetail({ id: 303, orderNumber: 'ORD-LATEST' }) };
      throw apiError(404, 'not_found');
    });
    renderAt('/order-confirmation/101');
    await flush(3500);
    expect(screen.getByTestId('location')).toHaveTextContent('/order-confirmation/303');
    expect(screen.getByRole('heading', { name: 'Order ORD-LATEST' })).toBeInTheDocument();
  });

  it('when nothing can be found, then it says Order not found', async () => {
    getSpy.mockRejectedValue(apiError(404, 'not_found'));
    renderAt('/order-confirmation/101');
    await flush(3500);
    expect(screen.getByRole('heading', { name: 'Order not found' })).toBeInTheDocument();
    expect(getSpy.mock.calls.map(([u]) => u)).toEqual([...Array(5).fill('/orders/101'), '/orders/latest']);
  });
});
