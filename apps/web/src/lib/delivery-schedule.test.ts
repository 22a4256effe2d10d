import {
  cartShortfall,
  cutoffText,
  litresText,
  orderDaysText,
  shortfallText,
  validDeliveryDates,
  weekdayNumbers,
  zonedDate,
  type DeliverySchedule,
} from './delivery-schedule';
import { deliveryDayText } from './format';

// Tue Dec 1 2026 20:00 UTC = 2 pm in Chicago (CST, UTC−6), 3 pm in New York, Wed 9 am in Auckland (NZDT, UTC+13).
const CUTOFF = '2026-12-01T20:00:00.000Z';
const schedule = (over: Partial<DeliverySchedule> = {}): DeliverySchedule => ({
  outletId: 1,
  storeId: 2190,
  orderDays: [2, 4],
  cutoffLocalTime: '14:00',
  timeZone: 'America/Chicago',
  deliveryLeadDays: 2,
  nextCutoffAt: CUTOFF,
  nextDeliveryDate: '2026-12-03',
  deliveryMinimumMl: null,
  deliveryMinimumAmount: null,
  emergencyAllowance: 12,
  emergencyOrdersUsed: 0,
  emergencyOrdersLeft: 12,
  emergencyFee: '25.00',
  summary: 'Order by Tue 2 pm for delivery Thu Dec 3',
  ...over,
});

describe('cut-off text (issue 28 §1)', () => {
  it('when the store is in Chicago, then the cut-off reads in Chicago time: "Order by Tue 2 pm for delivery Thu Dec 3"', () => {
    expect(cutoffText(schedule())).toBe('Order by Tue 2 pm for delivery Thu Dec 3');
  });
  it('when the same instant belongs to a store in another time zone, then its local weekday and hour show', () => {
    expect(cutoffText(schedule({ timeZone: 'America/New_York' }))).toBe('Order by Tue 3 pm for delivery Thu Dec 3');
    expect(cutoffText(schedule({ timeZone: 'Pacific/Auckland' }))).toBe('Order by Wed 9 am for delivery Thu Dec 3');
  });
  it('when the cut-off has minutes, then they show ("2:30 pm")', () => {
    expect(cutoffText(schedule({ nextCutoffAt: '2026-12-01T20:30:00Z' }))).toBe('Order by Tue 2:30 pm for delivery Thu Dec 3');
  });
  it('when the delivery date is a calendar date, then no time zone moves it', () => {
    expect(deliveryDayText('2026-12-03')).toBe('Thu Dec 3');
    expect(deliveryDayText('2027-01-01')).toBe('Fri Jan 1');
  });
  it('when an instant is near midnight, then its calendar date is the store-local one', () => {
    expect(zonedDate('2026-12-02T03:00:00Z', 'America/Chicago')).toBe('2026-12-01');
    expect(zonedDate('2026-12-02T03:00:00Z', 'Europe/Berlin')).toBe('2026-12-02');
  });
});

describe('order days and delivery dates', () => {
  it('when order days come as names or ISO numbers, then they read as weekdays', () => {
    expect(weekdayNumbers(['Monday', 'tue', 7])).toEqual([0, 1, 2]);
    expect(orderDaysText([1, 2, 3, 4, 5, 6, 7])).toBe('Every day');
    expect(orderDaysText(['tue', 'thu'])).toBe('Tuesday, Thursday');
  });
  it('when orders go on Tue and Thu with two lead days, then the picker offers Thu and Sat of each week from the next delivery', () => {
    expect(validDeliveryDates(schedule(), 4)).toEqual(['2026-12-03', '2026-12-05', '2026-12-10', '2026-12-12']);
  });
  it('when the lead is one day, then deliveries fall the day after each order day', () => {
    expect(validDeliveryDates(schedule({ deliveryLeadDays: 1, nextDeliveryDate: '2026-12-02' }), 3)).toEqual([
      '2026-12-02',
      '2026-12-04',
      '2026-12-09',
    ]);
  });
});

describe('delivery minimum shortfall (issue 28 §2)', () => {
  it('when 2.3 L is missing, then the text says "Add 2.3 L more for delivery"', () => {
    expect(shortfallText({ ml: 2300, amount: 0 })).toBe('Add 2.3 L more for delivery');
  });
  it('when a volume would round down, then it rounds up so adding it is enough', () => {
    expect(litresText(2250)).toBe('2.3 L');
    expect(litresText(9000)).toBe('9 L');
  });
  it('when the amount or both are short, then both show', () => {
    expect(shortfallText({ ml: 0, amount: 12.5 })).toBe('Add $12.50 more for delivery');
    expect(shortfallText({ ml: 750, amount: 5 })).toBe('Add 0.8 L and $5.00 more for delivery');
  });
  it('when nothing is short, then there is no text', () => {
    expect(shortfallText({ ml: 0, amount: 0 })).toBeNull();
  });
  it('when the cart holds 9 bottles of 750 ml against 9 L, then 2.25 L is short; unknown sizes count 750 ml', () => {
    const lines = [
      { quantity: 8, volumeMl: 750 },
      { quantity: 1, volumeMl: null },
    ];
    expect(cartShortfall(lines, '100.00', { ml: 9000 })).toEqual({ ml: 2250, amount: 0 });
    expect(cartShortfall(lines, '100.00', { amount: '150.10' })).toEqual({ ml: 0, amount: 50.1 });
    expect(cartShortfall(lines, '100.00', {})).toEqual({ ml: 0, amount: 0 });
  });
});
