import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { z } from 'zod';
import {
  outletRequestSchema,
  outletStoresSchema,
  profileSchema,
  requestableOutletsSchema,
  type Me,
  type MyOutlet,
  type MyRole,
  type StoreSummary,
} from '@portal/contracts';
import * as toaster from '@/components/ui/toaster';
import { FakeApi, problem, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { useSelection, type SelectionValue } from '@/lib/selection';
import { useSession, type SessionValue } from '@/lib/session';
import { meFixture } from '@/test/me-fixture';
import { ProfileScreen } from './profile-screen';
import { storeAddress } from './my-outlets';
import { roleName } from './my-roles';

jest.mock('@/lib/session', () => ({ ...jest.requireActual('@/lib/session'), useSession: jest.fn() }));
jest.mock('@/lib/selection', () => ({ ...jest.requireActual('@/lib/selection'), useSelection: jest.fn() }));
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
const notify = toaster.notify as jest.Mock;

const role = (over: Partial<MyRole>): MyRole => ({
  id: '1',
  roleCode: 'outlet_buyer',
  roleName: 'Outlet Buyer',
  description: 'Shops and pays.',
  roleLevel: 50,
  permissions: [],
  scopeType: 'outlet',
  scopeCount: 1,
  ...over,
});
const meOf = (over: Partial<Me> = {}): Me => meFixture({ roles: [role({})], ...over });
const outlet = (id: number, name: string): MyOutlet => ({
  outletId: id,
  outletCode: `CODE-${id}`,
  outletName: name,
  isAdminOutlet: false,
  outletActive: true,
  outletCity: 'AMES',
  outletState: 'IA',
  outletPhone: null,
  outletEmail: null,
  boardName: 'Iowa Alcoholic Beverages Division',
  defaultStoreId: null,
  storeIds: [],
  storeNames: [],
  storeCodes: [],
});
const store = (id: number, name: string, active = true): StoreSummary => ({
  id,
  warehouseId: id,
  name,
  warehouseCode: `W${id}`,
  address: '1 Main St',
  city: 'AMES',
  state: 'IA',
  zipCode: '50010',
  phone: '(515) 555-0100',
  boardNumber: 1,
  boardName: 'Iowa Alcoholic Beverages Division',
  active,
});

let session: SessionValue;
let api: FakeApi;
type ListBody = z.input<typeof outletStoresSchema> | z.input<typeof requestableOutletsSchema>;
/** `get(path)` answers GET /outlets/{id}/stores and /me/requestable-outlets (default: two stores, one inactive; nothing requestable). */
function setup({
  me = meOf(),
  outlets = [outlet(1, 'Court Avenue Taproom')],
  get,
}: { me?: Me; outlets?: MyOutlet[]; get?: (path: string) => ListBody } = {}) {
  session = {
    status: 'authenticated',
    me,
    initError: false,
    hasPermission: () => false,
    hasAnyPermission: () => false,
    signIn: jest.fn(),
    signOut: jest.fn(),
    reload: jest.fn().mockResolvedValue(undefined),
  };
  (useSession as jest.Mock).mockReturnValue(session);
  const sel: Partial<SelectionValue> = { outlets, outletsLoading: false, outletsError: undefined, outlet: outlets[0] ?? null };
  (useSelection as jest.Mock).mockReturnValue(sel);
  api = new FakeApi()
    .on('get', '/outlets/{outletId}/stores', (call) =>
      reply(
        outletStoresSchema,
        (get?.(call.url) ?? { items: [store(2190, 'Central City 2'), store(2113, 'Closed Store', false)] }) as z.input<
          typeof outletStoresSchema
        >,
      ),
    )
    .on('get', '/me/requestable-outlets', (call) =>
      reply(requestableOutletsSchema, (get?.(call.url) ?? { items: [] }) as z.input<typeof requestableOutletsSchema>),
    );
  renderRoute(<ProfileScreen />, { url: '/profile', api });
}

beforeEach(() => notify.mockReset());

describe('Edit Profile (spec 000 §2)', () => {
  it('when opened, then the sticky navigation links the four sections in order', () => {
    setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Edit Profile' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Profile sections' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['Profile Info', 'Password', 'My Outlets', 'My Roles']);
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['#profile-info', '#password', '#my-outlets', '#my-roles']);
    for (const id of ['profile-info', 'password', 'my-outlets', 'my-roles']) expect(document.getElementById(id)).not.toBeNull();
  });

  it('when an anchor is followed, then focus moves to that section heading', async () => {
    setup();
    await userEvent.click(screen.getByRole('link', { name: 'My Roles' }));
    expect(screen.getByRole('heading', { name: 'My Roles' })).toHaveFocus();
    expect(screen.getByRole('link', { name: 'My Roles' })).toHaveAttribute('aria-current', 'location');
  });
});

