import { fireEvent, screen, waitFor } from '@testing-library/react';
import { adminItemPageSchema } from '@portal/contracts';
import { useSession } from '@/lib/session';
import { notify } from '@/components/ui/toaster';
import { FakeApi, problem, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { ItemsTab } from './items-tab';

jest.mock('@/lib/session', () => ({ useSession: jest.fn() }));
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

const item = {
  id: 5,
  code: '10006',
  name: 'SCORESBY RARE SCOTCH',
  category: 'SCOTCH WHISKIES',
  retail: '9.38',
  bottleSizeId: 1,
  bottleSize: '750 ml',
  bottlesPerCase: 12,
  quantityRule: null,
  active: true,
  boardId: 1,
  boardNumber: 1,
  storeCount: 3,
};
const withItems = () =>
  new FakeApi().on('get', '/admin/items', reply(adminItemPageSchema, { items: [item], page: 1, pageSize: 20, total: 1 }));

beforeEach(() => {
  jest.restoreAllMocks();
  (useSession as jest.Mock).mockReturnValue({ hasAnyPermission: () => true });
});

describe('items tab (spec 002 §2 Items)', () => {
  it('when the list loads, then 20 per page are asked for and the price shows in dollars', async () => {
    const { api } = renderRoute(<ItemsTab />, { api: withItems() });
    expect(await screen.findByText('SCORESBY RARE SCOTCH')).toBeInTheDocument();
    expect(screen.getByText('$9.38')).toBeInTheDocument();
    expect(api.calls[0].url).toBe('/admin/items?page=1&pageSize=20');
  });

  it('when the available-online switch fails on the server, then it reverts and a toast says so', async () => {
    renderRoute(<ItemsTab />, { api: withItems().on('patch', '/admin/items/{id}', problem(500, 'internal_error', 'boom')) });
    const sw = await screen.findByRole('switch', { name: 'Available online: SCORESBY RARE SCOTCH' });
    expect(sw).toBeChecked();
    fireEvent.click(sw);
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Failed to update item', variant: 'destructive' })),
    );
    expect(screen.getByRole('switch', { name: 'Available online: SCORESBY RARE SCOTCH' })).toBeChecked();
  });

  it("when the server refuses the list with 403, then the spec's message shows", async () => {
    renderRoute(<ItemsTab />, { api: new FakeApi().on('get', '/admin/items', problem(403, 'forbidden', 'Forbidden')) });
    expect(await screen.findByText("You don't have permission to view items. Please contact your administrator.")).toBeInTheDocument();
  });
});
