import { screen, waitFor, within } from '@testing-library/react';
import { notify } from '@/components/ui/toaster';
import { FakeApi, problem, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { claimListSchema, claimSchema, type Claim } from '../../api/claims';
import { makeOrder } from '../test-fixtures';
import { ClaimsSection, canReportProblem } from './claims-section';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
// Radix checkboxes and radios measure themselves; jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

const completed = makeOrder({
  id: 55,
  orderNumber: 'ORD-DONE-55',
  status: 'completed',
  items: [
    {
      id: 1,
      itemCode: '43336',
      itemName: 'Captain Morgan Spiced Rum',
      bottleSizeId: 750,
      bottleSizeText: '750ML',
      quantity: 2,
      unitPrice: '29.99',
      totalPrice: '59.98',
    },
    {
      id: 2,
      itemCode: '35918',
      itemName: 'Titos Handmade Vodka',
      bottleSizeId: 750,
      bottleSizeText: '750ML',
      quantity: 6,
      unitPrice: '23.87',
      totalPrice: '143.22',
    },
  ],
});
const openClaim: Claim = {
  id: 9,
  claimId: 9,
  orderId: 55,
  orderNumber: 'ORD-DONE-55',
  status: 'open',
  note: 'one broken in the case',
  openedBy: 'Blake Buyer',
  openedAt: '2026-01-06T10:00:00Z',
  outcome: null,
  resolutionNote: null,
  resolvedAt: null,
  creditAmount: '0.00',
  lines: [{ id: 1, itemCode: '43336', itemName: null, quantity: 1, reason: 'damaged', outcome: null, creditAmount: null }],
};

beforeEach(() => (notify as jest.Mock).mockClear());

describe('Report a problem (issue 28 §4)', () => {
  it('when nothing is picked, then the form says so and sends nothing', async () => {
    const api = new FakeApi().on('get', '/orders/55/claims', reply(claimListSchema, { items: [] }));
    const { user } = renderRoute(<ClaimsSection order={completed} canReport canResolve={false} />, { api });
    await user.click(await screen.findByRole('button', { name: 'Report a problem' }));
    await user.click(screen.getByRole('button', { name: 'Send claim' }));
    expect(await screen.findByText('Pick at least one line to report.')).toBeInTheDocument();
    expect(api.urls('post')).toEqual([]);
  });

  it('when more bottles than ordered or no reason are given, then each field says what is wrong', async () => {
    const api = new FakeApi().on('get', '/orders/55/claims', reply(claimListSchema, { items: [] }));
    const { user } = renderRoute(<ClaimsSection order={completed} canReport canResolve={false} />, { api });
    await user.click(await screen.findByRole('button', { name: 'Report a problem' }));
    await user.click(screen.getByRole('checkbox', { name: /Captain Morgan Spiced Rum/ }));
    const qty = screen.getByRole('textbox', { name: 'Bottles' });
    await user.clear(qty);
    await user.type(qty, '3');
    await user.click(screen.getByRole('button', { name: 'Send claim' }));
    expect(await screen.findByText('Enter a whole number from 1 to 2.')).toBeInTheDocument();
    expect(screen.getByText('Choose a reason.')).toBeInTheDocument();
    expect(qty).toHaveAttribute('aria-invalid', 'true');
    expect(api.urls('post')).toEqual([]);
  });

  it('when a valid claim is sent, then the body holds the picked line, reason and note, and the new claim shows', async () => {
    let claims: Claim[] = [];
    const api = new FakeApi()
      .on('get', '/orders/55/claims', () => reply(claimListSchema, { items: claims }))
      .on('post', '/orders/55/claims', () => {
        claims = [openClaim];
        return reply(claimSchema, openClaim, 201);
      });
    const { user } = renderRoute(<ClaimsSection order={completed} canReport canResolve={false} />, { api });
    await user.click(await screen.findByRole('button', { name: 'Report a problem' }));
    await user.click(screen.getByRole('checkbox', { name: /Captain Morgan Spiced Rum/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Reason' }), 'damaged');
    await user.type(screen.getByRole('textbox', { name: 'Note (optional)' }), 'one broken in the case');
    await user.click(screen.getByRole('button', { name: 'Send claim' }));
    await waitFor(() => expect(api.urls('post')).toEqual(['/orders/55/claims']));
    expect(api.calls.find((c) => c.method === 'post')?.body).toEqual({
      lines: [{ itemCode: '43336', quantity: 1, reason: 'damaged' }],
      note: 'one broken in the case',
    });
    const claim = await screen.findByTestId('claim');
    expect(claim).toHaveTextContent('1 × Captain Morgan Spiced Rum (43336) · Damaged');
    expect(within(claim).getByText('Open')).toBeInTheDocument();
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Problem reported' }));
  });

  it('when the server refuses (the 48 h window passed), then its reason is toasted', async () => {
    const api = new FakeApi()
      .on('get', '/orders/55/claims', reply(claimListSchema, { items: [] }))
      .on('post', '/orders/55/claims', problem(409, 'conflict', 'Claims are accepted within 48 hours of completion.'));
    const { user } = renderRoute(<ClaimsSection order={completed} canReport canResolve={false} />, { api });
    await user.click(await screen.findByRole('button', { name: 'Report a problem' }));
    await user.click(screen.getByRole('checkbox', { name: /Titos/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Reason' }), 'short');
    await user.click(screen.getByRole('button', { name: 'Send claim' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith(expect.objectContaining({ description: 'Claims are accepted within 48 hours of completion.' })),
    );
  });

  it('when the order is not completed or completed over 48 h ago, then no problem can be reported', () => {
    expect(canReportProblem(makeOrder({ status: 'ready' }))).toBe(false);
    const done = { ...completed, completedAt: '2026-01-01T00:00:00Z' };
    expect(canReportProblem(done, Date.parse('2026-01-02T23:00:00Z'))).toBe(true);
    expect(canReportProblem(done, Date.parse('2026-01-03T00:00:01Z'))).toBe(false);
  });
});

describe('Resolving a claim (store side)', () => {
  it('when rejecting without a reason, then the reason is asked for; with one, the outcome is posted', async () => {
    let claims: Claim[] = [openClaim];
    const api = new FakeApi()
      .on('get', '/orders/55/claims', () => reply(claimListSchema, { items: claims }))
      .on('post', '/claims/9/resolve', () => {
        claims = [
          {
            ...openClaim,
            status: 'resolved',
            outcome: 'rejected',
            resolutionNote: 'Not from our delivery',
            resolvedAt: '2026-01-06T12:00:00Z',
          },
        ];
        return { status: 200, body: {} };
      });
    const { user } = renderRoute(<ClaimsSection order={completed} canReport={false} canResolve />, { api });
    expect(screen.queryByRole('button', { name: 'Report a problem' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Resolve' }));
    await user.click(screen.getByRole('radio', { name: 'Rejected' }));
    await user.click(screen.getByRole('button', { name: 'Resolve claim' }));
    expect(await screen.findByText('Give the reason for rejecting the claim.')).toBeInTheDocument();
    expect(api.urls('post')).toEqual([]);
    await user.type(screen.getByRole('textbox', { name: 'Reason' }), 'Not from our delivery');
    await user.click(screen.getByRole('button', { name: 'Resolve claim' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'post')?.body).toEqual({ outcome: 'rejected', note: 'Not from our delivery' }),
    );
    expect(await screen.findByTestId('claim-resolution')).toHaveTextContent('Rejected');
    expect(screen.getByTestId('claim-resolution')).toHaveTextContent('Not from our delivery');
  });
});