describe('Profile Info (spec 000 §2, §5, §8)', () => {
  it('when the names are emptied, then First name is required and Last name is required show', async () => {
    setup();
    await userEvent.clear(screen.getByLabelText('First Name'));
    await userEvent.clear(screen.getByLabelText('Last Name'));
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
  });

  it('when the email is shown, then it is read-only', () => {
    setup();
    expect(screen.getByLabelText('Email')).toHaveValue('buyer@example.com');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
  });

  it('when saved, then PATCH /me/profile gets the names and phone (empty → null), the toast shows and the session reloads', async () => {
    setup();
    api.on('patch', '/me/profile', (call) => reply(profileSchema, { ...meOf().profile, ...(call.body as object) }));
    await userEvent.clear(screen.getByLabelText('First Name'));
    await userEvent.type(screen.getByLabelText('First Name'), 'Blair');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        method: 'patch',
        url: '/me/profile',
        body: { firstName: 'Blair', lastName: 'Buyer', phone: null },
      }),
    );
    expect(notify).toHaveBeenCalledWith({
      title: 'Profile updated',
      description: 'Your profile has been successfully updated.',
      variant: 'success',
    });
    expect(session.reload).toHaveBeenCalled();
  });

  it('when the save fails, then Failed to update profile is toasted', async () => {
    setup();
    api.on('patch', '/me/profile', problem(500, 'internal_error', 'boom'));
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ title: 'Failed to update profile. Please try again.', variant: 'destructive' }),
    );
  });
});

describe('Password (spec 000 §2, §5, §8)', () => {
  it('when submitted empty, then Current password is required and the new-password rule show', async () => {
    setup();
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Current password is required')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
  });

  it('when a new password is typed, then the live checklist follows it', async () => {
    setup();
    await userEvent.type(screen.getByLabelText('New Password'), 'A1');
    const item = (l: string) => screen.getByText(l).closest('li');
    expect(item('One uppercase letter')).toHaveAttribute('data-met', 'true');
    expect(item('One number')).toHaveAttribute('data-met', 'true');
    expect(item('One lowercase letter')).toHaveAttribute('data-met', 'false');
  });

  it('when the current password is wrong, then Invalid password / Your current password is incorrect. shows', async () => {
    setup();
    api.on('post', '/me/password', problem(400, 'current_password_incorrect', 'Your current password is incorrect.'));
    await userEvent.type(screen.getByLabelText('Current Password'), 'wrong');
    await userEvent.type(screen.getByLabelText('New Password'), 'NewPass#2024');
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'NewPass#2024');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        title: 'Invalid password',
        description: 'Your current password is incorrect.',
        variant: 'destructive',
      }),
    );
    expect(screen.getByLabelText('Current Password')).toHaveAttribute('aria-invalid', 'true');
  });

  it('when the change succeeds, then Password updated is toasted and the form clears', async () => {
    setup();
    api.on('post', '/me/password', { status: 204 });
    await userEvent.type(screen.getByLabelText('Current Password'), 'Fixture#Pass1');
    await userEvent.type(screen.getByLabelText('New Password'), 'NewPass#2024');
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'NewPass#2024');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ title: 'Password updated', variant: 'success' }));
    expect(api.calls).toContainEqual({
      method: 'post',
      url: '/me/password',
      body: { currentPassword: 'Fixture#Pass1', newPassword: 'NewPass#2024', confirmPassword: 'NewPass#2024' },
    });
    expect(screen.getByLabelText('Current Password')).toHaveValue('');
  });
});

