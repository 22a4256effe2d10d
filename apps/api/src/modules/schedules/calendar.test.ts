import { addDays, clockText, localParts, nextSlot, scheduleSummary, weekdayOf, zonedInstant } from './calendar';

/** The order calendar's time-zone arithmetic (issue 28 §1) with a fixed clock: no real waiting. */
const chicago = { orderDays: [1, 2, 3, 4, 5], cutoffLocalTime: '14:00', timeZone: 'America/Chicago', deliveryLeadDays: 2 };

describe('calendar', () => {
  it('when a wall-clock time is turned into an instant, then the zone offset of that date applies (CST −6, CDT −5)', () => {
    expect(zonedInstant('2026-12-01', '14:00', 'America/Chicago').toISOString()).toBe('2026-12-01T20:00:00.000Z');
    expect(zonedInstant('2026-07-01', '14:00', 'America/Chicago').toISOString()).toBe('2026-07-01T19:00:00.000Z');
    expect(zonedInstant('2026-12-01', '09:30', 'Asia/Kolkata').toISOString()).toBe('2026-12-01T04:00:00.000Z');
  });

  it('when the clock crosses midnight in UTC but not in Chicago, then the local date is still the earlier day', () => {
    const p = localParts(new Date('2026-12-02T05:30:00Z'), 'America/Chicago');
    expect(p).toEqual({ date: '2026-12-01', weekday: 2, hour: 23, minute: 30 });
    expect(weekdayOf('2026-12-03')).toBe(4);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('when an order is placed one minute before the cut-off, then it is delivered lead days after today; one minute after, after the next order day', () => {
    // Tue 1 Dec 2026, 13:59 and 14:01 in Chicago.
    const before = nextSlot(chicago, new Date('2026-12-01T19:59:00Z'));
    expect(before).toEqual({ orderDate: '2026-12-01', nextCutoffAt: new Date('2026-12-01T20:00:00Z'), nextDeliveryDate: '2026-12-03' });
    const after = nextSlot(chicago, new Date('2026-12-01T20:01:00Z'));
    expect(after.orderDate).toBe('2026-12-02');
    expect(after.nextCutoffAt.toISOString()).toBe('2026-12-02T20:00:00.000Z');
    expect(after.nextDeliveryDate).toBe('2026-12-04');
  });

  it('when it is late Tuesday night in Chicago but already Wednesday in UTC, then the cut-off is Wednesday 2 pm Chicago', () => {
    const s = nextSlot(chicago, new Date('2026-12-02T05:30:00Z'));
    expect(s.orderDate).toBe('2026-12-02');
    expect(s.nextCutoffAt.toISOString()).toBe('2026-12-02T20:00:00.000Z');
  });

  it('when the cut-off passes on Friday, then the next order day is Monday (weekend skipped)', () => {
    const s = nextSlot(chicago, new Date('2026-12-04T21:00:00Z'));
    expect(s.orderDate).toBe('2026-12-07');
    expect(s.nextDeliveryDate).toBe('2026-12-09');
  });

  it('when the schedule is shown, then it reads "Order by Tue 2 pm for delivery Thu Dec 3"', () => {
    expect(scheduleSummary('2026-12-01', '14:00', '2026-12-03')).toBe('Order by Tue 2 pm for delivery Thu Dec 3');
    expect(clockText('00:30')).toBe('12:30 am');
    expect(clockText('12:00')).toBe('12 pm');
  });
});
