import { useState } from 'react';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { caseFactsOf, type QuantityRule } from '@/lib/quantity-rule';

/** The three boxes' texts ('' = not set). */
export interface RuleTexts {
  min: string;
  max: string;
  increment: string;
}

/** The boxes for an item's rule (blank when it has none: min 1, step 1, no max). */
export function ruleTextsOf(item: object): RuleTexts {
  const has = 'quantityRule' in item && (item as { quantityRule?: unknown }).quantityRule != null;
  if (!has) return { min: '', max: '', increment: '' };
  const { rule } = caseFactsOf(item);
  return { min: String(rule.min), max: rule.max == null ? '' : String(rule.max), increment: String(rule.increment) };
}

/**
 * The texts as a rule for PATCH /admin/items/{id} (issue 27 §3): all blank → null (no rule); otherwise
 * { min, max (null = none), increment } with the errors per box (min ≥ 1, step ≥ 1, max ≥ min, whole numbers).
 */
export function parseRuleTexts(t: RuleTexts): { rule: QuantityRule | null; errors: Partial<Record<keyof RuleTexts, string>> } {
  if (!t.min.trim() && !t.max.trim() && !t.increment.trim()) return { rule: null, errors: {} };
  const num = (s: string, fallback: number | null) => (s.trim() === '' ? fallback : Number(s));
  const min = num(t.min, 1);
  const max = num(t.max, null);
  const increment = num(t.increment, 1);
  const errors: Partial<Record<keyof RuleTexts, string>> = {};
  if (!Number.isInteger(min) || (min as number) < 1) errors.min = 'A whole number, at least 1';
  if (!Number.isInteger(increment) || (increment as number) < 1) errors.increment = 'A whole number, at least 1';
  if (max !== null && (!Number.isInteger(max) || max < (Number.isInteger(min) ? (min as number) : 1)))
    errors.max = 'A whole number, at least the minimum';
  return { rule: Object.keys(errors).length ? null : { min: min as number, max, increment: increment as number }, errors };
}

/**
 * The item editor's "Quantity rule" boxes: minimum, maximum (blank = none) and step in bottles. Controlled by
 * the caller (value, onChange) so the editor sends them with its own fields.
 */
export function QuantityRuleFields({
  value,
  onChange,
  errors,
  bottlesPerCase,
}: {
  value: RuleTexts;
  onChange: (v: RuleTexts) => void;
  errors: Partial<Record<keyof RuleTexts, string>>;
  bottlesPerCase: number | null;
}) {
  const box = (key: keyof RuleTexts, label: string, placeholder: string) => (
    <Field id={`item-rule-${key}`} label={label} error={errors[key]}>
      <Input
        {...describedBy(`item-rule-${key}`, errors[key])}
        inputMode="numeric"
        placeholder={placeholder}
        value={value[key]}
        onChange={(e) => onChange({ ...value, [key]: e.target.value })}
      />
    </Field>
  );
  return (
    <fieldset className="space-y-2 rounded-md border border-stone-200 p-3">
      <legend className="px-1 text-sm font-medium text-stone-800">Quantity rule (bottles)</legend>
      <p className="text-xs text-stone-500">
        {bottlesPerCase ? `${bottlesPerCase} per case. ` : ''}Leave all blank for any quantity; a step of {bottlesPerCase ?? 6} sells whole
        cases only.
      </p>
      <div className="grid grid-cols-3 gap-2">
        {box('min', 'Minimum', '1')}
        {box('max', 'Maximum', 'none')}
        {box('increment', 'Step', '1')}
      </div>
    </fieldset>
  );
}
/** The rule boxes' state for one item; `changed` once they differ from what the item had (only then is the rule sent). */
export function useRuleTexts(item: object) {
  const [initial] = useState<RuleTexts>(() => ruleTextsOf(item));
  const [texts, setTexts] = useState<RuleTexts>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof RuleTexts, string>>>({});
  const changed = texts.min !== initial.min || texts.max !== initial.max || texts.increment !== initial.increment;
  return { texts, setTexts, errors, setErrors, changed };
}
