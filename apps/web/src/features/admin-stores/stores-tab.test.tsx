import { screen, within } from '@testing-library/react';
import { adminStorePageSchema } from '@portal/contracts';
import { useSession } from '@/lib/session';
import { FakeApi, problem, reply } from '@/test/fake-api';
import { adminStore } from '@/test/admin-fixtures';
import { renderRoute } from '@/test/render-route';
import { StoresTab } from './stores-tab';

jest.mock('@/lib/session', () => ({ useSession: jest.fn() }));

/** Stores tab (spec 002 §2): stores in scope, a row opens the editor, Add Store for super administrators, 403. */
const STORE = adminStore({ deliveryEnabled: true, deliveryCharge: '15.00', outletCount: 3 });
const session = (superAdmin: boolean) => (useSession as jest.Mock).mockReturnValue({ hasPermission: () => superAdmin });

it('lists the stores with delivery charge and board; a row opens the store editor', async () => {
  session(true);
  const api = new FakeApi().on('get', '/admin/stores', reply(adminStorePageSchema, { items: [STORE], page: 1, pageSize: 20, total: 1 }));
  const { user } = renderRoute(<StoresTab />, { api, path: '/admin', url: '/admin' });
  const table = await screen.findByRole('table', { name: 'Stores' });
  const row = within(table).getAllByRole('row')[1];
  expect(row).toHaveTextContent('Albany, NY');
  expect(row).toHaveTextContent('$15.00');
  expect(within(row).getByRole('link', { name: 'Downtown Wines' })).toHaveAttribute('href', '/admin/store/2190');
  expect(screen.getByRole('button', { name: 'Add Store' })).toBeInTheDocument();
  await user.click(within(row).getByText('State Board'));
  expect(screen.queryByRole('table', { name: 'Stores' })).not.toBeInTheDocument();
});

it('without bcc.stores.super_admin there is no Add Store; an empty list says so', async () => {
  session(false);
  renderRoute(<StoresTab />, {
    api: new FakeApi().on('get', '/admin/stores', reply(adminStorePageSchema, { items: [], page: 1, pageSize: 20, total: 0 })),
  });
  expect(await screen.findByText('No stores found')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Add Store' })).not.toBeInTheDocument();
});

it("when the server refuses the list with 403, then the spec's message shows", async () => {
  session(true);
  renderRoute(<StoresTab />, { api: new FakeApi().on('get', '/admin/stores', problem(403, 'forbidden', 'Forbidden')) });
  expect(await screen.findByText('Access Denied')).toBeInTheDocument();
});
