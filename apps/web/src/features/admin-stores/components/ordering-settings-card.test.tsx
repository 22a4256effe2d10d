import { screen, waitFor } from '@testing-library/react';
import { notify } from '@/components/ui/toaster';
import { adminStoreSchema } from '@portal/contracts';
import { adminStore } from '@/test/admin-fixtures';
import { FakeApi, problem, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { OrderingSettingsCard } from './ordering-settings-card';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

const store = adminStore({
  id: 2190,
  orderDays: [1, 2, 3, 4, 5],
  cutoffLocalTime: '14:00',
  timeZone: 'America/Chicago',
  deliveryLeadDays: 1,
  deliveryMinimumMl: null,
  deliveryMinimumAmount: null,
  emergencyAllowance: 12,
  emergencyFee: '0.00',
});

function renderCard(api = new FakeApi(), canEdit = true) {
  const onSaved = jest.fn();
  const r = renderRoute(<OrderingSettingsCard store={store} canEdit={canEdit} onSaved={onSaved} />, { api });
  return { ...r, onSaved };
}

describe('Store editor Settings: ordering week (issue 28 §5)', () => {
  it('when the form opens, then it shows the store’s order days, cut-off, zone and allowance', () => {
    renderCard();
    expect(screen.getByRole('checkbox', { name: 'Mon' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Sun' })).not.toBeChecked();
    expect(screen.getByLabelText('Cut-off time')).toHaveValue('14:00');
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toHaveValue('America/Chicago');
    expect(screen.getByRole('textbox', { name: 'Emergency orders a year (per outlet)' })).toHaveValue('12');
    expect(screen.getByRole('button', { name: 'Save ordering settings' })).toBeDisabled();
  });

  it('when a 9 L minimum, a fee and Saturday are saved, then the PATCH carries millilitres, the fee and the days', async () => {
    const api = new FakeApi().on('patch', '/admin/stores/2190', (call) => reply(adminStoreSchema, { ...store, ...(call.body as object) }));
    const { user, onSaved } = renderCard(api);
    await user.click(screen.getByRole('checkbox', { name: 'Sat' }));
    await user.type(screen.getByRole('textbox', { name: 'Delivery minimum (litres)' }), '9');
    const fee = screen.getByRole('textbox', { name: 'Emergency order fee ($)' });
    await user.clear(fee);
    await user.type(fee, '25');
    await user.click(screen.getByRole('button', { name: 'Save ordering settings' }));
    await waitFor(() => expect(api.urls('patch')).toEqual(['/admin/stores/2190']));
    expect(api.calls.find((c) => c.method === 'patch')?.body).toEqual({
      orderDays: [1, 2, 3, 4, 5, 6],
      cutoffLocalTime: '14:00',
      timeZone: 'America/Chicago',
      deliveryLeadDays: 1,
      deliveryMinimumMl: 9000,
      deliveryMinimumAmount: null,
      emergencyAllowance: 12,
      emergencyFee: '25.00',
      splitCasePolicy: 'any',
      splitCaseFee: '0.00',
    });
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Ordering settings saved', variant: 'success' }));
  });

  it('when no order day, a bad lead or a negative amount is entered, then each field says so and nothing is sent', async () => {
    const api = new FakeApi();
    const { user } = renderCard(api);
    for (const d of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']) await user.click(screen.getByRole('checkbox', { name: d }));
    const lead = screen.getByRole('textbox', { name: 'Delivery lead days' });
    await user.clear(lead);
    await user.type(lead, '20');
    await user.type(screen.getByRole('textbox', { name: 'Delivery minimum (amount, $)' }), '-5');
    await user.click(screen.getByRole('button', { name: 'Save ordering settings' }));
    expect(await screen.findByText('Enter a whole number from 0 to 14')).toBeInTheDocument();
    expect(api.urls('patch')).toEqual([]);
    await user.clear(lead);
    await user.type(lead, '2');
    await user.click(screen.getByRole('button', { name: 'Save ordering settings' }));
    expect(await screen.findByText('Choose at least one order day')).toBeInTheDocument();
    expect(screen.getByText('Enter an amount of 0 or more with at most 2 decimals')).toBeInTheDocument();
    expect(api.urls('patch')).toEqual([]);
  });

  it('when the split-fee policy is chosen, then its fee per bottle is asked for and sent', async () => {
    const api = new FakeApi().on('patch', '/admin/stores/2190', (call) => reply(adminStoreSchema, { ...store, ...(call.body as object) }));
    const { user } = renderCard(api);
    expect(screen.queryByRole('textbox', { name: 'Split-case fee per bottle ($)' })).not.toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Split-case policy' }), 'split_fee');
    const fee = screen.getByRole('textbox', { name: 'Split-case fee per bottle ($)' });
    await user.clear(fee);
    await user.type(fee, '0.5');
    await user.click(screen.getByRole('button', { name: 'Save ordering settings' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'patch')?.body).toMatchObject({ splitCasePolicy: 'split_fee', splitCaseFee: '0.50' }),
    );
  });

  it('when the API refuses, then the error is toasted; read-only without the permission', async () => {
    const api = new FakeApi().on('patch', '/admin/stores/2190', problem(403, 'forbidden', 'Not allowed'));
    const { user, unmount } = renderCard(api);
    const lead = screen.getByRole('textbox', { name: 'Delivery lead days' });
    await user.clear(lead);
    await user.type(lead, '2');
    await user.click(screen.getByRole('button', { name: 'Save ordering settings' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith(
        expect.objectContaining({ title: 'Failed to save the ordering settings', variant: 'destructive' }),
      ),
    );
    unmount();
    renderCard(new FakeApi(), false);
    expect(screen.getByRole('textbox', { name: 'Delivery lead days' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save ordering settings' })).not.toBeInTheDocument();
  });
});
