import * as C from '@radix-ui/react-checkbox';
import { Check } from 'lucide-react';
import { cn } from '@/lib/cn';

/** A checkbox; pair it with a <Label htmlFor={id}>. */
export const Checkbox = ({ className, ...p }: C.CheckboxProps) => (
  <C.Root
    className={cn(
      'flex h-4 w-4 shrink-0 items-center justify-center rounded border border-stone-400 bg-white cursor-pointer data-[state=checked]:border-brand-700 data-[state=checked]:bg-brand-700 disabled:opacity-50',
      className,
    )}
    {...p}
  >
    <C.Indicator>
      <Check className="h-3 w-3 text-white" aria-hidden />
    </C.Indicator>
  </C.Root>
);
