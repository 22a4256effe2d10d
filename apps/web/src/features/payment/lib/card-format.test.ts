import { caretAfterDigits, formatCardNumber, formatExpiration } from './card-format';

describe('card input formatting (spec 002 §2, §5)', () => {
  it('when digits are typed, then the card number is grouped by 4', () => {
    expect(formatCardNumber('4111111111111111')).toBe('4111 1111 1111 1111');
    expect(formatCardNumber('41111')).toBe('4111 1');
    expect(formatCardNumber('4111 ')).toBe('4111');
  });
  it('when more than 16 digits or other characters are typed, then only 16 digits are kept', () => {
    expect(formatCardNumber('4111-1111-1111-1111-999')).toBe('4111 1111 1111 1111');
    expect(formatCardNumber('abc')).toBe('');
  });
  it('when the expiration is typed, then a slash follows the month', () => {
    expect(formatExpiration('12')).toBe('12');
    expect(formatExpiration('1229')).toBe('12/29');
    expect(formatExpiration('12/299')).toBe('12/29');
  });
  it('when regrouping, then the caret stays after the same digit', () => {
    expect(caretAfterDigits('4111 1111 1', 5)).toBe(6);
    expect(caretAfterDigits('4111 1111 1', 4)).toBe(4);
    expect(caretAfterDigits('4111', 0)).toBe(0);
  });
});
