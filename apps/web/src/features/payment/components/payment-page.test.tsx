import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import {
  CHECKOUT_MESSAGES,
  checkoutSessionSchema,
  orderDetailSchema,
  type CheckoutSession,
  type OrderDetail,
  type ProblemCode,
} from '@portal/contracts';
import { notify } from '@/components/ui/toaster';
import { CHECKOUT_SESSION_KEY, LAST_ORDER_KEY } from '@/lib/checkout-storage';
import { FakeApi, problem, reply, unreachable } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { PaymentPage } from './payment-page';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
jest.mock('@/lib/selection', () => ({
  useSelection: () => ({
    store: { id: 2190, name: 'Central City Liquor' },
    outlet: { outletId: 7, outletName: 'Demo – Court Avenue Taproom' },
  }),
}));

const TOKEN = 'a'.repeat(64);
const session = (over: Partial<CheckoutSession> = {}): CheckoutSession => ({
  token: TOKEN,
  expiresAt: new Date(Date.now() + 29.5 * 60_000).toISOString(),
  total: '74.98',
  subtotal: '59.98',
  deliveryCharge: '15.00',
  cartId: 5,
  storeId: 2190,
  outletId: 7,
  itemCount: 1,
  fulfillmentType: 'Pickup',
  fulfillmentDate: null,
  testMode: true,
  ...over,
});
const order: OrderDetail = {
  id: 555,
  orderNumber: 'ORD-1-ABC',
  status: 'reserved',
  paymentMethod: 'card',
  paymentStatus: 'paid',
  orderDate: '2026-01-05T15:30:00.000Z',
  readyAt: null,
  storeId: 2190,
  storeName: 'Central City Liquor',
  outletId: 7,
  outletName: 'Demo – Court Avenue Taproom',
  customerName: 'Blake Buyer',
  customerEmail: 'buyer@example.com',
  customerPhone: null,
  fulfillmentType: 'Pickup',
  fulfillmentDate: null,
  deliveryCharge: '0.00',
  subtotal: '59.98',
  total: '59.98',
  notes: null,
  itemCount: 0,
  unitCount: 0,
  items: [],
  store: { id: 2190, name: 'Central City Liquor', address: null, city: null, state: null, zipCode: null, phone: null },
  delivery: null,
  payment: null,
};

let api: FakeApi;
/** GET /checkout-sessions/{token} answers `checkout`. */
const withSession = (checkout: CheckoutSession) => api.on('get', '/checkout-sessions/{token}', reply(checkoutSessionSchema, checkout));
const created = reply(orderDetailSchema, order);
const posts = () => api.calls.filter((c) => c.method === 'post');
const idempotencyKey = (i: number) => api.headerOf(posts()[i], 'Idempotency-Key');
beforeEach(() => {
  api = new FakeApi();
  (notify as jest.Mock).mockClear();
  localStorage.clear();
  sessionStorage.clear();
  if (!globalThis.crypto.randomUUID) Object.assign(globalThis.crypto, { randomUUID: () => `k-${Math.random()}` });
});
afterEach(() => {
  jest.useRealTimers();
});

function renderAt(query: string) {
  return renderRoute(
    <Routes>
      <Route path="/payment" element={<PaymentPage />} />
      <Route path="/cart" element={<h1>My Cart</h1>} />
      <Route path="/order-confirmation/:orderId" element={<h1>Confirmation page</h1>} />
    </Routes>,
    { url: `/payment${query}`, api },
  );
}
const validQuery = `?token=${TOKEN}&total=74.98&cartId=5&source=cart&fulfillmentType=Pickup`;

async function fillCard(user: ReturnType<typeof userEvent.setup>, number = '4111111111111111') {
  await user.type(screen.getByLabelText('Card holder name'), 'Blake Buyer');
  await user.type(screen.getByLabelText('Card number'), number);
  await user.type(screen.getByLabelText('Expiration (MM/YY)'), '1299');
  await user.type(screen.getByLabelText('Security code'), '123');
  await user.type(screen.getByLabelText('ZIP code'), '50309');
}

