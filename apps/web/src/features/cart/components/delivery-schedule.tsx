import { useId, useMemo } from 'react';
import { format } from 'date-fns';
import { AlertTriangle, CalendarClock, Siren } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/feedback';
import { Label } from '@/components/ui/field';
import { DatePicker } from '@/components/ui/date-picker';
import { deliveryDayText, formatMoney } from '@/lib/format';
import {
  cutoffText,
  orderDaysText,
  validDeliveryDates,
  zoneAbbreviation,
  zonedDayTime,
  type DeliverySchedule,
} from '@/lib/delivery-schedule';

/** Texts of the delivery schedule (issue 28 §1). */
export const SCHEDULE_TEXTS = {
  dateLabel: 'Delivery date',
  loadFailed: 'The delivery schedule could not be loaded. The store confirms the delivery date.',
  emergency: 'Emergency order',
  emergencyNoneLeft: 'No emergency orders left this year.',
} as const;

/** "11 emergency orders left this year" (1 → singular). */
export function emergencyLeftText(left: number): string {
  return `${left} emergency ${left === 1 ? 'order' : 'orders'} left this year`;
}

/**
 * The Delivery part of the cart's fulfillment (issue 28 §1): "Order by Tue 2 pm for delivery Thu Dec 3" in the
 * store's time zone, a date picker that offers delivery dates only, a notice with the next delivery date when the
 * chosen one has passed its cut-off, and the Emergency order option (fee, allowance left) that skips the calendar.
 */
export function DeliverySchedulePanel({
  schedule,
  loading,
  failed,
  date,
  onDate,
  emergency,
  onEmergency,
}: {
  schedule: DeliverySchedule | undefined;
  loading: boolean;
  failed: boolean;
  date: string | null;
  onDate: (date: string | null) => void;
  emergency: boolean;
  onEmergency: (on: boolean) => void;
}) {
  const id = useId();
  const valid = useMemo(() => new Set(schedule ? validDeliveryDates(schedule) : []), [schedule]);
  if (loading && !schedule) return <Skeleton className="h-20 w-full" />;
  if (!schedule) return failed ? <p className="text-sm text-stone-600">{SCHEDULE_TEXTS.loadFailed}</p> : null;

  const next = schedule.nextDeliveryDate;
  const passed = date !== null && date < next;
  const left = schedule.emergencyAllowance > 0 ? schedule.emergencyOrdersLeft : null;
  const fee = Number(schedule.emergencyFee) > 0 ? formatMoney(schedule.emergencyFee) : null;
  return (
    <div className="space-y-4" data-testid="delivery-schedule">
      <div className="flex gap-3 rounded-md border border-brand-200 bg-brand-50 p-3 text-sm">
        <CalendarClock className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden />
        <div>
          <p className="font-semibold text-stone-900" data-testid="cutoff-text">
            {emergency ? 'Emergency order: delivered outside the order calendar' : cutoffText(schedule)}
          </p>
          <p className="text-stone-600">
            Order days: {orderDaysText(schedule.orderDays)} · cut-off{' '}
            {zonedDayTime(schedule.nextCutoffAt, schedule.timeZone).split(' ').slice(1).join(' ')}{' '}
            {zoneAbbreviation(schedule.nextCutoffAt, schedule.timeZone)} (store time)
          </p>
        </div>
      </div>
      {!emergency && (
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-date`}>{SCHEDULE_TEXTS.dateLabel}</Label>
          <DatePicker
            id={`${id}-date`}
            value={date}
            onChange={onDate}
            placeholder={`Next delivery: ${deliveryDayText(next)}`}
            isDisabled={(d) => !valid.has(format(d, 'yyyy-MM-dd'))}
            firstMonth={next}
            clearLabel="Use the next delivery date"
            className="sm:max-w-xs"
            aria-describedby={passed ? `${id}-passed` : undefined}
          />
          {passed && (
            <div
              id={`${id}-passed`}
              role="alert"
              className="flex flex-wrap items-center gap-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900"
            >
              <AlertTriangle className="h-4 w-4 shrink-0" aria-hidden />
              <span className="flex-1">
                The cut-off for {deliveryDayText(date)} has passed. The next delivery date is {deliveryDayText(next)}.
              </span>
              <Button size="sm" variant="outline" onClick={() => onDate(next)}>
                Deliver {deliveryDayText(next)}
              </Button>
            </div>
          )}
        </div>
      )}
      {left !== null && (
        <div className="flex items-start gap-3 rounded-md border border-stone-200 p-3">
          <Checkbox
            id={`${id}-emergency`}
            checked={emergency}
            disabled={left <= 0 && !emergency}
            onCheckedChange={(v) => {
              onEmergency(v === true);
              // An emergency order skips the calendar: a chosen date would hold it back.
              if (v === true && date !== null) onDate(null);
            }}
            aria-describedby={`${id}-emergency-hint`}
            className="mt-0.5"
          />
          <div className="text-sm">
            <Label htmlFor={`${id}-emergency`} className="flex items-center gap-1.5">
              <Siren className="h-4 w-4 text-red-600" aria-hidden />
              {SCHEDULE_TEXTS.emergency}
              {fee && <span className="font-normal tabular-nums text-stone-600">+{fee}</span>}
            </Label>
            <p id={`${id}-emergency-hint`} className="text-stone-600">
              Skips the order calendar. {left > 0 ? `${emergencyLeftText(left)}.` : SCHEDULE_TEXTS.emergencyNoneLeft}
            </p>
          </div>
        </div>
      )}
    </div>
  );
}
