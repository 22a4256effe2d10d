import {
  isValidQuantity,
  lowStockText,
  nearestValid,
  nearestValidOf,
  normaliseRule,
  ruleText,
  stepQuantity,
  toOrder,
} from './quantity-rule';

const six = normaliseRule({ min: 6, max: 60, increment: 6 });
const min12by6 = normaliseRule({ min: 12, max: null, increment: 6 });

describe('quantity rules (issue 27 §3)', () => {
  it('when stepping with increment 6, then + goes 0→6→12 and − goes 12→6→0 (below the minimum the line goes)', () => {
    expect(stepQuantity(0, 1, six)).toBe(6);
    expect(stepQuantity(6, 1, six)).toBe(12);
    expect(stepQuantity(12, -1, six)).toBe(6);
    expect(stepQuantity(6, -1, six)).toBe(0);
  });
  it('when a typed quantity is off the step, then + and − go to the neighbouring multiples', () => {
    expect(stepQuantity(7, 1, six)).toBe(12);
    expect(stepQuantity(7, -1, six)).toBe(6);
  });
  it('when at the maximum, then + stays there; with a minimum of 12, + from 0 gives 12', () => {
    expect(stepQuantity(60, 1, six)).toBe(60);
    expect(stepQuantity(0, 1, min12by6)).toBe(12);
    expect(stepQuantity(12, -1, min12by6)).toBe(0);
  });
  it('when no rule, then steps are 1 within 0–999', () => {
    const any = normaliseRule(null);
    expect(stepQuantity(1, -1, any)).toBe(0);
    expect(stepQuantity(998, 1, any)).toBe(999);
    expect(stepQuantity(999, 1, any)).toBe(999);
  });
  it('when checking and rounding, then the nearest valid quantity respects min, max and step', () => {
    expect(isValidQuantity(7, six)).toBe(false);
    expect(isValidQuantity(12, six)).toBe(true);
    expect(nearestValid(7, six)).toBe(6);
    expect(nearestValid(9, six)).toBe(12);
    expect(nearestValid(100, six)).toBe(60);
    expect(nearestValid(3, min12by6)).toBe(12);
  });
  it('when filling from a guide, then par − on hand is rounded up to the rule', () => {
    expect(toOrder(12, 5, six)).toBe(12);
    expect(toOrder(12, 6, six)).toBe(6);
    expect(toOrder(12, 12, six)).toBe(0);
    expect(toOrder(12, 20, six)).toBe(0);
    expect(toOrder(7, 0, normaliseRule(null))).toBe(7);
  });
  it('when describing, then the rule and low stock read as sentences', () => {
    expect(ruleText(min12by6)).toBe('In steps of 6 · min 12');
    expect(ruleText(normaliseRule(null))).toBe('');
    expect(lowStockText(4, 6)).toBe('Only 4 left at this store');
    expect(lowStockText(0, 1)).toBe('Out of stock at this store');
    expect(lowStockText(10, 6)).toBeNull();
    expect(lowStockText(null, 6)).toBeNull();
  });
  it('when a refusal names the nearest valid quantity, then it is read from the body or the detail', () => {
    expect(nearestValidOf({ body: { nearestValid: 12 } })).toBe(12);
    expect(nearestValidOf({ problem: { detail: 'Sold in steps of 6; the nearest valid quantity is 18.' } })).toBe(18);
    expect(nearestValidOf({ problem: { detail: 'Nope' } })).toBeNull();
  });
});
