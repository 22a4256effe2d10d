import { forwardRef } from 'react';
import * as S from '@radix-ui/react-switch';
import { cn } from '@/lib/cn';

/**
 * An on/off switch on Radix (role="switch", Space toggles, focus ring); pair it with a
 * <Label htmlFor={id}> or give it an `aria-label`. Controlled with `checked` / `onCheckedChange`.
 */
export const Switch = forwardRef<HTMLButtonElement, S.SwitchProps>(function Switch({ className, ...p }, ref) {
  return (
    <S.Root
      ref={ref}
      className={cn(
        'relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors',
        'bg-stone-300 data-[state=checked]:bg-brand-700',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-50',
        className,
      )}
      {...p}
    >
      <S.Thumb className="pointer-events-none block h-5 w-5 rounded-full bg-white shadow ring-0 transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0" />
    </S.Root>
  );
});
