import { screen, waitFor } from '@testing-library/react';
import { PAYMENT_ERROR_MESSAGES, PERMISSIONS, attentionListSchema, orderListSchema, paymentReadinessSchema } from '@portal/contracts';
import { useSelection } from '@/lib/selection';
import { useSession } from '@/lib/session';
import { FakeApi, problem, reply, type FakeAnswer } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { StoreOrders } from './store-orders';
import { makeList } from './test-fixtures';

/** Store Orders warns the manager of a store without card payments (issue 16 §5). */
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
jest.mock('@/lib/selection', () => ({ useSelection: jest.fn() }));
jest.mock('@/lib/session', () => ({ useSession: jest.fn() }));

const readiness = (cardPaymentsAvailable: boolean) =>
  reply(paymentReadinessSchema, {
    storeId: 2190,
    cardPaymentsAvailable,
    state: cardPaymentsAvailable ? 'ready' : 'no_credentials',
    testMode: false,
    environment: 'prod',
  });
function renderPage(answer: FakeAnswer, perms: string[] = [PERMISSIONS.ordersStoreManage]) {
  (useSession as jest.Mock).mockReturnValue({ hasPermission: (c: string) => perms.includes(c) });
  (useSelection as jest.Mock).mockReturnValue({
    store: { id: 2190, name: 'Central City Liquor' },
    outlet: { outletId: 7, outletName: 'Demo' },
    loading: false,
  });
  const api = new FakeApi()
    .on('get', '/orders', reply(orderListSchema, makeList([], 'store')))
    .on('get', '/orders/attention', reply(attentionListSchema, { items: [] }))
    .on('get', '/stores/2190/payment-readiness', answer);
  return renderRoute(<StoreOrders />, { api });
}

describe('Store Orders payment warning (issue 16 §5)', () => {
  it('when the store cannot take cards, then the manager sees the warning', async () => {
    const { api } = renderPage(readiness(false));
    expect(await screen.findByTestId('store-payment-warning')).toHaveTextContent(PAYMENT_ERROR_MESSAGES.setupWarning);
    expect(api.urls('get')).toContain('/stores/2190/payment-readiness');
  });

  it('when the store takes cards, then no warning shows', async () => {
    const { api } = renderPage(readiness(true));
    await waitFor(() => expect(api.urls('get')).toContain('/stores/2190/payment-readiness'));
    expect(screen.queryByTestId('store-payment-warning')).not.toBeInTheDocument();
  });

  it('when the check fails, then nothing shows; a person without store order management is not asked', async () => {
    const { api } = renderPage(problem(404, 'not_found', 'Not Found'));
    await waitFor(() => expect(api.urls('get')).toContain('/stores/2190/payment-readiness'));
    expect(screen.queryByTestId('store-payment-warning')).not.toBeInTheDocument();
    const { api: second } = renderPage(readiness(false), [PERMISSIONS.ordersOutletManage]);
    await waitFor(() => expect(second.urls('get').length).toBeGreaterThan(0));
    expect(second.urls('get')).not.toContain('/stores/2190/payment-readiness');
  });
});
