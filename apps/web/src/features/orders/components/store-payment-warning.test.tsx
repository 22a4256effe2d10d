import { render, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { PAYMENT_ERROR_MESSAGES, PERMISSIONS } from '@portal/contracts';
import { api, ApiError } from '@/lib/api';
import { useSelection } from '@/lib/selection';
import { useSession } from '@/lib/session';
import { StoreOrders } from './store-orders';
import { makeList } from './test-fixtures';

/** Store Orders warns the manager of a store without card payments (issue 16 §5). */
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
jest.mock('@/lib/selection', () => ({ useSelection: jest.fn() }));
jest.mock('@/lib/session', () => ({ useSession: jest.fn() }));

const readiness = (cardPaymentsAvailable: boolean) => ({ storeId: 2190, cardPaymentsAvailable, state: cardPaymentsAvailable ? 'ready' : 'no_credentials', testMode: false, environment: 'prod' });
let getSpy: jest.SpyInstance;
function renderPage(answer: object | ApiError, perms: string[] = [PERMISSIONS.ordersStoreManage]) {
  (useSession as jest.Mock).mockReturnValue({ hasPermission: (c: string) => perms.includes(c) });
  (useSelection as jest.Mock).mockReturnValue({ store: { id: 2190, name: 'Central City Liquor' }, outlet: { outletId: 7, outletName: 'Demo' }, loading: false });
  getSpy = jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/stores/2190/payment-readiness') { if (answer instanceof ApiError) throw answer; return { data: answer }; }
    return { data: makeList([], 'store') };
  });
  return render(<SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false }}><StoreOrders /></SWRConfig>);
}
afterEach(() => jest.restoreAllMocks());

describe('Store Orders payment warning (issue 16 §5)', () => {
  it('when the store cannot take cards, then the manager sees the warning', async () => {
    renderPage(readiness(false));
    expect(await screen.findByTestId('store-payment-warning')).toHaveTextContent(PAYMENT_ERROR_MESSAGES.setupWarning);
    expect(getSpy).toHaveBeenCalledWith('/stores/2190/payment-readiness');
  });

  it('when the store takes cards, then no warning shows', async () => {
    renderPage(readiness(true));
    await waitFor(() => expect(getSpy).toHaveBeenCalledWith('/stores/2190/payment-readiness'));
    expect(screen.queryByTestId('store-payment-warning')).not.toBeInTheDocument();
  });

  it('when the check fails, then nothing shows; a person without store order management is not asked', async () => {
    renderPage(new ApiError(404, { type: 'about:blank', title: 'Not Found', status: 404, code: 'not_found' }));
    await waitFor(() => expect(getSpy).toHaveBeenCalledWith('/stores/2190/payment-readiness'));
    expect(screen.queryByTestId('store-payment-warning')).not.toBeInTheDocument();
    jest.restoreAllMocks();
    renderPage(readiness(false), [PERMISSIONS.ordersOutletManage]);
    await waitFor(() => expect(getSpy).toHaveBeenCalled());
    expect(getSpy).not.toHaveBeenCalledWith('/stores/2190/payment-readiness');
  });
});
