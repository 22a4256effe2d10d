import { PackageOpen, TriangleAlert } from 'lucide-react';
import { caseFactsOf, lowStockText, perCaseText, ruleText } from '@/lib/quantity-rule';
import { cn } from '@/lib/cn';

/**
 * A product's pack and rule ("12 per case · In steps of 6") and, when the store has fewer bottles than `wanted`,
 * the low-stock warning ("Only 4 left at this store") — issue 27 §3, §4. Renders nothing when there is nothing to say.
 */
export function CaseFacts({ item, wanted, className }: { item: object; wanted: number; className?: string }) {
  const { bottlesPerCase, rule, stock } = caseFactsOf(item);
  const pack = [perCaseText(bottlesPerCase), ruleText(rule)].filter(Boolean).join(' · ');
  const low = lowStockText(stock, wanted);
  if (!pack && !low) return null;
  return (
    <div className={cn('space-y-0.5 text-xs', className)}>
      {pack && (
        <p className="flex items-center gap-1 text-stone-600">
          <PackageOpen className="h-3.5 w-3.5 shrink-0" aria-hidden />
          {pack}
        </p>
      )}
      {low && (
        <p className="flex items-center gap-1 font-medium text-amber-800">
          <TriangleAlert className="h-3.5 w-3.5 shrink-0" aria-hidden />
          {low}
        </p>
      )}
    </div>
  );
}
