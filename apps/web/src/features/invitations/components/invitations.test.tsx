import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  INVITATION_MESSAGES as M,
  PHONE_MESSAGES,
  acceptInvitationResultSchema,
  adminOutletRequestSchema,
  adminOutletRequestsPageSchema,
  createdInvitationSchema,
  invitationOptionsSchema,
  publicInvitationSchema,
  type InvitationOptions,
  type ProblemCode,
  type PublicInvitation,
} from '@portal/contracts';
import * as toaster from '@/components/ui/toaster';
import { FakeApi, problem, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { InviteUserDialog } from './invite-user-dialog';
import { InvitationAcceptPage } from './invitation-accept-page';
import { OutletRequestsPanel } from './outlet-requests-panel';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
// Radix checkboxes measure themselves; jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;
const notify = toaster.notify as jest.Mock;

const OPTIONS: InvitationOptions = {
  roles: [
    {
      id: 1,
      code: 'super_admin',
      name: 'Super Administrator',
      description: 'Everything.',
      level: 0,
      grantsAdminOutlet: true,
      scopeType: 'global',
    },
    { id: 6, code: 'outlet_buyer', name: 'Outlet Buyer', description: 'Shops.', level: 50, grantsAdminOutlet: false, scopeType: 'outlet' },
  ],
  outlets: [
    { id: 9, code: 'SYSTEM-ADMIN', name: 'System Administration', isAdminOutlet: true, boardName: null, city: null },
    { id: 2, code: 'DEMO-DSM-01', name: 'Court Avenue Taproom', isAdminOutlet: false, boardName: 'Iowa', city: 'DES MOINES' },
  ],
  stores: [],
  boards: [],
};
let api: FakeApi;
const posts = () => api.calls.filter((c) => c.method === 'post');
function wrap(ui: React.ReactElement, path = '/') {
  return renderRoute(ui, { url: path, api });
}

beforeEach(() => {
  notify.mockReset();
  api = new FakeApi();
});

/** Picks an outlet in the dialog's Select Outlets picker (issue 26 §4) and closes its list. */
async function pickOutlet(user: ReturnType<typeof userEvent.setup>, name: RegExp) {
  await user.click(screen.getByLabelText('Select Outlets'));
  await user.click(await screen.findByRole('option', { name }));
  await user.keyboard('{Escape}');
}

describe('InviteUserDialog (spec 000 §2, §5)', () => {
  const sent = reply(createdInvitationSchema, { id: 'a1b2', email: 'ivy@example.com', expiresAt: '2026-12-01T00:00:00.000Z' }, 201);
  beforeEach(() => {
    api.on('get', '/invitations/options', reply(invitationOptionsSchema, OPTIONS)).on('post', '/invitations', sent);
  });

  it('when opened, then outlets wait for a role, Send is disabled with the hint, and the admin outlet shows only for a role that grants it', async () => {
    const user = userEvent.setup();
    wrap(<InviteUserDialog open onOpenChange={jest.fn()} />);
    expect(await screen.findByText(M.selectRolesFirst)).toBeInTheDocument();
    const send = screen.getByRole('button', { name: 'Send Invitation' });
    expect(send).toBeDisabled();
    expect(screen.getByText(M.outletHint)).toBeInTheDocument();
    await user.click(screen.getByLabelText(/Outlet Buyer/));
    await user.click(screen.getByLabelText('Select Outlets'));
    expect(await screen.findByRole('option', { name: /Court Avenue Taproom/ })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /System Administration/ })).toBeNull();
    await user.click(screen.getByRole('option', { name: /Court Avenue Taproom/ }));
    await user.keyboard('{Escape}');
    expect(within(screen.getByRole('list', { name: 'Selected outlets' })).getByText('Court Avenue Taproom')).toBeInTheDocument();
    expect(send).toBeEnabled();
    await user.click(screen.getByLabelText(/Super Administrator/));
    // A role that grants the admin outlets clears the chosen outlets and lists them (spec 000 §4, §5).
    expect(screen.queryByRole('list', { name: 'Selected outlets' })).toBeNull();
    await user.click(screen.getByLabelText('Select Outlets'));
    expect(await screen.findByRole('option', { name: /System Administration \(System Default - Optional\)/ })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(send).toBeDisabled();
  });

  it('when names are missing or the email is malformed, then the spec toast shows and nothing is sent', async () => {
    const user = userEvent.setup();
    wrap(<InviteUserDialog open onOpenChange={jest.fn()} />);
    await user.click(await screen.findByLabelText(/Outlet Buyer/));
    await pickOutlet(user, /Court Avenue Taproom/);
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ title: M.missingInfoTitle, description: M.missingInfo, variant: 'destructive' }),
    );
    await user.type(screen.getByLabelText('First Name'), 'Ivy');
    await user.type(screen.getByLabelText('Last Name'), 'Invitee');
    await user.type(screen.getByLabelText('Email Address'), 'ivy@nowhere');
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() =>
      expect(notify).toHaveBeenLastCalledWith({ title: M.invalidEmailTitle, description: M.invalidEmail, variant: 'destructive' }),
    );
    expect(posts()).toEqual([]);
  });

  it('when sent, then it posts the invitation, toasts Invitation Sent and closes; a refusal keeps it open with the server message', async () => {
    const user = userEvent.setup();
    const onOpenChange = jest.fn();
    wrap(<InviteUserDialog open onOpenChange={onOpenChange} />);
    await user.type(screen.getByLabelText('First Name'), 'Ivy');
    await user.type(screen.getByLabelText('Last Name'), 'Invitee');
    await user.type(screen.getByLabelText('Email Address'), 'Ivy@Example.com');
    await user.click(await screen.findByLabelText(/Outlet Buyer/));
    await pickOutlet(user, /Court Avenue Taproom/);
    let refused = false;
    api.on('post', '/invitations', () =>
      refused
        ? sent
        : ((refused = true), problem(403, 'outlet_not_grantable', 'You may not invite users to the outlet Court Avenue Taproom.')),
    );
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        title: 'Error',
        description: 'You may not invite users to the outlet Court Avenue Taproom.',
        variant: 'destructive',
      }),
    );
    expect(onOpenChange).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(posts().at(-1)).toEqual({
      method: 'post',
      url: '/invitations',
      body: { email: 'ivy@example.com', firstName: 'Ivy', lastName: 'Invitee', roleIds: [6], outletIds: [2], storeIds: [], boardIds: [] },
    });
    expect(notify).toHaveBeenLastCalledWith({
      title: 'Invitation Sent',
      description: 'Invitation has been sent to ivy@example.com',
      variant: 'success',
    });
  });

  it('when the options fail to load, then the outlet list says so', async () => {
    api.on('get', '/invitations/options', problem(500, 'internal_error', 'x'));
    wrap(<InviteUserDialog open onOpenChange={jest.fn()} />);
    expect(await screen.findByText(M.failedOutlets)).toBeInTheDocument();
  });
});

