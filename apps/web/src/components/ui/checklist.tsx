import { Check, Circle } from 'lucide-react';
import { cn } from '@/lib/cn';

export interface Requirement {
  label: string;
  test: (value: string) => boolean;
}

/**
 * A live list of requirements for a value (e.g. the password checklist of spec 000 §2): each line
 * turns green with a tick when met; screen readers hear "met" / "not met" after each label.
 */
export function RequirementChecklist({
  value,
  requirements,
  id,
  className,
  label = 'Requirements',
}: {
  value: string;
  requirements: readonly Requirement[];
  id?: string;
  className?: string;
  label?: string;
}) {
  return (
    <ul id={id} aria-label={label} className={cn('grid gap-1 text-sm', className)}>
      {requirements.map((r) => {
        const met = r.test(value);
        return (
          <li key={r.label} data-met={met} className={cn('flex items-center gap-2', met ? 'text-emerald-700' : 'text-stone-500')}>
            {met ? <Check className="h-4 w-4 shrink-0" aria-hidden /> : <Circle className="h-3.5 w-3.5 shrink-0 mx-[1px]" aria-hidden />}
            <span>{r.label}</span>
            <span className="sr-only">{met ? '(met)' : '(not met)'}</span>
          </li>
        );
      })}
    </ul>
  );
}
