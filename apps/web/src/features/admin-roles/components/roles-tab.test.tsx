import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SWRConfig } from 'swr';
import { ADMIN_USER_MESSAGES as M, type AdminRole } from '@portal/contracts';
import * as apiModule from '@/lib/api';
import * as toaster from '@/components/ui/toaster';
import { RolesTab } from './roles-tab';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
const notify = toaster.notify as jest.Mock;

const roles: AdminRole[] = [
  { id: 1, code: 'super_admin', name: 'Super Administrator', description: null, level: 0, permissions: ['bcc.carts.checkout', 'bcc.carts.use'], immutable: true, userCount: 1 },
  { id: 7, code: 'outlet_viewer', name: 'Outlet Viewer', description: 'Shops.', level: 60, permissions: ['bcc.carts.use'], immutable: false, userCount: 2 },
];
const perms = { items: [{ id: 1, code: 'bcc.carts.checkout', description: 'Check out and pay' }, { id: 2, code: 'bcc.carts.use', description: 'Shop' }] };

function setup(canEdit: boolean) {
  jest.spyOn(apiModule.api, 'get').mockImplementation(async (p: string) => ({ status: 200, data: p === '/admin/roles' ? { items: roles } : perms }));
  render(<SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}><RolesTab canEdit={canEdit} /></SWRConfig>);
}
const chooseViewer = async () => userEvent.click((await screen.findAllByRole('button', { name: /Outlet Viewer/ }))[0]);

beforeEach(() => notify.mockReset());
afterEach(() => jest.restoreAllMocks());

describe('Roles tab (spec 002 §2 Roles, §4, §8)', () => {
  it('a switch applies at once', async () => {
    setup(true);
    await chooseViewer();
    const put = jest.spyOn(apiModule.api, 'put').mockResolvedValue({ status: 200, data: { ...roles[1], permissions: ['bcc.carts.checkout', 'bcc.carts.use'] } });
    const sw = screen.getByRole('switch', { name: 'bcc.carts.checkout' });
    expect(sw).not.toBeChecked();
    await userEvent.click(sw);
    expect(sw).toBeChecked();
    expect(put).toHaveBeenCalledWith('/admin/roles/7/permissions/bcc.carts.checkout');
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ variant: 'success' })));
  });

  it("when the change fails, then the switch reverts and 'Failed to update permission' shows", async () => {
    setup(true);
    await chooseViewer();
    jest.spyOn(apiModule.api, 'delete').mockRejectedValue(new apiModule.ApiError(500, { type: 'x', title: 'x', status: 500, code: 'internal_error' }));
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
    jest.spyOn(apiModule.api, 'get').mockRejectedValue(new apiModule.ApiError(403, { type: 'x', title: 'x', status: 403, code: 'forbidden' }));
    render(<SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}><RolesTab canEdit /></SWRConfig>);
    expect(await screen.findByText(M.rolesLoadFailed)).toBeInTheDocument();
  });
});
