import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN_USER_MESSAGES as M, adminPermissionsSchema, adminRoleSchema, adminRolesSchema, type AdminRole } from '@portal/contracts';
import * as toaster from '@/components/ui/toaster';
import { FakeApi, problem, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { RolesTab } from './roles-tab';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
const notify = toaster.notify as jest.Mock;

const roles: AdminRole[] = [
  {
    id: 1,
    code: 'super_admin',
    name: 'Super Administrator',
    description: null,
    level: 0,
    scopeType: 'global',
    permissions: ['bcc.carts.checkout', 'bcc.carts.use'],
    immutable: true,
    userCount: 1,
  },
  {
    id: 7,
    code: 'outlet_viewer',
    name: 'Outlet Viewer',
    description: 'Shops.',
    level: 60,
    scopeType: 'outlet',
    permissions: ['bcc.carts.use'],
    immutable: false,
    userCount: 2,
  },
];
const perms = {
  items: [
    { id: 1, code: 'bcc.carts.checkout', description: 'Check out and pay' },
    { id: 2, code: 'bcc.carts.use', description: 'Shop' },
  ],
};

function setup(canEdit: boolean, api = new FakeApi()) {
  api
    .on('get', '/admin/roles', reply(adminRolesSchema, { items: roles }))
    .on('get', '/admin/permissions', reply(adminPermissionsSchema, perms));
  return renderRoute(<RolesTab canEdit={canEdit} />, { api });
}
const chooseViewer = async () => userEvent.click((await screen.findAllByRole('button', { name: /Outlet Viewer/ }))[0]);

beforeEach(() => notify.mockReset());

describe('Roles tab (spec 002 §2 Roles, §4, §8)', () => {
  it('a switch applies at once', async () => {
    const { api } = setup(true);
    await chooseViewer();
    api.on(
      'put',
      '/admin/roles/{id}/permissions/{code}',
      reply(adminRoleSchema, { ...roles[1], permissions: ['bcc.carts.checkout', 'bcc.carts.use'] }),
    );
    const sw = screen.getByRole('switch', { name: 'bcc.carts.checkout' });
    expect(sw).not.toBeChecked();
    await userEvent.click(sw);
    expect(sw).toBeChecked();
    expect(api.calls).toContainEqual({ method: 'put', url: '/admin/roles/7/permissions/bcc.carts.checkout', body: undefined });
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ variant: 'success' })));
  });

  it("when the change fails, then the switch reverts and 'Failed to update permission' shows", async () => {
    const { api } = setup(true);
    await chooseViewer();
    api.on('delete', '/admin/roles/{id}/permissions/{code}', problem(500, 'internal_error', 'x'));
    const sw = screen.getByRole('switch', { name: 'bcc.carts.use' });
    await userEvent.click(sw);
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: M.permissionUpdateFailed })));
    expect(sw).toBeChecked();
  });

  it('without bcc.admin.roles.update the page warns and the switches are read-only; super_admin never changes', async () => {
    setup(false);
    expect(await screen.findByText(/You need the bcc.admin.roles.update permission to edit role permissions./)).toBeInTheDocument();
    expect(screen.getByText(M.roleImmutable)).toBeInTheDocument();
    for (const sw of screen.getAllByRole('switch')) expect(sw).toBeDisabled();
  });

  it("when loading fails, then 'Failed to load role management data'", async () => {
    renderRoute(<RolesTab canEdit />, {
      api: new FakeApi()
        .on('get', '/admin/roles', problem(403, 'forbidden', 'x'))
        .on('get', '/admin/permissions', problem(403, 'forbidden', 'x')),
    });
    expect(await screen.findByText(M.rolesLoadFailed)).toBeInTheDocument();
  });
});
