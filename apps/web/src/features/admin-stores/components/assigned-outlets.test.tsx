import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { adminOutletPageSchema, storeOutletPageSchema, type StoreOutletPage } from '@portal/contracts';
import { notify } from '@/components/ui/toaster';
import { FakeApi, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { AssignedOutlets } from './assigned-outlets';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

/** 60 outlets assigned to store 2190: "Bar 01" … "Bar 60". */
const ALL = Array.from({ length: 60 }, (_, i) => {
  const n = String(i + 1).padStart(2, '0');
  return { outletId: i + 1, outletCode: `B-${n}`, outletName: `Bar ${n}`, city: i < 3 ? 'AMES' : 'DES MOINES', state: 'IA', active: true };
});

function serve() {
  let linked = new Set(ALL.map((o) => o.outletId));
  const api = new FakeApi()
    .on('get', '/admin/stores/2190/outlets', (call) => {
      const q = new URL(call.url, 'http://x').searchParams;
      const search = (q.get('search') ?? '').toLowerCase();
      const page = Number(q.get('page') ?? 1);
      const pageSize = Number(q.get('pageSize') ?? 1000);
      const hits = ALL.filter((o) => linked.has(o.outletId) && `${o.outletName} ${o.outletCode} ${o.city}`.toLowerCase().includes(search));
      const body: StoreOutletPage = { items: hits.slice((page - 1) * pageSize, page * pageSize), page, pageSize, total: hits.length };
      return reply(storeOutletPageSchema, body);
    })
    .on('get', '/admin/outlets', reply(adminOutletPageSchema, { items: [], page: 1, pageSize: 10, total: 0 }))
    .on('delete', '/admin/stores/2190/outlets/{id}', (call) => {
      linked.delete(Number(call.url.split('/').pop()));
      return { status: 204 };
    })
    .on('put', '/admin/stores/2190/outlets/{id}', (call) => {
      linked = new Set([...linked, Number(call.url.split('/').pop())]);
      return { status: 204 };
    });
  renderRoute(<AssignedOutlets storeId={2190} storeName="Central City" canEdit />, { api });
  return api;
}
const rows = () =>
  within(screen.getByRole('table', { name: 'Assigned outlets' }))
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0].textContent);

beforeEach(() => (notify as jest.Mock).mockReset());

describe('Assigned Outlets (issue 26 §4)', () => {
  it('pages on the server, 25 at a time, with the total; the filter searches the server from page 1', async () => {
    const api = serve();
    await waitFor(() => expect(rows()).toHaveLength(25));
    expect(rows()[0]).toBe('Bar 01');
    expect(screen.getByText('1–25 of 60 assigned outlets')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(rows()[0]).toBe('Bar 26'));
    expect(api.urls('get')).toContain('/admin/stores/2190/outlets?page=2&pageSize=25');
    await userEvent.type(screen.getByLabelText('Find an assigned outlet'), 'ames');
    await waitFor(() => expect(api.urls('get').at(-1)).toContain('search=ames'));
    await waitFor(() => expect(rows()).toEqual(['Bar 01', 'Bar 02', 'Bar 03']));
    expect(api.urls('get')).toContain('/admin/stores/2190/outlets?page=1&pageSize=25&search=ames');
  });

  it('Remove asks first; Cancel keeps the outlet and sends nothing', async () => {
    const api = serve();
    await waitFor(() => expect(rows()).toHaveLength(25));
    await userEvent.click(screen.getByRole('button', { name: 'Remove Bar 02' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove outlet from store?' });
    expect(dialog).toHaveTextContent('Bar 02 will no longer order from Central City.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.urls('delete')).toEqual([]);
  });

  it("Remove confirmed unlinks, and the toast's Undo links the outlet again", async () => {
    const api = serve();
    await waitFor(() => expect(rows()).toHaveLength(25));
    await userEvent.click(screen.getByRole('button', { name: 'Remove Bar 02' }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.urls('delete')).toEqual(['/admin/stores/2190/outlets/2']));
    await waitFor(() => expect(rows()).not.toContain('Bar 02'));
    const toast = (notify as jest.Mock).mock.calls.at(-1)[0];
    expect(toast).toMatchObject({ title: 'Bar 02 removed from the store', action: { label: 'Undo' } });
    await act(async () => toast.action.onClick());
    await waitFor(() => expect(api.urls('put')).toEqual(['/admin/stores/2190/outlets/2']));
    await waitFor(() => expect(rows()).toContain('Bar 02'));
    expect(notify).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'Bar 02 assigned again' }));
  });
});
