import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { adminBoardListSchema, adminStoreSchema, storeOutletPageSchema, type AdminStore } from '@portal/contracts';
import { useSession } from '@/lib/session';
import { notify } from '@/components/ui/toaster';
import { FakeApi, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { StoreEditorRoute } from './store-editor';

// Radix Switch measures itself; jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

jest.mock('@/lib/session', () => ({ useSession: jest.fn() }));
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

const store: AdminStore = {
  id: 2190,
  warehouseId: 2190,
  warehouseCode: 'IA-2190',
  name: 'CENTRAL CITY LIQUOR, INC.',
  boardId: 1,
  boardNumber: 1,
  boardName: 'Iowa Alcoholic Beverages Division',
  splitCasePolicy: 'any',
  splitCaseFee: '0.00',
  address: '1460 2ND AVE',
  city: 'DES MOINES',
  state: 'IA',
  zipCode: '50314',
  phone: null,
  latitude: '41.605706',
  longitude: '-93.619788',
  active: true,
  isWarehouse: false,
  deliveryEnabled: true,
  deliveryCharge: '15.00',
  orderconfCcemails: null,
  hasPaymentCredentials: false,
  outletCount: 2,
};
function session(perms: string[]) {
  const held = new Set(perms);
  (useSession as jest.Mock).mockReturnValue({
    hasPermission: (c: string) => held.has(c),
    hasAnyPermission: (cs: string[]) => cs.some((c) => held.has(c)),
  });
}
function Where() {
  const l = useLocation();
  return (
    <p data-testid="where">
      {l.pathname} {JSON.stringify(l.state)}
    </p>
  );
}
/** Any other request answers 404 not_found (the fake's default). */
const storeApi = () =>
  new FakeApi()
    .on('get', '/admin/stores/2190', reply(adminStoreSchema, store))
    .on(
      'get',
      '/admin/boards',
      reply(adminBoardListSchema, {
        items: [{ id: 1, boardNumber: 1, name: 'Iowa Alcoholic Beverages Division', isActive: true, activeStoreCount: 4 }],
      }),
    )
    .on('get', '/admin/stores/2190/outlets', reply(storeOutletPageSchema, { items: [], page: 1, pageSize: 25, total: 0 }));
function renderAt(path: string, api = storeApi()) {
  return renderRoute(
    <Routes>
      <Route path="/admin/store/:id" element={<StoreEditorRoute />} />
      <Route path="/admin" element={<Where />} />
    </Routes>,
    { url: path, api },
  );
}

beforeEach(() => {
  (notify as jest.Mock).mockClear();
});

describe('store editor (spec 002 §2, §5)', () => {
  it('when only bcc.stores.admin is held, then the read-only notice shows, fields are disabled and there is no save button', async () => {
    session(['bcc.stores.admin']);
    renderAt('/admin/store/2190');
    expect(await screen.findByRole('heading', { name: 'CENTRAL CITY LIQUOR, INC.' })).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('Read-only');
    expect(screen.getByLabelText('Store name *')).toBeDisabled();
    expect(screen.queryByRole('button', { name: /Save Store/ })).not.toBeInTheDocument();
  });

  it('when the delivery charge is typed and left, then non-numeric characters and a third decimal are dropped and it is formatted; a warning names the missing payment credentials', async () => {
    session(['bcc.stores.super_admin']);
    renderAt('/admin/store/2190');
    fireEvent.mouseDown(await screen.findByRole('tab', { name: 'Settings' }), { button: 0 });
    const charge = screen.getByLabelText('Delivery charge (USD)');
    fireEvent.change(charge, { target: { value: '$7.555' } });
    expect(charge).toHaveValue('7.55');
    fireEvent.change(charge, { target: { value: '8' } });
    fireEvent.blur(charge);
    expect(charge).toHaveValue('8.00');
    expect(screen.getByRole('status')).toHaveTextContent('no payment credentials');
  });

  it('when cc emails are separated by commas, then saving is refused with Invalid Email Addresses and nothing is sent', async () => {
    session(['bcc.stores.super_admin']);
    const { api } = renderAt('/admin/store/2190');
    fireEvent.mouseDown(await screen.findByRole('tab', { name: 'Settings' }), { button: 0 });
    fireEvent.change(screen.getByLabelText('Order confirmation CC emails'), { target: { value: 'a@b.com, c@d.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Store' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Invalid Email Addresses', variant: 'destructive' })),
    );
    expect(screen.getByText('Invalid Email Addresses')).toBeInTheDocument();
    expect(api.urls('patch')).toEqual([]);
  });

  it('when the store is saved, then the PATCH carries the formatted charge; Back returns to /admin with the stores tab', async () => {
    session(['bcc.stores.super_admin']);
    const { api } = renderAt(
      '/admin/store/2190',
      storeApi().on('patch', '/admin/stores/{id}', (call) => reply(adminStoreSchema, { ...store, ...(call.body as object) })),
    );
    fireEvent.mouseDown(await screen.findByRole('tab', { name: 'Settings' }), { button: 0 });
    const charge = screen.getByLabelText('Delivery charge (USD)');
    fireEvent.change(charge, { target: { value: '12.5' } });
    fireEvent.blur(charge);
    fireEvent.click(screen.getByRole('button', { name: 'Save Store' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        method: 'patch',
        url: '/admin/stores/2190',
        body: expect.objectContaining({ deliveryCharge: '12.50', name: 'CENTRAL CITY LIQUOR, INC.' }),
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/admin {"activeTab":"stores"}');
  });

  it('when the store is new, then Assigned Outlets is disabled', async () => {
    session(['bcc.stores.super_admin']);
    renderAt('/admin/store/new');
    expect(await screen.findByRole('tab', { name: 'Assigned Outlets' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Create Store' })).toBeInTheDocument();
  });
});
