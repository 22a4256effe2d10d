import { CalendarClock, Siren } from 'lucide-react';
import type { CheckoutSession } from '@portal/contracts';
import { deliveryDayText, formatMoney } from '@/lib/format';
import { cutoffText, useDeliverySchedule } from '@/lib/delivery-schedule';

/**
 * Checkout's schedule line for a Delivery (issue 28 §1): the delivery day the server set for the session and the
 * outlet's next cut-off in the store's time zone ("Order by Tue 2 pm for delivery Thu Dec 3"), or the emergency
 * order with its fee, which skips the calendar.
 */
export function DeliveryScheduleNote({ session }: { session: CheckoutSession }) {
  const schedule = useDeliverySchedule(session.outletId, session.storeId);
  if (session.emergency) {
    return (
      <p className="flex gap-2 rounded-md bg-red-50 p-3 text-red-900" data-testid="checkout-schedule">
        <Siren className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        Emergency order: delivered outside the order calendar
        {session.emergencyFee && Number(session.emergencyFee) > 0 ? ` (fee ${formatMoney(session.emergencyFee)} included)` : ''}.
      </p>
    );
  }
  if (!schedule.data) return null;
  return (
    <p className="flex gap-2 rounded-md bg-brand-50 p-3 text-stone-800" data-testid="checkout-schedule">
      <CalendarClock className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" aria-hidden />
      <span>
        {session.fulfillmentDate && session.fulfillmentDate !== schedule.data.nextDeliveryDate
          ? `Delivered ${deliveryDayText(session.fulfillmentDate)}. Next: ${cutoffText(schedule.data)}.`
          : `${cutoffText(schedule.data)}.`}
      </span>
    </p>
  );
}
