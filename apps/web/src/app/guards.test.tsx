import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { useSession, type SessionValue } from '@/lib/session';
import { renderRoute } from '@/test/render-route';
import { RequireAuth } from './guards';

jest.mock('@/lib/session', () => ({ ...jest.requireActual('@/lib/session'), useSession: jest.fn() }));

function mock(status: SessionValue['status'], codes: string[] = [], withMe = true) {
  (useSession as jest.Mock).mockReturnValue({
    status,
    me: withMe && status === 'authenticated' ? { permissions: codes } : null,
    hasPermission: (c: string) => codes.includes(c),
    hasAnyPermission: (cs: string[]) => cs.some((c) => codes.includes(c)),
  });
}
function renderGuarded(permissions?: string, deniedMessage?: string) {
  renderRoute(
    <Routes>
      <Route
        path="/secret"
        element={
          <RequireAuth permissions={permissions} deniedMessage={deniedMessage}>
            <p>secret page</p>
          </RequireAuth>
        }
      />
      <Route path="/auth" element={<p>auth page</p>} />
      <Route path="/" element={<p>home page</p>} />
    </Routes>,
    { url: '/secret' },
  );
}

describe('route guards (spec 000 §2, spec 002 §2)', () => {
  it('when the session is loading, then a spinner shows', () => {
    mock('loading');
    renderGuarded();
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(screen.queryByText('secret page')).not.toBeInTheDocument();
  });
  it('when signed in but the user and permissions are not loaded yet, then it waits with a spinner', () => {
    mock('authenticated', [], false);
    renderGuarded('bcc.orders.store.manage');
    expect(screen.getByRole('status')).toBeInTheDocument();
  });
  it('when nobody is signed in, then it goes to /auth', () => {
    mock('unauthenticated');
    renderGuarded();
    expect(screen.getByText('auth page')).toBeInTheDocument();
  });
  it('when signed in without the permission, then it goes to /', () => {
    mock('authenticated', ['bcc.carts.use']);
    renderGuarded('bcc.orders.store.manage');
    expect(screen.getByText('home page')).toBeInTheDocument();
  });
  it("when a route names its denial text (the checkout's), then a signed-in user without the permission reads it", () => {
    mock('authenticated', ['bcc.carts.use']);
    renderGuarded('bcc.carts.checkout', "You don't have permission to access the checkout");
    expect(screen.getByRole('alert')).toHaveTextContent("Access DeniedYou don't have permission to access the checkout");
    expect(screen.queryByText('secret page')).not.toBeInTheDocument();
    expect(screen.queryByText('home page')).not.toBeInTheDocument();
  });
  it('when a comma-separated list is given, then any one permission lets the user through', () => {
    mock('authenticated', ['bcc.users.manage_outlet']);
    renderGuarded('bcc.users.super_admin, bcc.admin.user_roles.manage,bcc.users.manage_store,bcc.users.manage_outlet');
    expect(screen.getByText('secret page')).toBeInTheDocument();
  });
  it('when signed in and no permission is asked, then the page shows', () => {
    mock('authenticated');
    renderGuarded();
    expect(screen.getByText('secret page')).toBeInTheDocument();
  });
});
