import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { api, ApiError } from '@/lib/api';
import { useSession } from '@/lib/session';
import { notify } from '@/components/ui/toaster';
import { ItemsTab } from './items-tab';

jest.mock('@/lib/session', () => ({ useSession: jest.fn() }));
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

const item = { id: 5, code: '10006', name: 'SCORESBY RARE SCOTCH', category: 'SCOTCH WHISKIES', retail: '9.38', bottleSizeId: 1, bottleSize: '750 ml', bottlesPerCase: 12, active: true, boardId: 1, boardNumber: 1, storeCount: 3 };
const renderTab = () => render(<SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}><ItemsTab /></SWRConfig>);

beforeEach(() => {
  jest.restoreAllMocks();
  (useSession as jest.Mock).mockReturnValue({ hasAnyPermission: () => true });
});

describe('items tab (spec 002 §2 Items)', () => {
  it('when the list loads, then 20 per page are asked for and the price shows in dollars', async () => {
    const get = jest.spyOn(api, 'get').mockResolvedValue({ data: { items: [item], page: 1, pageSize: 20, total: 1 } });
    renderTab();
    expect(await screen.findByText('SCORESBY RARE SCOTCH')).toBeInTheDocument();
    expect(screen.getByText('$9.38')).toBeInTheDocument();
    expect(get.mock.calls[0][0]).toBe('/admin/items?page=1&pageSize=20');
  });

  it('when the available-online switch fails on the server, then it reverts and a toast says so', async () => {
    jest.spyOn(api, 'get').mockResolvedValue({ data: { items: [item], page: 1, pageSize: 20, total: 1 } });
    jest.spyOn(api, 'patch').mockRejectedValue(new ApiError(500, { type: 'x', title: 'Error', status: 500, code: 'internal_error', detail: 'boom' }));
    renderTab();
    const sw = await screen.findByRole('switch', { name: 'Available online: SCORESBY RARE SCOTCH' });
    expect(sw).toBeChecked();
    fireEvent.click(sw);
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Failed to update item', variant: 'destructive' })));
    expect(screen.getByRole('switch', { name: 'Available online: SCORESBY RARE SCOTCH' })).toBeChecked();
  });

  it('when the server refuses the list with 403, then the spec\'s message shows', async () => {
    jest.spyOn(api, 'get').mockRejectedValue(new ApiError(403, { type: 'x', title: 'Forbidden', status: 403, code: 'forbidden' }));
    renderTab();
    expect(await screen.findByText("You don't have permission to view items. Please contact your administrator.")).toBeInTheDocument();
  });
});
