import { screen, waitFor } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { PAYMENT_ERROR_MESSAGES, checkoutSessionSchema, type CheckoutSession } from '@portal/contracts';
import { notify } from '@/components/ui/toaster';
import { FakeApi, problem, reply, unreachable, type FakeAnswer } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { PaymentPage } from './payment-page';

/** The payment screen's error states (spec 002 §8, issue 16 §4, §5). */
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
jest.mock('@/lib/selection', () => ({
  useSelection: () => ({
    store: { id: 2190, name: 'Central City Liquor' },
    outlet: { outletId: 7, outletName: 'Demo – Court Avenue Taproom' },
  }),
}));

const TOKEN = 'b'.repeat(64);
const session = (over: Partial<CheckoutSession> = {}): CheckoutSession => ({
  token: TOKEN,
  expiresAt: new Date(Date.now() + 29.5 * 60_000).toISOString(),
  total: '59.98',
  subtotal: '59.98',
  deliveryCharge: '0.00',
  cartId: 5,
  storeId: 2190,
  outletId: 7,
  itemCount: 1,
  fulfillmentType: 'Pickup',
  fulfillmentDate: null,
  testMode: false,
  ...over,
});
beforeEach(() => {
  (notify as jest.Mock).mockClear();
  if (!globalThis.crypto.randomUUID) Object.assign(globalThis.crypto, { randomUUID: () => `k-${Math.random()}` });
});

/** The page at /payment with the checkout session `checkout`; POST /orders answers `order` (404 when left out). */
function renderPage(checkout: CheckoutSession, order?: FakeAnswer | ReturnType<typeof unreachable>) {
  const api = new FakeApi().on('get', '/checkout-sessions/{token}', reply(checkoutSessionSchema, checkout));
  if (order) api.on('post', '/orders', order);
  const { user } = renderRoute(
    <Routes>
      <Route path="/payment" element={<PaymentPage />} />
      <Route path="/cart" element={<h1>My Cart</h1>} />
    </Routes>,
    { url: `/payment?token=${TOKEN}&source=cart`, api },
  );
  return { api, user };
}

async function payByCard(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Card holder name'), 'Blake Buyer');
  await user.type(screen.getByLabelText('Card number'), '4111111111111111');
  await user.type(screen.getByLabelText('Expiration (MM/YY)'), '1299');
  await user.type(screen.getByLabelText('Security code'), '123');
  await user.type(screen.getByLabelText('ZIP code'), '50309');
  await user.click(screen.getByRole('button', { name: /Pay \$59\.98/ }));
}

describe('payment errors are mapped, never raw (spec 002 §8)', () => {
  it('when the server answers 403 with a database message, then the page says temporarily unavailable and never the raw text', async () => {
    const { user } = renderPage(session(), problem(403, 'forbidden', 'permission denied for table orders'));
    await screen.findByRole('heading', { name: 'Payment' });
    await payByCard(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(PAYMENT_ERROR_MESSAGES.temporarilyUnavailable);
    expect(document.body).not.toHaveTextContent('permission denied for table');
    expect(notify).toHaveBeenCalledWith({
      title: 'Payment Failed',
      description: PAYMENT_ERROR_MESSAGES.temporarilyUnavailable,
      variant: 'destructive',
    });
  });

  it('when the request times out, then the page says so (and does not retry it)', async () => {
    const { api, user } = renderPage(session(), unreachable({ timeout: true }));
    await screen.findByRole('heading', { name: 'Payment' });
    await payByCard(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(PAYMENT_ERROR_MESSAGES.timeout);
    expect(api.urls('post')).toHaveLength(1);
  });

  it('when the network stays down after the retries, then the page says the network text', async () => {
    const { api, user } = renderPage(session(), unreachable());
    await screen.findByRole('heading', { name: 'Payment' });
    await payByCard(user);
    expect(await screen.findByRole('alert', {}, { timeout: 4000 })).toHaveTextContent(PAYMENT_ERROR_MESSAGES.network);
    expect(api.urls('post')).toHaveLength(3);
  });

  it('when an in-store order fails on the server, then it says Failed to create order. Please try again.', async () => {
    const { user } = renderPage(session(), problem(500, 'internal_error', 'Something went wrong. Quote request id abc to support.'));
    await user.click(await screen.findByRole('radio', { name: /Pay In-Store/ }));
    await user.click(screen.getByRole('button', { name: /Place Order/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create order. Please try again.');
    expect(notify).toHaveBeenCalledWith({
      title: 'Error',
      description: 'Failed to create order. Please try again.',
      variant: 'destructive',
    });
  });
});

describe('a store without card payments is said up front (issue 16 §5)', () => {
  it('when the session says cards are not available, then the SETUP text shows, the card option is disabled and Pay In-Store is chosen', async () => {
    renderPage(session({ cardPaymentsAvailable: false }));
    expect(await screen.findByTestId('payment-setup')).toHaveTextContent(PAYMENT_ERROR_MESSAGES.setup);
    expect(screen.getByRole('radio', { name: /Credit card/ })).toBeDisabled();
    expect(screen.getByRole('radio', { name: /Pay In-Store/ })).toBeChecked();
    expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Place Order/ })).toBeEnabled();
  });

  it("when a Delivery session's store cannot take cards, then the Delivery SETUP text shows and nothing can be paid", async () => {
    renderPage(session({ cardPaymentsAvailable: false, fulfillmentType: 'Delivery', deliveryCharge: '15.00' }));
    expect(await screen.findByTestId('payment-setup')).toHaveTextContent(PAYMENT_ERROR_MESSAGES.setupDelivery);
    expect(screen.queryByRole('button', { name: /Pay|Place Order/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Choose Pickup in your cart' })).toBeInTheDocument();
  });

  it('when the server refuses a card payment with payment_setup, then the SETUP text shows and the card option is switched off', async () => {
    const { user } = renderPage(session(), problem(422, 'payment_setup', PAYMENT_ERROR_MESSAGES.setup));
    await screen.findByRole('heading', { name: 'Payment' });
    await payByCard(user);
    await waitFor(() => expect(screen.getByRole('radio', { name: /Credit card/ })).toBeDisabled());
    expect(screen.getByTestId('payment-setup')).toHaveTextContent(PAYMENT_ERROR_MESSAGES.setup);
  });
});
