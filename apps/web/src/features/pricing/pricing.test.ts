import { analysePricing, effectiveVolumeMl, parsePrice, DEFAULT_VOLUME_ML } from './pricing';

describe('pricing analysis (spec 001 §9)', () => {
  it('when a 750 ml bottle costs $30, then ounce, shot, shots and profits follow the formulas', () => {
    const a = analysePricing(30, 750);
    const oz = 750 / 29.5735;
    expect(a.volumeOz).toBeCloseTo(oz, 6);
    expect(a.pricePerOunce).toBeCloseTo(30 / oz, 6);
    expect(a.pricePerShot).toBeCloseTo((30 / oz) * 1.5, 6);
    expect(a.shotsPerBottle).toBe(16); // 25.36 oz / 1.5 = 16.9 → 16
    expect(a.markups.map((m) => m.percent)).toEqual([400, 550]);
    expect(a.markups[0].shotPrice).toBeCloseTo(4 * a.pricePerShot, 9);
    expect(a.markups[1].shotPrice).toBeCloseTo(5.5 * a.pricePerShot, 9);
    expect(a.markups[0].profit).toBeCloseTo(4 * a.pricePerShot * 16 - 30, 9);
    expect(a.markups[1].profit).toBeCloseTo(5.5 * a.pricePerShot * 16 - 30, 9);
    expect(a.markups[0].shotPrice).toBeCloseTo(7.0977, 3);
    expect(a.markups[0].profit).toBeCloseTo(83.56, 2);
    expect(a.markups[1].profit).toBeCloseTo(126.15, 2);
    expect(a.volumeAssumed).toBe(false);
  });

  it('when the item has a real volume, then that volume is used, not 750 ml', () => {
    expect(analysePricing(20, 1750).shotsPerBottle).toBe(39); // 59.17 oz
    expect(analysePricing(20, 1000).shotsPerBottle).toBe(22); // 33.81 oz
    expect(analysePricing(5, 50).shotsPerBottle).toBe(1); // 1.69 oz
    expect(analysePricing(20, 1000).pricePerOunce).toBeCloseTo(20 / (1000 / 29.5735), 9);
  });

  it('when the volume is unknown (null or 0), then 750 ml is assumed and flagged', () => {
    expect(effectiveVolumeMl(null)).toEqual({ volumeMl: DEFAULT_VOLUME_ML, assumed: true });
    expect(effectiveVolumeMl(0)).toEqual({ volumeMl: 750, assumed: true });
    const a = analysePricing(30, null);
    expect(a.volumeMl).toBe(750);
    expect(a.volumeAssumed).toBe(true);
    expect(a.shotsPerBottle).toBe(16);
  });

  it('when a bottle holds an exact number of shots, then float error does not lose one', () => {
    // 45 oz exactly = 30 shots
    expect(analysePricing(10, 45 * 29.5735).shotsPerBottle).toBe(30);
  });

  it('when the price is 0, then prices are 0 and profit is 0', () => {
    const a = analysePricing(0, 750);
    expect(a.pricePerShot).toBe(0);
    expect(a.markups[0].profit).toBe(0);
  });

  describe('custom price parsing', () => {
    it.each([
      ['24.99', 24.99],
      ['$1,024.50', 1024.5],
      [' 30 ', 30],
      ['30.', 30],
      ['.5', 0.5],
      ['0', 0],
    ])('when %j is typed, then it is %d', (text, n) => {
      expect(parsePrice(text, 99)).toBe(n);
    });
    it.each([[''], ['abc'], ['-5'], ['1e3'], ['12.3.4'], [null], [undefined]])('when %j is typed, then the item price is used', (text) => {
      expect(parsePrice(text, 99)).toBe(99);
    });
  });
});
