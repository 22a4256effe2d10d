import { useState, type CSSProperties } from 'react';
import * as Popover from '@radix-ui/react-popover';
import { DayPicker, type Matcher } from 'react-day-picker';
import 'react-day-picker/style.css';
import { format, parseISO, startOfToday } from 'date-fns';
import { CalendarDays, X } from 'lucide-react';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';
import { inputClass } from './input';

const calendarVars = {
  '--rdp-accent-color': 'var(--color-brand-700)',
  '--rdp-accent-background-color': 'var(--color-brand-50)',
  '--rdp-day-height': '40px',
  '--rdp-day-width': '40px',
  '--rdp-day_button-height': '38px',
  '--rdp-day_button-width': '38px',
} as CSSProperties;

/** The days the calendar refuses: before today (disablePast) and those `isDisabled` answers true for. */
function disabledMatchers(disablePast: boolean, isDisabled?: (day: Date) => boolean): Matcher[] {
  const out: Matcher[] = [];
  if (disablePast) out.push({ before: startOfToday() });
  if (isDisabled) out.push(isDisabled);
  return out;
}

/**
 * A date field: a button showing the chosen date (MMM d, yyyy) that opens a calendar in a popover
 * (react-day-picker: arrow keys move, Enter picks, Escape closes). `value` is 'YYYY-MM-DD' or null.
 * Pair it with <Label htmlFor={id}>. `disablePast` disables the days before today; `isDisabled` disables any
 * other day it answers true for (e.g. days that are not delivery days).
 */
export function DatePicker({
  id,
  value,
  onChange,
  placeholder = 'Pick a date',
  disablePast = false,
  isDisabled,
  firstMonth,
  disabled,
  clearLabel = 'Clear date',
  className,
  'aria-describedby': describedBy,
}: {
  id: string;
  value: string | null;
  onChange: (value: string | null) => void;
  placeholder?: string;
  disablePast?: boolean;
  isDisabled?: (day: Date) => boolean;
  /** The month ('YYYY-MM-DD' of any day in it) the calendar opens on when no date is chosen. */
  firstMonth?: string;
  disabled?: boolean;
  clearLabel?: string;
  className?: string;
  'aria-describedby'?: string;
}) {
  const [open, setOpen] = useState(false);
  const selected = value ? parseISO(value) : undefined;
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Trigger asChild>
          <button
            id={id}
            type="button"
            disabled={disabled}
            aria-describedby={describedBy}
            className={cn(inputClass, 'flex items-center gap-2 text-left cursor-pointer', !value && 'text-stone-500')}
          >
            <CalendarDays className="h-4 w-4 shrink-0 text-stone-500" aria-hidden />
            <span className="truncate">{value ? formatDate(value) : placeholder}</span>
          </button>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content
            align="start"
            sideOffset={6}
            collisionPadding={8}
            className="z-50 rounded-lg border border-stone-200 bg-white p-3 shadow-lg"
          >
            <DayPicker
              mode="single"
              style={calendarVars}
              selected={selected}
              defaultMonth={selected ?? (firstMonth ? parseISO(firstMonth) : undefined)}
              onSelect={(d) => {
                onChange(d ? format(d, 'yyyy-MM-dd') : null);
                setOpen(false);
              }}
              disabled={disabledMatchers(disablePast, isDisabled)}
              modifiersClassNames={{ selected: '[&>button]:bg-brand-700 [&>button]:text-white [&>button]:font-semibold' }}
              autoFocus
            />
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      {value && !disabled && (
        <button
          type="button"
          onClick={() => onChange(null)}
          aria-label={clearLabel}
          title={clearLabel}
          className="flex h-10 w-10 shrink-0 items-center justify-center rounded-md text-stone-500 hover:bg-stone-100 hover:text-stone-900 cursor-pointer"
        >
          <X className="h-4 w-4" aria-hidden />
        </button>
      )}
    </div>
  );
}
