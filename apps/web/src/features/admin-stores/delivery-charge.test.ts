import { blurDeliveryCharge, typeDeliveryCharge } from './delivery-charge';

describe('delivery charge typing and blur rules (spec 002 §5)', () => {
  it.each([
    ['12.345', '12.34'],
    ['$5', '5'],
    ['5a.5b', '5.5'],
    ['1.2.3', '1.23'],
    ['-3', '3'],
    ['', ''],
    ['abc', ''],
  ])('when %j is typed, then the field shows %j', (raw, shown) => expect(typeDeliveryCharge(raw)).toBe(shown));
  it.each([
    ['5', '5.00'],
    ['5.', '5.00'],
    ['.5', '0.50'],
    ['', '0.00'],
    ['12.3', '12.30'],
    ['007', '7.00'],
  ])('when %j is left, then it becomes %j', (v, out) => expect(blurDeliveryCharge(v)).toBe(out));
});
