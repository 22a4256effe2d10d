import { CART_LIMITS, PROBLEM_CODES, type QuantityRule, type SplitCasePolicy } from '@portal/contracts';
import { UnprocessableError } from '../http/errors';

/**
 * Case packs and quantity rules (issue 27, ARCHITECTURE §5 "The licensee's ordering week"): pure arithmetic
 * over whole bottles, shared by the catalog, the cart, checkout, orders, guides and quick order.
 *
 * An item has its own rule (items.min_order_quantity, max_order_quantity, order_increment); its store adds the
 * split-case policy. The **effective rule** at a store:
 * - increment = the item's increment, or at a `full_cases` store lcm(item increment, bottles per case);
 * - min = the smallest multiple of the increment ≥ the item's min;
 * - max = the largest multiple of the increment ≤ min(item max ?? 999, 999), null when the item has no max.
 * A quantity q is valid when min ≤ q ≤ max (or 999) and q is a multiple of the increment.
 * Under `split_fee` every bottle of an incomplete case costs the store's fee: (q mod bottles per case) × fee.
 */

/** What the effective rule is computed from (an item's columns and its store's policy). */
export interface RuleFacts {
  minQty: number;
  maxQty: number | null;
  increment: number;
  /** items.bottles_per_case; null or < 1 counts as 1. */
  bottlesPerCase: number | null;
  policy: SplitCasePolicy;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const lcm = (a: number, b: number) => (a / gcd(a, b)) * b;

/** Bottles per case, 1 when unknown. */
export const casePack = (bottlesPerCase: number | null | undefined): number => (bottlesPerCase && bottlesPerCase > 0 ? bottlesPerCase : 1);

/** The effective rule of an item at a store (see the module comment); the min may exceed the max (nothing valid). */
export function effectiveRule(f: RuleFacts): QuantityRule {
  const own = Math.max(1, f.increment);
  const increment = f.policy === 'full_cases' ? lcm(own, casePack(f.bottlesPerCase)) : own;
  const min = Math.ceil(Math.max(1, f.minQty) / increment) * increment;
  const max = f.maxQty === null ? null : Math.floor(Math.min(f.maxQty, CART_LIMITS.maxQuantity) / increment) * increment;
  return { min, max, increment };
}

/** The largest quantity the rule allows (its max, else the cart's 999 rounded down to the increment). */
export function upperBound(rule: QuantityRule): number {
  return rule.max ?? Math.floor(CART_LIMITS.maxQuantity / rule.increment) * rule.increment;
}

/** Does `q` follow the rule? */
export function isValidQuantity(rule: QuantityRule, q: number): boolean {
  return Number.isInteger(q) && q >= rule.min && q <= upperBound(rule) && q % rule.increment === 0;
}

/** The first quantity a new cart line enters with (the rule's min); null when the rule allows nothing. */
export function firstValid(rule: QuantityRule): number | null {
  return rule.min <= upperBound(rule) ? rule.min : null;
}

/** The valid quantity closest to `q` (a tie goes up); null when the rule allows nothing. */
export function nearestValid(rule: QuantityRule, q: number): number | null {
  const lo = firstValid(rule);
  if (lo === null) return null;
  const hi = upperBound(rule);
  if (q <= lo) return lo;
  if (q >= hi) return hi;
  const down = Math.floor(q / rule.increment) * rule.increment;
  const up = down === q ? q : down + rule.increment;
  return q - down < up - q ? down : up;
}

/** The smallest valid quantity ≥ `q` (the largest valid one when `q` is past it); null when the rule allows nothing. */
export function roundUpToRule(rule: QuantityRule, q: number): number | null {
  const lo = firstValid(rule);
  if (lo === null) return null;
  return Math.min(Math.max(lo, Math.ceil(q / rule.increment) * rule.increment), upperBound(rule));
}

/** The split-case fee of a line in cents: bottles of an incomplete case × the fee, only under `split_fee`. */
export function splitFeeCents(policy: SplitCasePolicy, feeCents: number, bottlesPerCase: number | null, q: number): number {
  const pack = casePack(bottlesPerCase);
  if (policy !== 'split_fee' || pack <= 1 || feeCents <= 0) return 0;
  return (q % pack) * feeCents;
}

/** The rule in words: "in multiples of 6, at least 12, at most 48". */
export function describeRule(rule: QuantityRule): string {
  const parts: string[] = [];
  if (rule.increment > 1) parts.push(`in multiples of ${rule.increment}`);
  if (rule.min > 1) parts.push(`at least ${rule.min}`);
  if (rule.max !== null) parts.push(`at most ${rule.max}`);
  return parts.length ? parts.join(', ') : `from 1 to ${CART_LIMITS.maxQuantity}`;
}

/** The detail of a refused quantity: names the item, the rule and the nearest valid quantity. */
export function ruleMessage(itemCode: string, q: number, rule: QuantityRule): string {
  const near = nearestValid(rule, q);
  const tail = near === null ? 'no quantity is allowed' : `the nearest valid quantity is ${near}`;
  return `Item ${itemCode} is sold ${describeRule(rule)}: ${q} does not fit; ${tail}.`;
}

/**
 * The 422 `quantity_rule` problem for a quantity off the rule, with the members `itemCode`, `quantity`,
 * `nearestValid` (null when nothing is valid) and `rule` { min, max, increment }.
 */
export function quantityRuleError(itemCode: string, q: number, rule: QuantityRule): UnprocessableError {
  return new UnprocessableError(ruleMessage(itemCode, q, rule), PROBLEM_CODES.quantityRule).with({
    itemCode,
    quantity: q,
    nearestValid: nearestValid(rule, q),
    rule: { min: rule.min, max: rule.max, increment: rule.increment },
  });
}
