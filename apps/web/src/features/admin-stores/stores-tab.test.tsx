import { screen, within } from '@testing-library/react';
import { adminBoardListSchema, adminStoreIdsSchema, adminStorePageSchema, adminStoresBulkResultSchema } from '@portal/contracts';
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

it('keeps filters and sort in the URL and bulk-edits the selected stores after a confirmation stating the count', async () => {
  session(true);
  const other = adminStore({ id: 4129, name: 'Cyclone Liquors', deliveryEnabled: false });
  const api = new FakeApi()
    .on('get', '/admin/stores', reply(adminStorePageSchema, { items: [STORE, other], page: 1, pageSize: 25, total: 3 }))
    .on('get', '/admin/boards', reply(adminBoardListSchema, { items: [] }))
    .on('get', '/admin/stores/ids', reply(adminStoreIdsSchema, { ids: [2190, 4129, 2106], total: 3, truncated: false }))
    .on(
      'patch',
      '/admin/stores/bulk',
      reply(adminStoresBulkResultSchema, {
        results: [
          { storeId: 2190, ok: true },
          { storeId: 4129, ok: false, code: 'not_found', message: 'Store not found or access denied' },
        ],
      }),
    );
  const { user } = renderRoute(<StoresTab />, { api, path: '/admin', url: '/admin?tab=stores&deliveryEnabled=false&sort=-city' });
  await screen.findByRole('table', { name: 'Stores' });
  expect(api.urls('get')).toContain('/admin/stores?page=1&pageSize=25&sort=-city&deliveryEnabled=false');
  expect(screen.getByRole('columnheader', { name: /City/ })).toHaveAttribute('aria-sort', 'descending');
  await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
  const bar = screen.getByRole('region', { name: 'Bulk actions' });
  expect(within(bar).getByText('2 stores selected')).toBeInTheDocument();
  await user.click(within(bar).getByRole('button', { name: 'Select all 3 matching' }));
  expect(await within(bar).findByText('3 stores selected')).toBeInTheDocument();
  expect(api.urls('get')).toContain('/admin/stores/ids?deliveryEnabled=false');
  await user.click(within(bar).getByRole('button', { name: 'Turn delivery on' }));
  const dialog = await screen.findByRole('alertdialog');
  expect(within(dialog).getByText('Turn delivery on for 3 stores?')).toBeInTheDocument();
  await user.click(within(dialog).getByRole('button', { name: 'Update 3 stores' }));
  expect(await screen.findByText('1 updated, 1 skipped: #4129 (Store not found or access denied)')).toBeInTheDocument();
  expect(api.calls.find((c) => c.method === 'patch')?.body).toEqual({ storeIds: [2190, 4129, 2106], deliveryEnabled: true });
});

it('sets a delivery minimum in litres on the selected stores (issue 28 §5); empty means none', async () => {
  session(true);
  const api = new FakeApi()
    .on('get', '/admin/stores', reply(adminStorePageSchema, { items: [STORE], page: 1, pageSize: 25, total: 1 }))
    .on('get', '/admin/boards', reply(adminBoardListSchema, { items: [] }))
    .on('patch', '/admin/stores/bulk', reply(adminStoresBulkResultSchema, { results: [{ storeId: 2190, ok: true }] }));
  const { user } = renderRoute(<StoresTab />, { api, path: '/admin', url: '/admin?tab=stores' });
  await screen.findByRole('table', { name: 'Stores' });
  await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
  await user.click(within(screen.getByRole('region', { name: 'Bulk actions' })).getByRole('button', { name: 'Set delivery minimum' }));
  const dialog = await screen.findByRole('alertdialog');
  await user.type(within(dialog).getByLabelText('Delivery minimum (litres)'), '9.5');
  await user.click(within(dialog).getByRole('button', { name: 'Update 1 store' }));
  expect(await screen.findByText('1 updated')).toBeInTheDocument();
  expect(api.calls.find((c) => c.method === 'patch')?.body).toEqual({ storeIds: [2190], deliveryMinimumMl: 9500 });
});
