import { screen } from '@testing-library/react';
import { useSession } from '@/lib/session';
import { renderRoute } from '@/test/render-route';
import { AdminRoute } from './admin-dashboard';

jest.mock('@/lib/session', () => ({ useSession: jest.fn() }));
jest.mock('./tabs', () => ({
  ADMIN_TABS: [
    { id: 'data-sync', label: 'Data Synch', permissions: ['sync'], Panel: () => <p>The sync panel</p> },
    { id: 'users', label: 'Users', permissions: ['users'], Panel: () => <p>The users panel</p> },
    { id: 'roles', label: 'Roles', permissions: ['roles'], Panel: () => <p>The roles panel</p> },
  ],
}));

/** /admin with the fake tabs above, for a user holding `codes`. */
function renderAdmin(codes: string[], url = '/admin') {
  (useSession as jest.Mock).mockReturnValue({ hasAnyPermission: (c: string[]) => c.some((x) => codes.includes(x)) });
  return renderRoute(<AdminRoute />, { url });
}
const panel = () => screen.getByRole('tabpanel');

describe('the admin dashboard’s tabs (spec 002 §2)', () => {
  it('when it opens, then only the permitted tabs show and one panel, named by the first tab and controlled by every tab, shows its content', () => {
    renderAdmin(['sync', 'users']);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Data Synch', 'Users']);
    expect(screen.getAllByRole('tabpanel')).toHaveLength(1);
    expect(panel()).toHaveAccessibleName('Data Synch');
    expect(panel()).toHaveTextContent('The sync panel');
    for (const tab of screen.getAllByRole('tab')) expect(tab).toHaveAttribute('aria-controls', panel().id);
  });

  it('when the URL names a tab, then its panel shows; when another tab is chosen, then the panel shows that one', async () => {
    const { user } = renderAdmin(['sync', 'users', 'roles'], '/admin?tab=users');
    expect(screen.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Users' })).toHaveTextContent('The users panel');
    await user.click(screen.getByRole('tab', { name: 'Roles' }));
    expect(screen.getByRole('tabpanel', { name: 'Roles' })).toHaveTextContent('The roles panel');
    expect(screen.queryByText('The users panel')).not.toBeInTheDocument();
  });

  it('when the user holds no admin permission, then it says so and shows no tabs', () => {
    renderAdmin([]);
    expect(screen.getByText("You don't have access to any administration area.")).toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
  });
});
