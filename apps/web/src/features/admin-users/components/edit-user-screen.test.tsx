import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import {
  ADMIN_USER_MESSAGES as M,
  adminUserDetailSchema,
  assignableRolesSchema,
  manageableOutletsPageSchema,
  type AdminUserDetail,
  type ManageableOutlet,
  type AdminRoleRef,
  type GrantRef,
} from '@portal/contracts';
import * as toaster from '@/components/ui/toaster';
import { FakeApi, problem, reply, type FakeAnswer } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { EditUserScreen } from './edit-user-screen';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
const notify = toaster.notify as jest.Mock;

const USER_ID = '11111111-1111-4111-8111-111111111111';
const role = (id: number, code: string, name: string, level: number): AdminRoleRef => ({
  id,
  code,
  name,
  description: `${name} description`,
  level,
  scopeType: 'outlet',
});
const buyer = role(6, 'outlet_buyer', 'Outlet Buyer', 50);
const viewer = role(7, 'outlet_viewer', 'Outlet Viewer', 60);
/** A role held at an outlet (ARCHITECTURE §11). */
const at = (r: AdminRoleRef, outletId: number, outletName: string, editable = true): GrantRef => ({
  ...r,
  roleId: r.id,
  scopeId: outletId,
  scopeName: outletName,
  editable,
});
const detail = (over: Partial<AdminUserDetail> = {}): AdminUserDetail => ({
  id: USER_ID,
  email: 'tara@example.com',
  fullName: 'Tara Target',
  profile: { firstName: 'Tara', lastName: 'Target', phone: null, isActive: true, lastLogin: null },
  roles: [at(viewer, 1, 'Court Avenue Taproom')],
  outlets: [{ id: 1, name: 'Court Avenue Taproom', code: 'DSM' }],
  canEdit: true,
  canEditProfile: true,
  canDelete: false,
  ...over,
});
const outlet = (id: number, name: string, assigned: boolean, canManage: boolean): ManageableOutlet => ({
  outletId: id,
  outletName: name,
  outletCode: `CODE-${id}`,
  assigned,
  canManage,
});

function setup({
  user = detail(),
  outlets = [
    outlet(1, 'Court Avenue Taproom', true, true),
    outlet(2, 'Campustown Bistro', false, true),
    outlet(3, 'Riverfront Oyster Bar', true, false),
  ],
  roles = [buyer, viewer],
  stores = [],
  getError,
  viewerId = 'someone-else',
  superAdmin = false,
}: {
  user?: AdminUserDetail;
  outlets?: ManageableOutlet[];
  roles?: AdminRoleRef[];
  stores?: { id: number; name: string; warehouseCode: string }[];
  getError?: FakeAnswer;
  viewerId?: string;
  superAdmin?: boolean;
} = {}) {
  const api = new FakeApi()
    .on('get', '/admin/users/{id}', getError ?? reply(adminUserDetailSchema, user))
    .on('get', '/admin/users/{id}/manageable-outlets', (call) => {
      const q = new URL(call.url, 'http://x').searchParams;
      const search = (q.get('search') ?? '').toLowerCase();
      const hits = outlets.filter(
        (o) => (q.get('assigned') !== 'true' || o.assigned) && `${o.outletName} ${o.outletCode}`.toLowerCase().includes(search),
      );
      return reply(manageableOutletsPageSchema, { items: hits.slice(0, Number(q.get('limit') ?? 1000)), total: hits.length });
    })
    .on('get', '/admin/users/{id}/assignable-roles', reply(assignableRolesSchema, { items: roles, stores, boards: [] }));
  renderRoute(
    <Routes>
      <Route
        path="/admin/users/:userId"
        element={<EditUserScreen userId={USER_ID} viewerId={viewerId} viewerIsSuperAdmin={superAdmin} />}
      />
      <Route path="/admin" element={<p>ADMIN DASHBOARD</p>} />
    </Routes>,
    { url: `/admin/users/${USER_ID}`, api },
  );
  return { api };
}

beforeEach(() => notify.mockReset());

/** Opens the Outlets picker, searches `search` and picks the match named `name` (the server answers the search). */
async function pickOutlet(search: string, name: RegExp) {
  await userEvent.click(screen.getByLabelText('Outlets'));
  await userEvent.type(await screen.findByRole('combobox', { name: 'Search outlets' }), search);
  await userEvent.click(await screen.findByRole('option', { name }, { timeout: 5000 }));
  await userEvent.keyboard('{Escape}');
}

