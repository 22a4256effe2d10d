import { screen, waitFor, within } from '@testing-library/react';
import { adminBoardListSchema, adminBoardSchema } from '@portal/contracts';
import { notify } from '@/components/ui/toaster';
import { FakeApi, problem, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { BoardsTab } from './boards-tab';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

/** Boards tab (spec 002 §2, §3, §5): the list with active stores, sorting, add, a taken board number. */
const BOARDS = [
  { id: 1, boardNumber: 7, name: 'State Board', isActive: true, activeStoreCount: 1200 },
  { id: 2, boardNumber: 3, name: 'Alpine Board', isActive: false, activeStoreCount: 0 },
];
const withBoards = (items = BOARDS) => new FakeApi().on('get', '/admin/boards', reply(adminBoardListSchema, { items }));

beforeEach(() => jest.clearAllMocks());

it('lists the boards and sorts them by a column header (aria-sort)', async () => {
  const { user } = renderRoute(<BoardsTab />, { api: withBoards() });
  const table = await screen.findByRole('table', { name: 'Boards' });
  expect(within(table).getByText('1,200')).toBeInTheDocument();
  const names = () =>
    within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => within(r).getAllByRole('cell')[1].textContent);
  expect(names()).toEqual(['State Board', 'Alpine Board']);
  await user.click(within(table).getByRole('button', { name: 'Name' }));
  expect(names()).toEqual(['Alpine Board', 'State Board']);
  expect(within(table).getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
  await user.click(within(table).getByRole('button', { name: 'Name' }));
  expect(names()).toEqual(['State Board', 'Alpine Board']);
  expect(within(table).getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending');
});

it('when there are no boards, then the empty state shows', async () => {
  renderRoute(<BoardsTab />, { api: withBoards([]) });
  expect(await screen.findByText('No boards yet')).toBeInTheDocument();
});

it('when the board number is taken, then the field says so; a free one is created', async () => {
  let attempt = 0;
  const api = withBoards().on('post', '/admin/boards', () =>
    ++attempt === 1
      ? problem(409, 'board_number_taken', 'Board number 7 is already in use')
      : reply(adminBoardSchema, { id: 3, boardNumber: 8, name: 'New Board', isActive: true, activeStoreCount: 0 }, 201),
  );
  const { user } = renderRoute(<BoardsTab />, { api });
  await user.click(await screen.findByRole('button', { name: 'Add Board' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add Board' });
  await user.type(within(dialog).getByLabelText('Board number *'), '7');
  await user.type(within(dialog).getByLabelText('Name *'), 'New Board');
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(await within(dialog).findByText('Board number 7 is already in use')).toBeInTheDocument();
  await user.clear(within(dialog).getByLabelText('Board number *'));
  await user.type(within(dialog).getByLabelText('Board number *'), '8');
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Board created', description: 'New Board' })));
  expect(api.calls.filter((c) => c.method === 'post').map((c) => c.body)).toEqual([
    { boardNumber: 7, name: 'New Board', isActive: true },
    { boardNumber: 8, name: 'New Board', isActive: true },
  ]);
});
