import { PAYMENT_ERROR_MESSAGES } from '@portal/contracts';
import { TimeoutError } from 'ky';
import { ApiError, toApiError } from '@/lib/api';
import { isTransientPaymentError, paymentErrorMessage } from './payment-errors';

const problem = (status: number, code: string, detail?: string) =>
  new ApiError(status, { type: 'https://portal.local/problems/' + code, title: 'Error', status, code, detail });

describe('payment error texts (spec 002 §8, issue 16 §4)', () => {
  it.each([
    [
      'a 403 with a raw database message',
      problem(403, 'forbidden', 'permission denied for table orders'),
      'card',
      PAYMENT_ERROR_MESSAGES.temporarilyUnavailable,
    ],
    [
      'a permission-denied text on another status',
      problem(500, 'internal_error', 'permission denied for table orders'),
      'in_store',
      PAYMENT_ERROR_MESSAGES.temporarilyUnavailable,
    ],
    ['no answer (network)', problem(0, 'network_error', 'Could not reach the server.'), 'card', PAYMENT_ERROR_MESSAGES.network],
    ['a client timeout', problem(0, 'timeout'), 'card', PAYMENT_ERROR_MESSAGES.timeout],
    ['a 504 from a proxy', problem(504, 'unknown', 'The server answered 504.'), 'card', PAYMENT_ERROR_MESSAGES.timeout],
    ['a 401', problem(401, 'unauthenticated', 'jwt expired'), 'card', PAYMENT_ERROR_MESSAGES.authRequired],
    ["the store's payment setup", problem(422, 'payment_setup', 'whatever the server says'), 'card', PAYMENT_ERROR_MESSAGES.setup],
    [
      'a gateway SETUP verbiage',
      problem(502, 'payment_error', 'SETUP: No payment credentials are configured for this store'),
      'card',
      PAYMENT_ERROR_MESSAGES.setup,
    ],
    [
      'an expired session',
      problem(410, 'checkout_session_expired', 'Checkout session expired'),
      'card',
      PAYMENT_ERROR_MESSAGES.sessionExpired,
    ],
    ['a charged card whose order failed', problem(500, 'payment_unconfirmed', 'x'), 'card', PAYMENT_ERROR_MESSAGES.orderCreationFailing],
    [
      'a failed in-store order (500)',
      problem(500, 'internal_error', 'Something went wrong. Quote request id 1 to support.'),
      'in_store',
      PAYMENT_ERROR_MESSAGES.createOrderFailed,
    ],
    ['a non-problem 502 body', problem(502, 'unknown', '<html>Bad gateway</html>'), 'in_store', PAYMENT_ERROR_MESSAGES.createOrderFailed],
    ['a 503', problem(503, 'service_unavailable', 'db down'), 'card', PAYMENT_ERROR_MESSAGES.temporarilyUnavailable],
    ['something that is not an API error', new Error('TypeError: x is undefined'), 'in_store', PAYMENT_ERROR_MESSAGES.createOrderFailed],
  ] as const)('when the failure is %s, then the page says the mapped text', (_what, error, method, text) => {
    expect(paymentErrorMessage(error, method)).toBe(text);
  });

  it('when the API refuses with a known code, then its text (a decline verbiage) is shown as it is', () => {
    expect(paymentErrorMessage(problem(402, 'payment_declined', 'DECLINED: insufficient funds'), 'card')).toBe(
      'DECLINED: insufficient funds',
    );
    expect(paymentErrorMessage(problem(409, 'checkout_cart_changed', 'Your cart changed.'), 'in_store')).toBe('Your cart changed.');
  });

  it('when the call times out, then the error has code timeout and is not retried; a dropped connection is', () => {
    const timedOut = toApiError(new TimeoutError(new Request('http://localhost/api/v1/orders', { method: 'POST' })));
    expect(timedOut).toMatchObject({ status: 0, code: 'timeout' });
    expect(isTransientPaymentError(timedOut)).toBe(false);
    const dropped = toApiError(new TypeError('Failed to fetch'));
    expect(dropped).toMatchObject({ status: 0, code: 'network_error' });
    expect(isTransientPaymentError(dropped)).toBe(true);
    expect(paymentErrorMessage(timedOut, 'card')).toBe(PAYMENT_ERROR_MESSAGES.timeout);
  });
});
