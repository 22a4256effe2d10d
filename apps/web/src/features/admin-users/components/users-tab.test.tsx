import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useNavigate } from 'react-router-dom';
import {
  adminUserIdsSchema,
  adminUsersBulkResultSchema,
  adminUsersPageSchema,
  type AdminUserListRow,
  type AdminUsersPage,
} from '@portal/contracts';
import * as toaster from '@/components/ui/toaster';
import { FakeApi, problem, reply, type FakeAnswer } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { UsersTab } from './users-tab';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
const notify = toaster.notify as jest.Mock;

const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const row = (i: number, canEdit = true): AdminUserListRow => ({
  id: id(i),
  fullName: `User ${String(i).padStart(3, '0')}`,
  email: `user${i}@example.com`,
  isActive: true,
  status: 'active',
  lastLogin: i % 2 ? '2026-11-20T10:00:00.000Z' : null,
  outlets: [{ id: 1, name: 'Court Avenue Taproom', code: 'DSM' }],
  roles: [
    {
      id: 6,
      code: 'outlet_buyer',
      name: 'Outlet Buyer',
      description: null,
      level: 50,
      scopeType: 'outlet',
      scopeCount: 1,
      scopeName: 'Court Avenue Taproom',
    },
  ],
  canEdit,
});
const page = (from: number, n: number, total = 60, pageNo = 1, pageSize = 25): AdminUsersPage => ({
  items: Array.from({ length: n }, (_, k) => row(from + k, from + k !== 0)),
  nextCursor: null,
  total,
  page: pageNo,
  pageSize,
  meta: {
    scopeDescription: 'Users of the outlets linked to your stores',
    filterType: 'store',
    currentUserRoles: ['store_manager'],
    userCount: total,
  },
});
const getCalls = (api: FakeApi) => api.calls.filter((c) => c.method === 'get' && c.url.startsWith('/admin/users?')).map((c) => c.url);
const lastList = (api: FakeApi) => new URLSearchParams(getCalls(api).at(-1)!.split('?')[1]);

/** The Edit User stand-in: a Back button (history back, as the browser's). */
function EditUser() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => navigate(-1)}>
      BACK FROM EDIT USER
    </button>
  );
}

function setup(answer: (path: string) => AdminUsersPage | FakeAnswer, url = '/admin?tab=users', extra?: (api: FakeApi) => FakeApi) {
  const base = new FakeApi()
    .on('get', /^\/admin\/users\?/, (call) => {
      const r = answer(call.url);
      return 'status' in r ? r : reply(adminUsersPageSchema, r);
    })
    .on('get', '/admin/roles', problem(403, 'forbidden', 'Forbidden'))
    .on('get', '/admin/outlets', problem(403, 'forbidden', 'Forbidden'))
    .on('get', '/admin/stores', problem(403, 'forbidden', 'Forbidden'));
  const api = extra ? extra(base) : base;
  return renderRoute(
    <Routes>
      <Route path="/admin" element={<UsersTab actions={<button type="button">Invite</button>} />} />
      <Route path="/admin/users/:id" element={<EditUser />} />
      <Route path="/auth" element={<p>SIGN IN</p>} />
    </Routes>,
    { url, api },
  ).api;
}

beforeEach(() => notify.mockReset());

