import { screen, waitFor } from '@testing-library/react';
import { outletScheduleOverrideSchema } from '@portal/contracts';
import { notify } from '@/components/ui/toaster';
import { FakeApi, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { OutletScheduleDialog } from './outlet-schedule-dialog';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

/** An outlet's own order schedule at a store (issue 28 §1): loads the overrides, saves only what differs. */
const PATH = '/admin/stores/2190/outlets/7/schedule';
const saved = { outletId: 7, storeId: 2190, orderDays: [2], cutoffLocalTime: null, deliveryLeadDays: null, emergencyAllowance: 4 };

function open() {
  const api = new FakeApi()
    .on('get', PATH, reply(outletScheduleOverrideSchema, saved))
    .on('put', PATH, reply(outletScheduleOverrideSchema, saved));
  const onClose = jest.fn();
  const view = renderRoute(<OutletScheduleDialog storeId={2190} outlet={{ outletId: 7, outletName: 'Bar 07' }} onClose={onClose} />, {
    api,
  });
  return { ...view, api, onClose };
}

it("shows the saved overrides and puts the changed ones; empty fields keep the store's value (null)", async () => {
  const { api, onClose, user } = open();
  expect(await screen.findByRole('dialog', { name: 'Order schedule for Bar 07' })).toBeInTheDocument();
  await waitFor(() => expect(screen.getByLabelText('Tue')).toBeChecked());
  expect(screen.getByLabelText('Emergency orders a year')).toHaveValue('4');
  await user.click(screen.getByLabelText('Thu'));
  await user.type(screen.getByLabelText('Cut-off (store time, HH:MM)'), '11:30');
  await user.clear(screen.getByLabelText('Emergency orders a year'));
  await user.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(onClose).toHaveBeenCalled());
  expect(api.calls.find((c) => c.method === 'put')?.body).toEqual({
    orderDays: [2, 4],
    cutoffLocalTime: '11:30',
    deliveryLeadDays: null,
    emergencyAllowance: null,
  });
  expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Outlet schedule saved' }));
});

it('refuses a malformed cut-off and lead days beyond 14 without a request', async () => {
  const { api, onClose, user } = open();
  await screen.findByRole('dialog');
  await user.type(screen.getByLabelText('Cut-off (store time, HH:MM)'), '2pm');
  await user.type(screen.getByLabelText('Delivery lead days'), '30');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Use the time format HH:MM (24 hours), or leave empty')).toBeInTheDocument();
  expect(screen.getByText('Enter a whole number from 0 to 14, or leave empty')).toBeInTheDocument();
  expect(api.calls.some((c) => c.method === 'put')).toBe(false);
  expect(onClose).not.toHaveBeenCalled();
});