describe('My Outlets (spec 000 §2)', () => {
  it('when the user has an outlet, then its active stores show with address and phone (inactive ones hidden)', async () => {
    setup();
    const section = document.getElementById('my-outlets')!;
    expect(within(section).getByText('Court Avenue Taproom')).toBeInTheDocument();
    expect(await within(section).findByText('Central City 2')).toBeInTheDocument();
    expect(within(section).getByText('1 Main St, AMES, IA, 50010')).toBeInTheDocument();
    expect(within(section).getByText('(515) 555-0100')).toBeInTheDocument();
    expect(within(section).queryByText('Closed Store')).not.toBeInTheDocument();
  });

  it('when there are no outlets or no stores, then the empty texts show', async () => {
    setup({ outlets: [], get: () => ({ items: [] }) });
    expect(screen.getByText('No outlets assigned to your account.')).toBeInTheDocument();
  });

  it('when an outlet has no stores, then No stores available. shows', async () => {
    setup({ get: () => ({ items: [] }) });
    expect(await screen.findByText('No stores available.')).toBeInTheDocument();
  });

  it('when Request more Outlets is opened, then the requestable outlets list with their board; submit waits for a choice', async () => {
    setup({
      get: (p) =>
        p === '/me/requestable-outlets'
          ? { items: [{ outletId: 7, outletName: 'Test – Open Cellar', outletCode: 'TEST-OPEN', boardName: 'Iowa ABD' }] }
          : { items: [] },
    });
    api.on(
      'post',
      '/me/outlet-requests',
      reply(
        outletRequestSchema,
        { id: 1, outletId: 7, outletName: 'Test – Open Cellar', status: 'pending', createdAt: '2026-11-20T10:00:00Z' },
        201,
      ),
    );
    await userEvent.click(screen.getByRole('button', { name: /Request more Outlets/ }));
    const radio = await screen.findByRole('radio', { name: /Test – Open Cellar/ });
    expect(screen.getByText('Iowa ABD')).toBeInTheDocument();
    const submit = screen.getByRole('button', { name: 'Submit Request' });
    expect(submit).toBeDisabled();
    await userEvent.click(radio);
    expect(submit).toBeEnabled();
    await userEvent.click(submit);
    await waitFor(() => expect(api.calls).toContainEqual({ method: 'post', url: '/me/outlet-requests', body: { outletId: 7 } }));
    expect(notify).toHaveBeenCalledWith(
      expect.objectContaining({
        title: 'Request submitted successfully',
        variant: 'success',
        description: expect.stringContaining('Test – Open Cellar'),
      }),
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Submit Request' })).not.toBeInTheDocument());
  });

  it('when Cancel is pressed, then the panel closes and the choice is cleared', async () => {
    setup({
      get: (p) =>
        p === '/me/requestable-outlets'
          ? { items: [{ outletId: 7, outletName: 'Test – Open Cellar', outletCode: 'TEST-OPEN', boardName: null }] }
          : { items: [] },
    });
    await userEvent.click(screen.getByRole('button', { name: /Request more Outlets/ }));
    await userEvent.click(await screen.findByRole('radio', { name: /Test – Open Cellar/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Request more Outlets/ }));
    expect(await screen.findByRole('radio', { name: /Test – Open Cellar/ })).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Submit Request' })).toBeDisabled();
  });

  it('when nothing can be requested, then No additional outlets available. shows', async () => {
    setup();
    await userEvent.click(screen.getByRole('button', { name: /Request more Outlets/ }));
    expect(await screen.findByText('No additional outlets available.')).toBeInTheDocument();
  });

  it('when the store address is joined, then empty parts are skipped', () => {
    expect(storeAddress({ address: null, city: 'AMES', state: 'IA', zipCode: '' })).toBe('AMES, IA');
    expect(storeAddress({ address: null, city: null, state: null, zipCode: null })).toBeNull();
  });
});

describe('My Roles (spec 000 §2)', () => {
  it('when the user has roles, then each shows its name and description', () => {
    setup();
    const section = document.getElementById('my-roles')!;
    expect(within(section).getByText('Outlet Buyer')).toBeInTheDocument();
    expect(within(section).getByText('Shops and pays.')).toBeInTheDocument();
  });
  it('when the user has no roles, then No roles assigned to your account. shows', () => {
    setup({ me: meOf({ roles: [] }) });
    expect(screen.getByText('No roles assigned to your account.')).toBeInTheDocument();
  });
  it('when a role has no name, then its code shows, else Unnamed Role', () => {
    expect(roleName({ roleName: null, roleCode: 'store_staff' })).toBe('store_staff');
    expect(roleName({ roleName: '', roleCode: '' })).toBe('Unnamed Role');
  });
});