describe('payment access check (spec 002 §4, §5)', () => {
  it('when opened without source=cart, then it is denied with the spec text and goes back to /cart after 3 s', async () => {
    jest.useFakeTimers();
    renderAt(`?token=${TOKEN}`);
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid access route. Please use the checkout process.');
    act(() => {
      jest.advanceTimersByTime(2900);
    });
    expect(screen.queryByRole('heading', { name: 'My Cart' })).not.toBeInTheDocument();
    act(() => {
      jest.advanceTimersByTime(200);
    });
    expect(screen.getByRole('heading', { name: 'My Cart' })).toBeInTheDocument();
    expect(api.urls('get')).toEqual([]);
  });

  it('when the token is missing, then it says to restart the checkout', () => {
    renderAt('?source=cart');
    expect(screen.getByRole('alert')).toHaveTextContent('Missing checkout token. Please restart the checkout process.');
  });

  it.each([
    ['checkout_session_not_found', 404, CHECKOUT_MESSAGES.noSession],
    ['checkout_session_user_mismatch', 404, CHECKOUT_MESSAGES.userMismatch],
    ['checkout_session_expired', 410, 'Checkout session expired. Please restart the checkout process.'],
    ['validation_failed', 400, CHECKOUT_MESSAGES.invalidToken],
    ['internal_error', 500, 'Session validation failed'],
  ])('when the server answers %s, then the page is denied with its message', async (code, status, message) => {
    localStorage.setItem(CHECKOUT_SESSION_KEY, JSON.stringify({ token: TOKEN }));
    api.on('get', '/checkout-sessions/{token}', problem(status, code as ProblemCode));
    renderAt(validQuery);
    expect(screen.getByText('Checking your checkout session...')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(api.urls('get')).toContain(`/checkout-sessions/${TOKEN}`);
    if (code === 'checkout_session_expired') expect(localStorage.getItem(CHECKOUT_SESSION_KEY)).toBeNull();
  });
});

describe('payment page (spec 002 §2, §4)', () => {
  it('when the session is valid, then it shows the server total, the minutes left, TEST MODE and both methods for Pickup', async () => {
    withSession(session());
    renderAt(validQuery);
    expect(await screen.findByRole('heading', { name: 'Payment' })).toBeInTheDocument();
    expect(screen.getByText('TEST MODE')).toBeInTheDocument();
    expect(screen.getByText('Session expires in 30 minutes')).toBeInTheDocument();
    expect(screen.getByTestId('payment-total')).toHaveTextContent('$74.98');
    expect(screen.getByText('None chosen')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Pay In-Store/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Pay \$74\.98/ })).toBeInTheDocument();
  });

  it('when the order is for Delivery, then Pay In-Store is not offered and a note says Delivery is paid by card', async () => {
    withSession(session({ fulfillmentType: 'Delivery', fulfillmentDate: '2026-03-02', testMode: false }));
    renderAt(validQuery.replace('Pickup', 'Delivery'));
    expect(await screen.findByText(CHECKOUT_MESSAGES.inStoreDelivery)).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /Pay In-Store/ })).not.toBeInTheDocument();
    expect(screen.queryByText('TEST MODE')).not.toBeInTheDocument();
    expect(screen.getByText('Mar 2, 2026')).toBeInTheDocument();
    expect(screen.getByText('$15.00')).toBeInTheDocument();
  });

  it('when the card is approved, then it toasts Payment Successful, clears the checkout, remembers the order and opens the confirmation', async () => {
    withSession(session());
    localStorage.setItem(CHECKOUT_SESSION_KEY, JSON.stringify({ token: TOKEN }));
    api.on('post', '/orders', created);
    const user = userEvent.setup();
    renderAt(validQuery);
    await screen.findByRole('heading', { name: 'Payment' });
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /Pay \$74\.98/ }));
    expect(await screen.findByRole('heading', { name: 'Confirmation page' })).toBeInTheDocument();
    const [{ url, body }] = posts();
    expect(url).toBe('/orders');
    expect(body).toEqual({
      checkoutToken: TOKEN,
      paymentMethod: 'card',
      card: { cardName: 'Blake Buyer', cardNumber: '4111111111111111', expiration: '12/99', securityCode: '123', zipCode: '50309' },
    });
    expect(idempotencyKey(0)).toEqual(expect.any(String));
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Payment Successful', variant: 'success' }));
    expect(localStorage.getItem(CHECKOUT_SESSION_KEY)).toBeNull();
    expect(sessionStorage.getItem(LAST_ORDER_KEY)).toBe('555');
  });

  it('when the card is declined, then it toasts Payment Failed with the gateway message, keeps the form, and a new attempt gets a new key', async () => {
    withSession(session());
    api.on('post', '/orders', problem(402, 'payment_declined', 'DECLINED: insufficient funds'));
    const user = userEvent.setup();
    renderAt(validQuery);
    await screen.findByRole('heading', { name: 'Payment' });
    await fillCard(user, '4000000000000002');
    await user.click(screen.getByRole('button', { name: /Pay \$74\.98/ }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ title: 'Payment Failed', description: 'DECLINED: insufficient funds', variant: 'destructive' }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('DECLINED: insufficient funds');
    expect(screen.getByLabelText('Card number')).toHaveValue('4000 0000 0000 0002');
    await user.click(screen.getByRole('button', { name: /Pay \$74\.98/ }));
    await waitFor(() => expect(posts()).toHaveLength(2));
    expect(idempotencyKey(1)).not.toBe(idempotencyKey(0));
  });

  it('when the network drops, then the same attempt is retried with the same Idempotency-Key', async () => {
    withSession(session());
    let attempt = 0;
    api.on('post', '/orders', (call, m) => (attempt++ === 0 ? unreachable()(call, m) : created));
    const user = userEvent.setup();
    renderAt(validQuery);
    await screen.findByRole('heading', { name: 'Payment' });
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /Pay \$74\.98/ }));
    expect(await screen.findByRole('heading', { name: 'Confirmation page' }, { timeout: 3000 })).toBeInTheDocument();
    expect(posts()).toHaveLength(2);
    expect(idempotencyKey(1)).toBe(idempotencyKey(0));
  });

  it('when the API answers 503 (its database connection is lost), then the same attempt is retried with the same Idempotency-Key, like a network error (issue 8 §7)', async () => {
    withSession(session());
    let attempt = 0;
    api.on('post', '/orders', () =>
      attempt++ === 0 ? problem(503, 'service_unavailable', 'The service is briefly unavailable.') : created,
    );
    const user = userEvent.setup();
    renderAt(validQuery);
    await screen.findByRole('heading', { name: 'Payment' });
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /Pay \$74\.98/ }));
    expect(await screen.findByRole('heading', { name: 'Confirmation page' }, { timeout: 3000 })).toBeInTheDocument();
    expect(posts()).toHaveLength(2);
    expect(idempotencyKey(1)).toBe(idempotencyKey(0));
  });

  it('when the card payment is still being confirmed (409 payment_being_confirmed), then checkout ends with "Payment being confirmed" and no new attempt is made (issue 8 §1)', async () => {
    withSession(session());
    api.on('post', '/orders', problem(409, 'payment_being_confirmed', CHECKOUT_MESSAGES.paymentBeingConfirmed));
    const user = userEvent.setup();
    renderAt(validQuery);
    await screen.findByRole('heading', { name: 'Payment' });
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /Pay \$74\.98/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Payment being confirmed/);
    expect(screen.getByRole('heading', { name: 'Please restart checkout' })).toBeInTheDocument();
    expect(posts()).toHaveLength(1);
  });

  it('when paying in-store for Pickup, then the order is created without a card', async () => {
    withSession(session());
    api.on('post', '/orders', created);
    const user = userEvent.setup();
    renderAt(validQuery);
    await user.click(await screen.findByRole('radio', { name: /Pay In-Store/ }));
    await user.click(screen.getByRole('button', { name: /Place Order/ }));
    expect(await screen.findByRole('heading', { name: 'Confirmation page' })).toBeInTheDocument();
    expect(posts()[0].body).toEqual({ checkoutToken: TOKEN, paymentMethod: 'in_store' });
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Order Created' }));
  });

  it('when the session has expired at payment time, then the page is denied and returns to the cart', async () => {
    withSession(session());
    api.on('post', '/orders', problem(410, 'checkout_session_expired', 'Checkout session expired'));
    const user = userEvent.setup();
    renderAt(validQuery);
    await screen.findByRole('heading', { name: 'Payment' });
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /Pay \$74\.98/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Checkout session expired. Please restart the checkout process.');
  });

  it('when the gateway fails with a processing error, then it toasts Payment Failed and sends the person back to restart checkout', async () => {
    withSession(session());
    api.on('post', '/orders', problem(502, 'payment_error', CHECKOUT_MESSAGES.paymentError));
    const user = userEvent.setup();
    renderAt(validQuery);
    await screen.findByRole('heading', { name: 'Payment' });
    await fillCard(user, '4000000000000119');
    await user.click(screen.getByRole('button', { name: /Pay \$74\.98/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(CHECKOUT_MESSAGES.paymentError);
    expect(screen.getByRole('heading', { name: 'Please restart checkout' })).toBeInTheDocument();
    expect(notify).toHaveBeenCalledWith({ title: 'Payment Failed', description: CHECKOUT_MESSAGES.paymentError, variant: 'destructive' });
  });
});
