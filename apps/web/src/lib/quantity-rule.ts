/**
 * Case packs and quantity rules in the browser (issue 27 §3, ARCHITECTURE §5 "The licensee's ordering week"):
 * a product's `quantityRule { min, max, increment }` in bottles. The API enforces the rule (422 with the
 * nearest valid quantity); these helpers only step inputs and explain the rule before the server answers.
 */
export interface QuantityRule {
  /** Fewest bottles per line (≥ 1). */
  min: number;
  /** Most bottles per line; null = no limit beyond the cart's 999. */
  max: number | null;
  /** Bottles per step (e.g. 6 for half cases); quantities are multiples of it. */
  increment: number;
}

/** The rule of a product without one: any quantity 1–999. */
export const NO_RULE: QuantityRule = { min: 1, max: null, increment: 1 };
/** The cart's own ceiling (spec 001 §5). */
export const CART_MAX = 999;

/** The rule with sane numbers (increment ≥ 1, min ≥ 1, max ≤ 999); null/undefined → NO_RULE. */
export function normaliseRule(rule: Partial<QuantityRule> | null | undefined): QuantityRule {
  if (!rule) return NO_RULE;
  const increment = Math.max(1, Math.floor(rule.increment ?? 1));
  const min = Math.max(1, Math.floor(rule.min ?? 1));
  const max = rule.max == null ? null : Math.min(CART_MAX, Math.floor(rule.max));
  return { min, max, increment };
}

/** Smallest valid quantity: the min rounded up to the increment. */
export function smallestValid(rule: QuantityRule): number {
  return Math.ceil(rule.min / rule.increment) * rule.increment;
}

/** Largest valid quantity: the max (or 999) rounded down to the increment. */
export function largestValid(rule: QuantityRule): number {
  return Math.floor((rule.max ?? CART_MAX) / rule.increment) * rule.increment;
}

/** True when `quantity` bottles obey the rule (0 is "no line" and always allowed). */
export function isValidQuantity(quantity: number, rule: QuantityRule): boolean {
  if (quantity === 0) return true;
  return quantity >= rule.min && quantity <= (rule.max ?? CART_MAX) && quantity % rule.increment === 0;
}

/** The valid quantity nearest to `quantity` (ties round up); 0 stays 0. */
export function nearestValid(quantity: number, rule: QuantityRule): number {
  if (quantity <= 0) return 0;
  const lo = smallestValid(rule);
  const hi = Math.max(lo, largestValid(rule));
  const rounded = Math.round(quantity / rule.increment) * rule.increment;
  return Math.min(hi, Math.max(lo, rounded));
}

/**
 * One step of the quantity box: +1 step goes to the next valid quantity above, −1 to the next below; below
 * the smallest valid quantity the step is 0 (the line goes).
 */
export function stepQuantity(current: number, direction: 1 | -1, rule: QuantityRule): number {
  const lo = smallestValid(rule);
  const hi = Math.max(lo, largestValid(rule));
  if (direction === 1) {
    if (current < lo) return lo;
    const next = (Math.floor(current / rule.increment) + 1) * rule.increment;
    return Math.min(hi, next);
  }
  if (current <= lo) return 0;
  const prev = (Math.ceil(current / rule.increment) - 1) * rule.increment;
  return Math.max(lo, Math.min(hi, prev));
}

/** A person's words for the rule: "In steps of 6 · min 12 · max 120"; '' for NO_RULE. */
export function ruleText(rule: QuantityRule): string {
  const parts: string[] = [];
  if (rule.increment > 1) parts.push(`In steps of ${rule.increment}`);
  if (rule.min > 1) parts.push(`min ${rule.min}`);
  if (rule.max != null && rule.max < CART_MAX) parts.push(`max ${rule.max}`);
  return parts.join(' · ');
}

/** "12 per case" (null when the pack is unknown). */
export function perCaseText(bottlesPerCase: number | null | undefined): string | null {
  return bottlesPerCase && bottlesPerCase > 0 ? `${bottlesPerCase} per case` : null;
}

/** "Only 4 left at this store" when the store has fewer than `wanted` bottles (stock known), else null. */
export function lowStockText(stock: number | null | undefined, wanted: number): string | null {
  if (stock == null || wanted <= 0 || stock >= wanted) return null;
  return stock <= 0 ? 'Out of stock at this store' : `Only ${stock} left at this store`;
}

/** Bottles to order to bring `onHand` up to `par`, rounded up to the rule (0 when the shelf is full). */
export function toOrder(par: number, onHand: number, rule: QuantityRule): number {
  const need = par - Math.max(0, onHand);
  if (need <= 0) return 0;
  const up = Math.ceil(need / rule.increment) * rule.increment;
  return Math.min(Math.max(up, smallestValid(rule)), Math.max(smallestValid(rule), largestValid(rule)));
}

/**
 * The nearest valid quantity a case-rule refusal names (422 with `nearestValid`, issue 27 §3), from the problem's
 * extension member, else from its detail text ("… nearest valid quantity is 12"); null when it names none.
 */
export function nearestValidOf(error: { body?: unknown; problem?: { detail?: string } } | null | undefined): number | null {
  const body = error?.body as { nearestValid?: unknown } | null | undefined;
  if (body && typeof body === 'object' && Number.isInteger(body.nearestValid)) return body.nearestValid as number;
  const m = /nearest valid(?: quantity)?(?: is| would be|:)?\s*(\d+)/i.exec(error?.problem?.detail ?? '');
  return m ? Number(m[1]) : null;
}

/** The case facts a product or cart line may carry (older answers carry none of them). */
export interface CaseFacts {
  bottlesPerCase?: number | null;
  quantityRule?: Partial<QuantityRule> | null;
  stock?: number | null;
}
/** Reads the case facts of any product-like value (fields absent → null). */
export function caseFactsOf(x: object): { bottlesPerCase: number | null; rule: QuantityRule; stock: number | null } {
  const f = x as CaseFacts;
  return { bottlesPerCase: f.bottlesPerCase ?? null, rule: normaliseRule(f.quantityRule), stock: f.stock ?? null };
}