describe('Users tab (spec 002 §2 Users; ARCHITECTURE §5 "Administration at scale")', () => {
  it('reads page, size, sort and filters from the URL and pages, sorts and filters on the server', async () => {
    const api = setup(
      (p) => page(0, 3, 60, Number(new URLSearchParams(p.split('?')[1]).get('page'))),
      '/admin?tab=users&page=2&size=50&sort=-email&role=store_manager',
    );
    expect(await screen.findByText('Users of the outlets linked to your stores · 60 matches')).toBeInTheDocument();
    expect(Object.fromEntries(lastList(api))).toEqual({ page: '2', pageSize: '50', sort: '-email', role: 'store_manager' });
    expect(screen.getByRole('columnheader', { name: /Email/ })).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('columnheader', { name: /Last sign-in/ })).toHaveAttribute('aria-sort', 'none');
    await userEvent.click(screen.getByRole('button', { name: /Last sign-in/ }));
    await waitFor(() => expect(lastList(api).get('sort')).toBe('lastLogin'));
    expect(lastList(api).get('page')).toBe('1');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'inactive');
    await waitFor(() => expect(lastList(api).get('status')).toBe('inactive'));
    expect(lastList(api).get('role')).toBe('store_manager');
    expect(screen.getAllByText('Never').length).toBeGreaterThan(0);
  });

  it('keeps the search and page through Edit User and Back', async () => {
    const api = setup((p) => (p.includes('search=user') ? page(1, 2, 2) : page(0, 25, 60, p.includes('page=2') ? 2 : 1)));
    await screen.findAllByText('User 001');
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastList(api).get('page')).toBe('2'));
    await userEvent.type(screen.getByLabelText('Search users'), 'user');
    await waitFor(() => expect(lastList(api).get('search')).toBe('user'));
    await userEvent.click(await screen.findByText('user2@example.com'));
    await userEvent.click(screen.getByRole('button', { name: 'BACK FROM EDIT USER' }));
    expect(await screen.findByLabelText('Search users')).toHaveValue('user');
    await waitFor(() => expect(lastList(api).get('search')).toBe('user'));
  });

  it('opens Edit User from anywhere on an editable row (click or Enter); a read-only row says why', async () => {
    setup(() => page(0, 3));
    fireEvent.keyDown(await screen.findByRole('row', { name: 'Open User 000' }), { key: 'Enter' });
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: "You don't have permission to edit this user" }));
    const r = screen.getByRole('row', { name: 'Open User 001' });
    fireEvent.keyDown(r, { key: 'Enter' });
    expect(await screen.findByRole('button', { name: 'BACK FROM EDIT USER' })).toBeInTheDocument();
  });

  it('bulk deactivates the selected rows after a confirmation stating the count, and lists the skipped ones', async () => {
    const api = setup(
      () => page(0, 3, 3),
      undefined,
      (a) =>
        a.on('post', '/admin/users/bulk', (call) => {
          const ids = (call.body as { userIds: string[] }).userIds;
          return reply(adminUsersBulkResultSchema, {
            results: ids.map((u) =>
              u === id(1)
                ? { userId: u, ok: false, code: 'self_deactivate', message: 'You cannot deactivate yourself' }
                : { userId: u, ok: true },
            ),
          });
        }),
    );
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select User 001' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select User 002' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('2 users selected')).toBeInTheDocument();
    await userEvent.click(within(bar).getByRole('button', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Deactivate 2 users?')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'post')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deactivate (2)' }));
    expect(await screen.findByText('1 deactivated, 1 skipped: user1@example.com (You cannot deactivate yourself)')).toBeInTheDocument();
    const post = api.calls.find((c) => c.method === 'post');
    expect(post?.body).toEqual({ action: 'deactivate', userIds: [id(1), id(2)] });
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: '1 deactivated, 1 skipped' }));
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument();
  });

  it('selects all rows matching the filters through /admin/users/ids', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => id(i));
    const api = setup(
      () => page(0, 25),
      '/admin?tab=users&status=inactive',
      (a) => a.on('get', '/admin/users/ids', reply(adminUserIdsSchema, { ids, total: 60, truncated: false })),
    );
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select all rows on this page' }));
    expect(screen.getByText('25 users selected')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Select all 60 matching' }));
    expect(await screen.findByText('60 users selected')).toBeInTheDocument();
    expect(api.calls.find((c) => c.url.startsWith('/admin/users/ids'))?.url).toBe('/admin/users/ids?status=inactive&sort=name');
  });

  it("when the session expired, then 'Error loading users: Authentication session expired. Please login again.' and Login Again", async () => {
    setup(() => problem(401, 'unauthenticated', 'Unauthorized'));
    expect(await screen.findByText('Error loading users: Authentication session expired. Please login again.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Login Again' }));
    expect(screen.getByText('SIGN IN')).toBeInTheDocument();
  });

  it('when nobody matches, then the empty state', async () => {
    setup(() => page(0, 0, 0));
    expect(await screen.findByText('No users found')).toBeInTheDocument();
  });
});
