import { formatDate, formatDateTime, formatMoney, formatShortDateTime } from './format';

/** Spec 000 §9 / spec 001 §9: en-US money and the portal's date formats. */
describe('format', () => {
  it('when given money as a decimal string, a number or nothing, then it is US dollars', () => {
    expect(formatMoney('23.87')).toBe('$23.87');
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(null)).toBe('$0.00');
    expect(formatMoney('not money')).toBe('$0.00');
  });

  it('when given a date-only string, then it is that calendar day (not shifted by the time zone)', () => {
    expect(formatDate('2022-10-05')).toBe('Oct 5, 2022');
    expect(formatDate('2026-01-31')).toBe('Jan 31, 2026');
  });

  it('when given a local date and time, then the formats are MMM d, yyyy / MMM d, yyyy h:mm a / MMM d, h:mm a', () => {
    const d = new Date(2022, 9, 5, 15, 5);
    expect(formatDate(d)).toBe('Oct 5, 2022');
    expect(formatDateTime(d)).toBe('Oct 5, 2022 3:05 PM');
    expect(formatShortDateTime(d)).toBe('Oct 5, 3:05 PM');
    expect(formatDateTime(new Date(2022, 0, 1, 0, 0))).toBe('Jan 1, 2022 12:00 AM');
    expect(formatShortDateTime(new Date(2022, 11, 31, 12, 30).toISOString())).toBe('Dec 31, 12:30 PM');
  });

  it('when the date is not a date, then it throws a RangeError (as before)', () => {
    expect(() => formatDate('yesterday-ish')).toThrow(RangeError);
  });
});
