import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { adminUsersListSchema, type AdminUserRow, type AdminUsersList } from '@portal/contracts';
import * as toaster from '@/components/ui/toaster';
import { FakeApi, problem, reply, type FakeAnswer } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { UsersTab } from './users-tab';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
const notify = toaster.notify as jest.Mock;

const row = (i: number, canEdit = true): AdminUserRow => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  fullName: `User ${String(i).padStart(3, '0')}`,
  email: `user${i}@example.com`,
  isActive: true,
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
const page = (from: number, n: number, next: string | null): AdminUsersList => ({
  items: Array.from({ length: n }, (_, k) => row(from + k, from + k !== 0)),
  nextCursor: next,
  meta: {
    scopeDescription: 'Users of the outlets linked to your stores',
    filterType: 'store',
    currentUserRoles: ['store_manager'],
    userCount: 60,
  },
});
const getCalls = (api: FakeApi) => api.calls.filter((c) => c.method === 'get').map((c) => c.url);

/** `answer(path)` is the body of GET /admin/users… (or a FakeAnswer such as a problem). */
function setup(answer: (path: string) => AdminUsersList | FakeAnswer) {
  const api = new FakeApi().on('get', '/admin/users', (call) => {
    const r = answer(call.url);
    return 'status' in r ? r : reply(adminUsersListSchema, r);
  });
  return renderRoute(
    <Routes>
      <Route path="/admin" element={<UsersTab actions={<button type="button">Invite</button>} />} />
      <Route path="/admin/users/:id" element={<p>EDIT USER</p>} />
      <Route path="/auth" element={<p>SIGN IN</p>} />
    </Routes>,
    { url: '/admin', api },
  ).api;
}

beforeEach(() => notify.mockReset());

describe('Users tab (spec 002 §2 Users, §8, §9)', () => {
  it('shows 50 users first, then 50 more per Load More through the cursor', async () => {
    const api = setup((p) => (p.includes('cursor=c1') ? page(50, 10, null) : page(0, 50, 'c1')));
    expect(await screen.findByText('Users of the outlets linked to your stores · 60 users')).toBeInTheDocument();
    expect(getCalls(api)).toContain('/admin/users?limit=50');
    expect(screen.getAllByRole('row')).toHaveLength(51);
    expect(screen.getByRole('button', { name: 'Invite' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load More' }));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(61));
    expect(getCalls(api)).toContain('/admin/users?limit=50&cursor=c1');
    expect(screen.queryByRole('button', { name: 'Load More' })).not.toBeInTheDocument();
  });

  it('searches by name or email after the 300 ms debounce', async () => {
    const api = setup((p) => (p.includes('search=blake') ? page(5, 1, null) : page(0, 3, null)));
    await screen.findAllByText('User 001');
    await userEvent.type(screen.getByLabelText('Search users'), 'blake');
    await waitFor(() => expect(getCalls(api)).toContain('/admin/users?limit=50&search=blake'));
    await waitFor(() => expect(screen.queryAllByText('User 001')).toHaveLength(0));
    expect(screen.getAllByText('User 005').length).toBeGreaterThan(0);
  });

  it('an editable row opens Edit User; a row that cannot be edited says so', async () => {
    setup(() => page(0, 2, null));
    await userEvent.click((await screen.findAllByRole('button', { name: /User 000/ }))[0]);
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: "You don't have permission to edit this user" }));
    await userEvent.click(screen.getAllByRole('link', { name: 'User 001' })[0]);
    expect(screen.getByText('EDIT USER')).toBeInTheDocument();
  });

  it("when the session expired, then 'Error loading users: Authentication session expired. Please login again.' and Login Again", async () => {
    const api = setup(() => problem(401, 'unauthenticated', 'Unauthorized'));
    expect(await screen.findByText('Error loading users: Authentication session expired. Please login again.')).toBeInTheDocument();
    expect(getCalls(api)).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Login Again' }));
    expect(screen.getByText('SIGN IN')).toBeInTheDocument();
  });

  it('when nobody matches, then the empty state', async () => {
    setup(() => ({ ...page(0, 0, null), meta: { ...page(0, 0, null).meta, userCount: 0 } }));
    expect(await screen.findByText('No users found')).toBeInTheDocument();
  });
});
