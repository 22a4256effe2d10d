import * as R from '@radix-ui/react-radio-group';
import { cn } from '@/lib/cn';

export const RadioGroup = ({ className, ...p }: R.RadioGroupProps) => <R.Root className={cn('grid gap-2', className)} {...p} />;
/** A radio dot; pair it with a <Label htmlFor={id}>. */
export const RadioGroupItem = ({ className, ...p }: R.RadioGroupItemProps) => (
  <R.Item
    className={cn(
      'h-4 w-4 shrink-0 rounded-full border border-stone-400 bg-white cursor-pointer data-[state=checked]:border-brand-700 disabled:opacity-50',
      className,
    )}
    {...p}
  >
    <R.Indicator className="flex items-center justify-center after:block after:h-2 after:w-2 after:rounded-full after:bg-brand-700" />
  </R.Item>
);
