import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OrderSchedule } from '@portal/contracts';
import { ApiError } from '@/lib/api';
import { belowMinimumText } from '../api/use-checkout';
import { DeliveryMinimumNote } from './delivery-minimum-note';
import { DeliverySchedulePanel } from './delivery-schedule';

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

const schedule: OrderSchedule = {
  outletId: 1,
  storeId: 2190,
  orderDays: [2, 4],
  cutoffLocalTime: '14:00',
  timeZone: 'America/Chicago',
  deliveryLeadDays: 2,
  nextCutoffAt: '2026-12-01T20:00:00.000Z',
  nextDeliveryDate: '2026-12-03',
  deliveryMinimumMl: 9000,
  deliveryMinimumAmount: null,
  emergencyAllowance: 12,
  emergencyOrdersUsed: 1,
  emergencyOrdersLeft: 11,
  emergencyFee: '25.00',
  summary: 'Order by Tue 2 pm for delivery Thu Dec 3',
};
const panel = (over: Partial<Parameters<typeof DeliverySchedulePanel>[0]> = {}) => (
  <DeliverySchedulePanel
    schedule={schedule}
    loading={false}
    failed={false}
    date={null}
    onDate={jest.fn()}
    emergency={false}
    onEmergency={jest.fn()}
    {...over}
  />
);

describe('cart delivery schedule (issue 28 §1)', () => {
  it('when the schedule loads, then the cut-off reads in store time and the emergency option shows its fee and allowance', () => {
    render(panel());
    expect(screen.getByTestId('cutoff-text')).toHaveTextContent('Order by Tue 2 pm for delivery Thu Dec 3');
    expect(screen.getByText(/cut-off 2 pm CST \(store time\)/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delivery date' })).toHaveTextContent('Next delivery: Thu Dec 3');
    expect(screen.getByRole('checkbox', { name: /Emergency order/ })).toHaveAccessibleDescription(/11 emergency orders left this year/);
    expect(screen.getByText('+$25.00')).toBeInTheDocument();
  });

  it('when the chosen date is before the next delivery date, then the passed cut-off is flagged and one click takes the next date', async () => {
    const onDate = jest.fn();
    render(panel({ date: '2026-12-01', onDate }));
    expect(screen.getByRole('alert')).toHaveTextContent('The cut-off for Tue Dec 1 has passed. The next delivery date is Thu Dec 3.');
    await userEvent.click(screen.getByRole('button', { name: 'Deliver Thu Dec 3' }));
    expect(onDate).toHaveBeenCalledWith('2026-12-03');
  });

  it('when an emergency order is chosen, then the calendar is skipped; with none left the option is disabled', async () => {
    const onEmergency = jest.fn();
    const { rerender } = render(panel({ onEmergency }));
    await userEvent.click(screen.getByRole('checkbox', { name: /Emergency order/ }));
    expect(onEmergency).toHaveBeenCalledWith(true);
    rerender(panel({ emergency: true }));
    expect(screen.queryByRole('button', { name: 'Delivery date' })).not.toBeInTheDocument();
    expect(screen.getByTestId('cutoff-text')).toHaveTextContent('Emergency order');
    rerender(panel({ schedule: { ...schedule, emergencyOrdersLeft: 0 } }));
    expect(screen.getByRole('checkbox', { name: /Emergency order/ })).toBeDisabled();
    expect(screen.getByText(/No emergency orders left this year/)).toBeInTheDocument();
  });
});

describe('delivery minimum (issue 28 §2)', () => {
  it('when the cart is 2.3 L short, then the note says "Add 2.3 L more for delivery" and names the minimum', () => {
    render(<DeliveryMinimumNote shortfall={{ ml: 2300, amount: 0 }} minimumMl={9000} />);
    expect(screen.getByRole('status')).toHaveTextContent('Add 2.3 L more for delivery');
    expect(screen.getByRole('status')).toHaveTextContent('This store delivers orders from 9 L. Pickup has no minimum.');
  });
  it('when nothing is short (or it is a pickup), then there is no note', () => {
    const { container } = render(<DeliveryMinimumNote shortfall={null} minimumMl={9000} />);
    expect(container).toBeEmptyDOMElement();
  });
  it('when checkout is refused with below_delivery_minimum, then the toast text comes from shortfallMl / shortfallAmount', () => {
    const body = {
      type: 'x',
      title: 'Conflict',
      status: 409,
      code: 'below_delivery_minimum',
      detail: 'Add 7.5 L more for delivery.',
      shortfallMl: 7500,
      shortfallAmount: '12.00',
    };
    const err = new ApiError(409, body, body);
    expect(belowMinimumText(err)).toBe('Add 7.5 L and $12.00 more for delivery');
    const bare = new ApiError(409, { ...body }, undefined);
    expect(belowMinimumText(bare)).toBe('Add 7.5 L more for delivery.');
  });
});
