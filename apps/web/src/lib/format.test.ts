import { formatCount, formatDate, formatDateTime, formatDateTimeMedium, formatMoney, formatShortDateTime } from './format';

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

  it('when compared with Intl en-US over many values, then money, counts and dates are the same text (no Intl at load)', () => {
    const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    const values = [
      0, 0.0000001, 0.01, 0.1, 0.125, 0.5, 0.994, 0.995, 1.005, 9.99, 23.87, 999.995, 1000, 1234.5, 98765.43, 1234567.891, -5, -1234.56,
    ];
    for (const v of values) {
      expect(formatMoney(v)).toBe(usd.format(v));
      expect(formatMoney(String(v))).toBe(usd.format(v));
    }
    for (const v of [0, 7, 999, 1000, 25000, 1234567, 1e9, -42, -1500]) expect(formatCount(v)).toBe(v.toLocaleString('en-US'));
    const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
    const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
    const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', hour12: true });
    const timeText = (d: Date) => time.format(d).replace(/\s/g, ' ');
    const medium = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
    for (let month = 0; month < 12; month++)
      for (const hour of [0, 1, 9, 11, 12, 13, 23]) {
        const d = new Date(2026, month, 1 + month * 2, hour, (month * 7) % 60);
        expect(formatDate(d)).toBe(day.format(d));
        expect(formatDateTime(d)).toBe(`${day.format(d)} ${timeText(d)}`);
        expect(formatShortDateTime(d)).toBe(`${monthDay.format(d)}, ${timeText(d)}`);
        expect(formatDateTimeMedium(d)).toBe(medium.format(d).replace(/\s/g, ' '));
      }
  });
});
