import { screen, waitFor, within } from '@testing-library/react';
import { adminBoardListSchema, adminOutletPageSchema, type AdminOutlet } from '@portal/contracts';
import { FakeApi, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { OutletsTab } from './outlets-tab';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

/** Outlets tab (spec 002 §2, §5): paged and searchable list, the empty state, the dialog's state rule. */
const OUTLET: AdminOutlet = {
  id: 41,
  outletCode: 'OUT-41',
  name: 'Harbor Tavern',
  city: 'Albany',
  state: 'NY',
  active: true,
  isAdminOutlet: false,
  defaultStoreId: 2190,
  boardId: 1,
  boardName: 'State Board',
  storeIds: [2190, 2191],
  storeNames: ['Downtown Wines', 'Uptown Wines'],
};

it('lists outlets 20 a page with their stores; a search that finds nothing shows the empty state', async () => {
  const api = new FakeApi().on('get', '/admin/outlets', ({ url }) =>
    reply(
      adminOutletPageSchema,
      url.includes('search=') ? { items: [], page: 1, pageSize: 20, total: 0 } : { items: [OUTLET], page: 1, pageSize: 20, total: 1 },
    ),
  );
  const { user } = renderRoute(<OutletsTab />, { api });
  const table = await screen.findByRole('table', { name: 'Outlets' });
  expect(within(table).getByText('Downtown Wines, Uptown Wines')).toBeInTheDocument();
  expect(screen.getByRole('navigation', { name: 'Pagination' })).toHaveTextContent('1–1 of 1 outlets');
  expect(api.urls('get')).toContain('/admin/outlets?page=1&pageSize=25&sort=name');
  await user.type(screen.getByLabelText('Search outlets'), 'zzz');
  expect(await screen.findByText('Nothing matches "zzz".')).toBeInTheDocument();
  await waitFor(() => expect(api.urls('get')).toContain('/admin/outlets?page=1&pageSize=25&search=zzz&sort=name'));
});

it('the edit dialog upper-cases the state and keeps it to two letters', async () => {
  const api = new FakeApi()
    .on('get', '/admin/outlets', reply(adminOutletPageSchema, { items: [OUTLET], page: 1, pageSize: 20, total: 1 }))
    .on(
      'get',
      '/admin/boards',
      reply(adminBoardListSchema, { items: [{ id: 1, boardNumber: 1, name: 'State Board', isActive: true, activeStoreCount: 2 }] }),
    );
  const { user } = renderRoute(<OutletsTab />, { api });
  await user.click(await screen.findByRole('button', { name: 'Edit Harbor Tavern' }));
  const dialog = await screen.findByRole('dialog', { name: 'Edit Outlet' });
  const state = within(dialog).getByLabelText('State');
  await user.clear(state);
  await user.type(state, 'cal');
  expect(state).toHaveValue('CA');
  expect(within(dialog).getByRole('button', { name: 'Update Outlet' })).toBeInTheDocument();
});