describe('InvitationAcceptPage (spec 002 §2, §4, §5, §8)', () => {
  const INV: PublicInvitation = {
    email: 'ivy@example.com',
    firstName: 'Ivy',
    lastName: 'Invitee',
    roleLabels: ['Outlet Buyer'],
    outletLabels: ['Court Avenue Taproom'],
    storeLabels: [],
    boardLabels: [],
    userExists: false,
    expiresAt: '2026-12-01T00:00:00.000Z',
  };

  it('when the link has no token, then the invalid-link message shows', async () => {
    wrap(<InvitationAcceptPage />, '/invitation/accept');
    expect(await screen.findByRole('alert')).toHaveTextContent(M.invalidLink);
  });

  it.each([
    ['invitation_not_found', 404, M.notFound],
    ['invitation_expired', 410, M.expired],
    ['invitation_used', 409, M.used],
    ['invitation_revoked', 409, M.revoked],
    ['internal_error', 500, M.failedLoad],
  ])('when the server answers %s, then its message shows', async (code, status, message) => {
    api.on('get', '/invitations/{token}', problem(status, code as ProblemCode, 'x'));
    wrap(<InvitationAcceptPage />, '/invitation/accept?inv=abcdefghijklmnopqrstuvwxyz');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });

  it('when a new person fills the form, then passwords must match and a valid form creates the account and offers sign in', async () => {
    const user = userEvent.setup();
    api
      .on('get', '/invitations/{token}', reply(publicInvitationSchema, INV))
      .on('post', '/invitations/{token}/accept', reply(acceptInvitationResultSchema, { userId: 'u1', isNewUser: true }));
    wrap(<InvitationAcceptPage />, '/invitation/accept?inv=abcdefghijklmnopqrstuvwxyz');
    expect(await screen.findByText('Court Avenue Taproom')).toBeInTheDocument();
    expect(screen.getByLabelText('First Name')).toHaveValue('Ivy');
    const checklist = screen.getByRole('list', { name: 'Password requirements' });
    await user.type(screen.getByLabelText('Password'), 'Welcome#2026x');
    expect(within(checklist).getAllByText('(met)')).toHaveLength(5);
    await user.type(screen.getByLabelText('Confirm Password'), 'Welcome#2026');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText("Passwords don't match")).toBeInTheDocument();
    expect(posts()).toEqual([]);
    await user.type(screen.getByLabelText('Confirm Password'), 'x');
    await user.type(screen.getByLabelText('Phone (optional)'), '515-555-0100');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('heading', { name: 'Invitation accepted' })).toBeInTheDocument();
    expect(posts()).toContainEqual({
      method: 'post',
      url: '/invitations/abcdefghijklmnopqrstuvwxyz/accept',
      body: { firstName: 'Ivy', lastName: 'Invitee', phone: '515-555-0100', password: 'Welcome#2026x', confirmPassword: 'Welcome#2026x' },
    });
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/auth?mode=login');
  });

  it('when the account exists, then no password is asked and the profile is sent', async () => {
    const user = userEvent.setup();
    api
      .on('get', '/invitations/{token}', reply(publicInvitationSchema, { ...INV, userExists: true }))
      .on('post', '/invitations/{token}/accept', reply(acceptInvitationResultSchema, { userId: 'u1', isNewUser: false }));
    wrap(<InvitationAcceptPage />, '/invitation/accept?inv=abcdefghijklmnopqrstuvwxyz');
    await user.click(await screen.findByRole('button', { name: 'Accept Invitation' }));
    expect(screen.queryByLabelText('Password')).toBeNull();
    await screen.findByRole('heading', { name: 'Invitation accepted' });
    expect(posts()).toContainEqual({
      method: 'post',
      url: '/invitations/abcdefghijklmnopqrstuvwxyz/accept',
      body: { firstName: 'Ivy', lastName: 'Invitee', phone: null },
    });
  });

  it('when another active account signs in with the phone, then the phone field says so and the form stays', async () => {
    const user = userEvent.setup();
    api
      .on('get', '/invitations/{token}', reply(publicInvitationSchema, { ...INV, userExists: true }))
      .on('post', '/invitations/{token}/accept', problem(409, 'phone_taken', PHONE_MESSAGES.phoneTaken));
    wrap(<InvitationAcceptPage />, '/invitation/accept?inv=abcdefghijklmnopqrstuvwxyz');
    await user.type(await screen.findByLabelText('Phone (optional)'), '515-555-0177');
    await user.click(screen.getByRole('button', { name: 'Accept Invitation' }));
    expect(await screen.findByLabelText('Phone (optional)')).toHaveAccessibleDescription(
      expect.stringContaining(PHONE_MESSAGES.phoneTaken),
    );
    expect(screen.queryByRole('heading', { name: 'Invitation accepted' })).toBeNull();
  });

  it('when the link was used meanwhile, then accepting switches to the used message', async () => {
    const user = userEvent.setup();
    api
      .on('get', '/invitations/{token}', reply(publicInvitationSchema, { ...INV, userExists: true }))
      .on('post', '/invitations/{token}/accept', problem(409, 'invitation_used', 'x'));
    wrap(<InvitationAcceptPage />, '/invitation/accept?inv=abcdefghijklmnopqrstuvwxyz');
    await user.click(await screen.findByRole('button', { name: 'Accept Invitation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(M.used);
  });
});

describe('OutletRequestsPanel', () => {
  it('when a pending request is approved, then it posts, toasts and reloads; an empty list says so', async () => {
    const user = userEvent.setup();
    const item = {
      id: 5,
      status: 'pending' as const,
      userId: 'u',
      userEmail: 'buyer@example.com',
      userName: 'Blake Buyer',
      outletId: 3,
      outletName: 'Open Cellar',
      outletCode: 'TEST-OPEN',
      boardName: 'Iowa',
      createdAt: '2026-11-20T10:00:00.000Z',
      decidedAt: null,
      decidedByEmail: null,
      reason: null,
    };
    let lists = 0;
    api
      .on('get', '/admin/outlet-requests', () =>
        lists++ === 0
          ? reply(adminOutletRequestsPageSchema, { items: [item], page: 1, pageSize: 10, total: 1 })
          : reply(adminOutletRequestsPageSchema, { items: [], page: 1, pageSize: 10, total: 0 }),
      )
      .on(
        'post',
        '/admin/outlet-requests/{id}/approve',
        reply(adminOutletRequestSchema, {
          ...item,
          status: 'approved',
          decidedAt: '2026-11-21T10:00:00.000Z',
          decidedByEmail: 'admin@example.com',
        }),
      );
    wrap(<OutletRequestsPanel />);
    await user.click(await screen.findByRole('button', { name: 'Approve buyer@example.com for Open Cellar' }));
    expect(posts()).toContainEqual({ method: 'post', url: '/admin/outlet-requests/5/approve', body: undefined });
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        title: 'Request approved',
        description: 'Blake Buyer now has access to Open Cellar.',
        variant: 'success',
      }),
    );
    expect(await screen.findByText('No pending outlet requests')).toBeInTheDocument();
    expect(api.urls('get')).toContain('/admin/outlet-requests?page=1&pageSize=10&status=pending');
  });
});
