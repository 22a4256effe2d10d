import { useState } from 'react';
import type { Cart } from '@portal/contracts';
import { cartShortfall, useDeliverySchedule, type Shortfall } from '@/lib/delivery-schedule';

/**
 * The cart's delivery plan (issue 28 §1–2): the outlet × store schedule, the Emergency order choice (sent with
 * checkout) and the shortfall against the store's delivery minimum (null for Pickup, which has none).
 */
export function useDeliveryPlan(cart: Cart | null) {
  const schedule = useDeliverySchedule(cart?.outletId, cart?.storeId);
  const [emergency, setEmergency] = useState(false);
  const minimum = { ml: schedule.data?.deliveryMinimumMl ?? null, amount: schedule.data?.deliveryMinimumAmount ?? null };
  const delivery = cart?.fulfillment.type === 'Delivery';
  const shortfall: Shortfall | null = cart && delivery ? cartShortfall(cart.items, cart.subtotal, minimum) : null;
  return {
    schedule: schedule.data,
    scheduleLoading: schedule.isLoading,
    scheduleFailed: Boolean(schedule.error),
    emergency: delivery && emergency,
    setEmergency,
    shortfall,
    minimum,
  };
}