describe('Edit User (spec 002 §2, §4, §5, §8)', () => {
  it("while loading, then 'Loading user data...'; then the header, the profile and Save Changes disabled", async () => {
    setup();
    expect(screen.getByText(M.loadingUser)).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Edit User' })).toBeInTheDocument();
    expect(screen.getByText('Tara Target')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    expect(screen.getByLabelText('Email Address/Login')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('First Name *')).toHaveValue('Tara');
    expect(screen.getByRole('switch', { name: 'Active account' })).toBeChecked();
    expect(screen.getByPlaceholderText('(555) 123-4567')).toBeInTheDocument();
    expect(screen.getByText('Last login: Never')).toBeInTheDocument();
    expect(screen.queryByText('Danger Zone')).not.toBeInTheDocument();
  });

  it('when viewing oneself without super administration, then the self Access Denied text and no request', async () => {
    const { api } = setup({ viewerId: USER_ID });
    expect(screen.getByText(M.selfEdit)).toBeInTheDocument();
    expect(api.urls('get')).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Back to Admin' }));
    expect(screen.getByText('ADMIN DASHBOARD')).toBeInTheDocument();
  });

  it('when the user cannot be edited, then the other Access Denied text', async () => {
    setup({ user: detail({ canEdit: false }) });
    expect(await screen.findByText(M.notEditable)).toBeInTheDocument();
  });
  it("when the id is missing, malformed or out of scope (404), then 'User not found' (issue 26 §5)", async () => {
    setup({ getError: problem(404, 'not_found', 'User not found') });
    expect(await screen.findByRole('heading', { name: 'User not found' })).toBeInTheDocument();
    expect(screen.queryByText(M.notEditable)).not.toBeInTheDocument();
  });

  it("only the user's outlets load with the screen, as chips by name; an unmanageable one is read-only with the hint", async () => {
    const { api } = setup();
    await screen.findByRole('heading', { name: 'Edit User' });
    expect(api.urls('get')).toContain(`/admin/users/${USER_ID}/manageable-outlets?assigned=true`);
    const chips = screen.getByRole('list', { name: 'Selected outlets' });
    expect(
      within(chips)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Court Avenue Taproom(CODE-1)', 'Riverfront Oyster Bar(CODE-3)(read-only)']);
    expect(screen.queryByRole('button', { name: 'Remove Riverfront Oyster Bar' })).not.toBeInTheDocument();
    expect(screen.getByText(`(read-only): ${M.outletReadOnlyHint}`)).toBeInTheDocument();
  });

  it('the Save bar stays at the bottom of the screen (sticky), saying whether anything changed', async () => {
    setup();
    await screen.findByRole('heading', { name: 'Edit User' });
    const bar = screen.getByRole('region', { name: 'Save bar' });
    expect(bar).toHaveClass('sticky', 'bottom-0');
    expect(within(bar).getByText('No changes')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Phone Number'), '5');
    expect(within(bar).getByText('Unsaved changes')).toBeInTheDocument();
  });

  it('when an outlet and the phone change, then Save Changes sends only the difference and the profile, and toasts', async () => {
    const { api } = setup();
    await screen.findByRole('heading', { name: 'Edit User' });
    api
      .on('put', '/admin/users/{id}/outlets', reply(adminUserDetailSchema, detail()))
      .on('patch', '/admin/users/{id}/profile', reply(adminUserDetailSchema, detail({ profile: { ...detail().profile, phone: '515' } })));
    await pickOutlet('campus', /Campustown/);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Court Avenue Taproom' }));
    await userEvent.type(screen.getByLabelText('Phone Number'), '515');
    const save = screen.getByRole('button', { name: 'Save Changes' });
    expect(save).toBeEnabled();
    await userEvent.click(save);
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ description: M.updated, variant: 'success' })));
    expect(api.calls).toContainEqual({ method: 'put', url: `/admin/users/${USER_ID}/outlets`, body: { add: [2], remove: [1] } });
    expect(api.calls).toContainEqual({
      method: 'patch',
      url: `/admin/users/${USER_ID}/profile`,
      body: { firstName: 'Tara', lastName: 'Target', phone: '515', isActive: true },
    });
  });

  it('when the Active account switch is turned off, then Save Changes sends isActive false', async () => {
    const { api } = setup();
    await screen.findByRole('heading', { name: 'Edit User' });
    api.on(
      'patch',
      '/admin/users/{id}/profile',
      reply(adminUserDetailSchema, detail({ profile: { ...detail().profile, isActive: false } })),
    );
    await userEvent.click(screen.getByRole('switch', { name: 'Active account' }));
    expect(screen.getByRole('switch', { name: 'Active account' })).not.toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        method: 'patch',
        url: `/admin/users/${USER_ID}/profile`,
        body: { firstName: 'Tara', lastName: 'Target', phone: null, isActive: false },
      }),
    );
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled());
  });

  it("when the first name is blank, then 'Validation Error' / 'First name is required' and nothing is sent", async () => {
    const { api } = setup();
    await screen.findByRole('heading', { name: 'Edit User' });
    await userEvent.clear(screen.getByLabelText('First Name *'));
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Validation Error', description: M.firstNameRequired }));
    expect(api.urls('patch')).toEqual([]);
  });

  it('when saving the outlets fails, then the error toast names it and the profile is not sent', async () => {
    const { api } = setup();
    await screen.findByRole('heading', { name: 'Edit User' });
    api.on('put', '/admin/users/{id}/outlets', problem(403, 'outlet_not_manageable', M.outletNotManageable));
    await pickOutlet('campus', /Campustown/);
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith(
        expect.objectContaining({ title: 'Error', description: `Failed to update outlets: ${M.outletNotManageable}` }),
      ),
    );
    expect(api.urls('patch')).toEqual([]);
  });

  it('when a role is added, it is saved at once; when that fails it is rolled back with the toast', async () => {
    const { api } = setup();
    await screen.findByRole('heading', { name: 'Edit User' });
    api.on(
      'post',
      '/admin/users/{id}/roles',
      reply(adminUserDetailSchema, detail({ roles: [at(buyer, 1, 'Court Avenue Taproom'), at(viewer, 1, 'Court Avenue Taproom')] })),
    );
    const select = screen.getByLabelText('Role to add');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Select role to add...', 'Outlet Buyer']);
    await userEvent.selectOptions(select, 'Outlet Buyer');
    await userEvent.click(screen.getByRole('button', { name: 'Add role' }));
    // An outlet role goes to the ticked outlets the editor manages ("these roles at these outlets of mine").
    expect(api.calls).toContainEqual({ method: 'post', url: `/admin/users/${USER_ID}/roles`, body: { roleId: 6, outletIds: [1] } });
    const list = screen.getByRole('list', { name: 'Assigned roles' });
    await waitFor(() => expect(within(list).getByText('Outlet Buyer')).toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();

    api.on('delete', '/admin/users/{id}/roles/{roleId}', problem(403, 'forbidden', 'nope'));
    await userEvent.click(screen.getByRole('button', { name: 'Remove Outlet Buyer · Court Avenue Taproom' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Error', description: 'Failed to update roles: nope' })),
    );
    expect(within(list).getByText('Outlet Buyer')).toBeInTheDocument();
  });

  it('a store role is granted at a store found through the searchable picker (thousands of stores are never one dropdown)', async () => {
    const storeRole: AdminRoleRef = { ...role(4, 'store_staff', 'Store Staff', 30), scopeType: 'store' };
    const stores = Array.from({ length: 2296 }, (_, i) => ({ id: 1000 + i, name: `Store ${1000 + i}`, warehouseCode: `IA-${1000 + i}` }));
    const { api } = setup({ roles: [buyer, viewer, storeRole], stores });
    await screen.findByRole('heading', { name: 'Edit User' });
    api.on('post', '/admin/users/{id}/roles', reply(adminUserDetailSchema, detail()));
    await userEvent.selectOptions(screen.getByLabelText('Role to add'), 'Store Staff (store role)');
    const add = screen.getByRole('button', { name: 'Add role' });
    expect(add).toBeDisabled();
    await userEvent.click(screen.getByLabelText('Store for the role'));
    expect(await screen.findByText('Showing 20 of 2,296: type to narrow')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('combobox', { name: 'Search store for the role' }), 'IA-3210');
    await userEvent.click(await screen.findByRole('option', { name: /Store 3210/ }, { timeout: 5000 }));
    await userEvent.keyboard('{Escape}');
    await userEvent.click(add);
    expect(api.calls).toContainEqual({ method: 'post', url: `/admin/users/${USER_ID}/roles`, body: { roleId: 4, storeIds: [3210] } });
  });

  it("when no role is assigned, then 'No roles assigned'", async () => {
    setup({ user: detail({ roles: [] }) });
    expect(await screen.findByText('No roles assigned')).toBeInTheDocument();
  });

  it('a super administrator deletes through the Danger Zone dialog and returns to /admin', async () => {
    const { api } = setup({ user: detail({ canDelete: true }), superAdmin: true });
    await screen.findByText('Danger Zone');
    expect(screen.getByText('Permanently delete this user and all associated data. This action cannot be undone.')).toBeInTheDocument();
    api.on('delete', '/admin/users/{id}', { status: 204 });
    await userEvent.click(screen.getByRole('button', { name: 'Delete User' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Are you absolutely sure?' });
    expect(within(dialog).getByText(/tara@example.com/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete user' }));
    await waitFor(() => expect(screen.getByText('ADMIN DASHBOARD')).toBeInTheDocument());
    expect(api.urls('delete')).toContain(`/admin/users/${USER_ID}`);
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Success', description: M.deleted }));
  });

  it('when deletion fails, then the server message is toasted and the screen stays', async () => {
    const { api } = setup({ user: detail({ canDelete: true }), superAdmin: true });
    await screen.findByText('Danger Zone');
    api.on('delete', '/admin/users/{id}', problem(409, 'last_super_admin', M.lastSuperAdmin));
    await userEvent.click(screen.getByRole('button', { name: 'Delete User' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, delete user' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Error', description: M.lastSuperAdmin })));
    expect(screen.getByRole('heading', { name: 'Edit User' })).toBeInTheDocument();
  });
});
